//! robots.txt, the first family: how it was fetched ([D-11]), the crawl gate (the fetch token's
//! verdict, [S-3]), the purpose tokens' verdicts ([S-5], [S-6]), and then the AI preferences of
//! the groups read for each token ([S-7]).

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::vec::Vec;

use super::answer::Effect;
use super::crawler::Governing;
use super::resolver::Resolver;
use super::trace::{Entry, Signal, Where};
use super::words::Note;
use crate::aipref::operators::PURPOSES;
use crate::decide::{Selection, Verdict};
use crate::lifecycle::fetch::Policy;
use crate::model::RuleKind;

impl Resolver<'_, '_> {
    pub(super) fn robots_txt(&mut self) {
        if self.robots_fetch() {
            self.gate_and_tokens();
            self.preference_lines();
        }
        self.robots_read = true;
    }

    /// How robots.txt was had, when it was fetched: `false` when that settles it (a 4xx taken
    /// as allow-all, a 5xx or a network failure taken as disallow-all), and nothing in it is
    /// read.
    fn robots_fetch(&mut self) -> bool {
        let Some(f) = self.inputs.robots_fetch else {
            return true;
        };
        let status = f
            .status
            .map_or("no response".to_owned(), |s| format!("HTTP {s}"));
        match f.policy {
            Policy::AllowAll => {
                let e = Entry::new(Signal::RobotsTxt, Where::default())
                    .raw(status)
                    .rules(&["RFC 9309 §2.3.1.3", "S-6"])
                    .note(Note::RobotsUnavailable { reason: f.reason });
                self.push(e);
                false
            }
            Policy::DisallowAll | Policy::Defer => {
                let mut e = Entry::new(Signal::RobotsTxt, Where::default())
                    .scope(self.crawler.fetch_token.clone())
                    .raw(status)
                    .rules(&["RFC 9309 §2.3.1.4", "S-3"])
                    .note(Note::RobotsUnreachable { reason: f.reason });
                for p in PURPOSES {
                    e.set(p, Effect::Deny);
                }
                self.crawlable = false;
                self.push(e);
                false
            }
            Policy::Parse { .. } | Policy::FollowRedirect | Policy::UseCached => true,
        }
    }

    /// The crawl gate, then the purpose tokens' statements ([S-6]): the fetch token's own are
    /// on the gate's entry.
    fn gate_and_tokens(&mut self) {
        let fetch = self.crawler.fetch_token.clone();
        let gate = self.check(&fetch);
        self.crawlable = gate.allowed;
        let mut entry = self.verdict_entry(&fetch, &gate);
        if !gate.allowed {
            for p in PURPOSES {
                entry.set(p, Effect::Deny);
            }
            entry = entry.rules(&["RFC 9309 §2.2.2", "S-3"]);
        }
        entry = entry.note(Note::Fetch {
            token: fetch.clone(),
            allowed: gate.allowed,
        });
        let mut others = Vec::new();
        for g in &self.governing {
            if g.token.eq_ignore_ascii_case(&fetch) {
                statement(&mut entry, g, &gate);
            } else {
                let v = self.check(&g.token);
                let mut e = self.verdict_entry(&g.token, &v);
                statement(&mut e, g, &v);
                others.push(e);
            }
        }
        self.push(entry);
        for e in others {
            self.push(e);
        }
    }

    /// A robots.txt entry for a token's verdict: the deciding rule, or the group, or none.
    fn verdict_entry(&self, token: &str, v: &Verdict) -> Entry {
        let rule = self.robots.deciding_rule(v);
        let group_line = self
            .robots
            .selected_groups(v.selection)
            .next()
            .map(|g| g.line());
        let at = match (rule, group_line) {
            (Some(r), _) => Where::line(r.line),
            (None, Some(line)) => Where::line(line),
            (None, None) => Where::default(),
        };
        let mut e = Entry::new(Signal::RobotsTxt, at).scope(token.to_owned());
        if let Some(r) = rule {
            let kind = match r.kind {
                RuleKind::Allow => "Allow",
                RuleKind::Disallow => "Disallow",
            };
            e = e.raw(format!("{kind}: {}", r.pattern));
        }
        e = e.note(Note::Verdict {
            token: token.to_owned(),
            allowed: v.allowed,
            selection: v.selection,
            reason: v.reason,
        });
        // [S-18], [D-9]: Google's two AI-input channels, named where a statement addresses one.
        if token.eq_ignore_ascii_case("Google-Extended") {
            e = e.note(Note::GoogleExtended);
        }
        e
    }

    /// Content-Usage and Content-Signal lines of the groups read for each token ([S-7]).
    fn preference_lines(&mut self) {
        for reading in self.readings() {
            let prefs = self
                .robots
                .ai_preferences_path(&self.path, reading.selection, None);
            let scope = match reading.selection {
                Selection::Global(_) => format!("{} (the * group)", reading.tokens),
                _ => reading.tokens.clone(),
            };
            self.content_usage_lines(&reading, &prefs, &scope);
            self.content_signal_lines(&reading, &scope);
        }
    }
}

/// What a purpose token's verdict says for its purposes ([S-5], [S-6]): disallowed denies them;
/// allowed allows them only for a token its own group names and that is documented for these
/// purposes only.
fn statement(e: &mut Entry, g: &Governing, v: &Verdict) {
    e.rules.extend_from_slice(&["S-5", "S-6"]);
    let named = matches!(v.selection, Selection::Specific(_));
    for p in g.purposes.iter() {
        if !v.allowed {
            e.set(p, Effect::Deny);
        } else if named && g.dedicated {
            e.set(p, Effect::Allow);
        }
    }
    if v.allowed && !(named && g.dedicated) {
        let token = g.token.clone();
        e.notes.push(match named {
            true => Note::NotDedicated { token },
            false => Note::AnyCrawler { token },
        });
    }
}
