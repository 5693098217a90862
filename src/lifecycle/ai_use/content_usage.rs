//! Content-Usage (draft-ietf-aipref-attach-05): the rules of robots.txt's groups read for the
//! crawler (§3, [S-7], [S-8]), and the `Content-Usage` response header (§2). Each resolves by the
//! family's own rules first (longest match, [I-1] to [I-5], `preferences`), then one entry per
//! deciding line.

use alloc::format;
use alloc::vec::Vec;

use super::answer::Effect;
use super::resolver::{Reading, Resolver};
use super::trace::{Entry, Signal, Where};
use super::words::{Note, Problem};
use crate::aipref::operators::Purpose;
use crate::aipref::{Member, Origin, Preference, Statement, Why, CATEGORIES};
use crate::model::RecordKind;
use crate::preferences::AiPreferences;

impl Resolver<'_, '_> {
    /// The Content-Usage lines of one reading's groups: an entry per line that decided some
    /// category, or, when the URL is disallowed for the group, an entry per line saying so.
    pub(super) fn content_usage_lines(
        &mut self,
        reading: &Reading,
        prefs: &AiPreferences,
        scope: &str,
    ) {
        let mut lines: Vec<u32> = Vec::new();
        for a in &prefs.content_usage {
            if let Some(Origin::Line(l)) = a.why.origin() {
                if !lines.contains(&l) {
                    lines.push(l);
                }
            }
        }
        for line in lines {
            let raw = self
                .records(reading.selection, RecordKind::ContentUsage)
                .find(|r| r.line == line)
                .map_or("", |r| r.value);
            let mut e = Entry::new(Signal::ContentUsage, Where::line(line))
                .scope(scope)
                .raw(format!("Content-Usage: {raw}"))
                .rules(&["draft-ietf-aipref-attach-05 §3.1", "S-7", "S-8"]);
            for (c, a) in CATEGORIES.iter().zip(&prefs.content_usage) {
                let Some(p) = Purpose::from_label(c.label) else {
                    continue;
                };
                if a.why.origin() != Some(Origin::Line(line)) {
                    continue;
                }
                if let Why::Malformed(..) = a.why {
                    e.error = Some(Problem::Preference(a.why));
                }
                if !reading.purposes.contains(p) {
                    continue;
                }
                match a.preference {
                    Preference::Allowed => e.set(p, Effect::Allow),
                    Preference::Disallowed => e.set(p, Effect::Deny),
                    Preference::Unknown => {}
                }
            }
            self.push(e);
        }
        let not_crawlable =
            (prefs.content_usage.iter()).all(|a| matches!(a.why, Why::NotCrawlable(_)));
        if not_crawlable {
            let cut: Vec<Entry> = self
                .records(reading.selection, RecordKind::ContentUsage)
                .map(|r| {
                    Entry::new(Signal::ContentUsage, Where::line(r.line))
                        .scope(scope)
                        .raw(format!("Content-Usage: {}", r.value))
                        .rules(&["draft-ietf-aipref-attach-05 §3.1", "I-5"])
                        .note(Note::UsageNotCrawlable)
                })
                .collect();
            for e in cut {
                self.push(e);
            }
        }
    }

    /// The `Content-Usage` response header: its field lines as one Dictionary.
    pub(super) fn content_usage_header(&mut self) {
        let lines = self.header("content-usage");
        if lines.is_empty() {
            return;
        }
        // Field lines are one Dictionary, joined with ", " (RFC 9110 §5.3, SF §4.2).
        let value = lines.join(", ");
        let statement = Statement::parse(value.as_bytes());
        let mut e = Entry::new(
            Signal::ContentUsageHeader,
            Where::header("Content-Usage", None),
        )
        .raw(value.clone())
        .rules(&["draft-ietf-aipref-attach-05 §2", "S-8"]);
        if let Some(err) = statement.error() {
            e.error = Some(Problem::NotADictionary {
                offset: err.offset,
                failure: err.failure,
            });
        }
        for (i, c) in CATEGORIES.iter().enumerate() {
            let Some(p) = Purpose::from_label(c.label) else {
                continue;
            };
            match statement.member(i) {
                Member::Stated(Preference::Allowed) => e.set(p, Effect::Allow),
                Member::Stated(Preference::Disallowed) => e.set(p, Effect::Deny),
                Member::Other(t) => {
                    e = e.note(Note::UsageNotYesNo {
                        label: c.label,
                        kind: t,
                    });
                }
                _ => {}
            }
        }
        self.push(e);
    }
}
