//! Floor 5: AI usage preferences for a URL and a crawler, as an `impl Robots` block. The groups
//! are the crawl verdict's (RFC 9309 §2.2.1); a URL the crawler may not fetch carries no
//! Content-Usage preference ([I-5]); among the groups' Content-Usage rules the longest matching
//! path decides, ties combined most-restrictively (draft-ietf-aipref-attach-05 §3.1, [I-1] to
//! [I-4]); Content-Signal is read per group, for every URL ([I-9], [I-10]). What a statement
//! says, and why, is `aipref`'s; this file selects and matches. A query allocates nothing
//! beyond what [`Robots::path`] does for the crawl verdict.

use crate::aipref::{
    answers, combine_answers, signal, Answer, Answers, LongestMatch, Origin, SignalAnswer,
    SignalMember, Signals, Statement, Why, COUNT, SIGNAL_COUNT,
};
use crate::decide::{Path, Selection, Verdict};
use crate::model::{span, Group};
use crate::pattern::{Compiled, Subject};
use crate::robots::Robots;

/// What a site says about using a URL's content, for one crawler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiPreferences {
    /// The crawl verdict for the same URL and crawler: the gate of [I-5].
    pub verdict: Verdict,
    /// robots.txt's Content-Usage, per category of [`crate::aipref::CATEGORIES`].
    pub content_usage: Answers,
    /// robots.txt's Content-Signal, per signal of [`crate::aipref::SIGNALS`]; `None` when no
    /// Content-Signal line applies to the crawler's group ([I-9]).
    pub content_signal: Option<[SignalAnswer; SIGNAL_COUNT]>,
    /// The `Content-Usage` header's own answers, when one was given.
    pub header_usage: Option<Answers>,
    /// robots.txt and the header combined per category (VOCAB §5.1), when a header was given.
    pub combined: Option<Answers>,
}

impl Robots {
    /// What the site says about using `url`'s content, for `agent` (a product token or a
    /// User-Agent header, read as [`Robots::check`] reads it). `header`: the response's
    /// `Content-Usage` field value, if any (several field lines joined with ", ", RFC 9110
    /// §5.3, as `aipref::parse_header` joins them).
    ///
    /// ```
    /// use robots_eval::{aipref::Preference, Robots};
    /// let robots = Robots::parse(b"User-Agent: *\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n");
    /// let p = robots.ai_preferences("https://example.com/ai-ok/x", "ExampleBot", None);
    /// assert_eq!(p.content_usage[0].preference, Preference::Allowed); // train-ai
    /// assert_eq!(p.content_usage[0].why.to_string(), "stated by line 3");
    /// ```
    pub fn ai_preferences(&self, url: &str, agent: &str, header: Option<&[u8]>) -> AiPreferences {
        self.ai_preferences_path(&self.path(url), self.selection(agent), header)
    }

    /// `ai_preferences` for a URL read by [`Robots::path`] and a crawler's [`Selection`] (a
    /// decision table reads each once).
    pub fn ai_preferences_path(
        &self,
        path: &Path<'_>,
        selection: Selection,
        header: Option<&[u8]>,
    ) -> AiPreferences {
        let verdict = self.check_path(path, selection);
        let content_usage = self.content_usage(path, selection, &verdict);
        let header_usage = header.map(|value| answers(&Statement::parse(value), Origin::Header));
        AiPreferences {
            verdict,
            content_usage,
            content_signal: self.content_signal(selection),
            header_usage,
            combined: header_usage.map(|h| combine_answers(&content_usage, &h)),
        }
    }

    /// The extra keys of the Content-Signal lines that apply to the crawler (such as 2026's
    /// `use`), as written, each given to `each(line, key, value)`, in file order.
    pub fn content_signal_extras(
        &self,
        selection: Selection,
        mut each: impl FnMut(u32, &str, &str),
    ) {
        for group in self.selected(selection) {
            for line in self.signals.get(span(&group.signals)).unwrap_or_default() {
                let Some(members) = signal::members(self.str(&line.value).as_bytes()) else {
                    continue;
                };
                for m in members {
                    if let SignalMember::Extra { key, value } = m {
                        each(line.line, text(key), text(value));
                    }
                }
            }
        }
    }

    /// The groups a selection stands for.
    fn selected(&self, selection: Selection) -> impl Iterator<Item = &Group> + '_ {
        let set = match selection {
            Selection::None => None,
            Selection::Specific(s) | Selection::Global(s) => self.sets.get(s as usize),
        };
        let groups = set.and_then(|set| self.set_groups.get(span(&set.groups)));
        groups
            .unwrap_or_default()
            .iter()
            .filter_map(|&g| self.groups.get(g as usize))
    }

    fn content_usage(&self, path: &Path<'_>, selection: Selection, verdict: &Verdict) -> Answers {
        if !verdict.allowed {
            return [Answer::unknown(Why::NotCrawlable(self.line_of(verdict))); COUNT];
        }
        let subject = Subject::new(path.as_bytes());
        let mut found = LongestMatch::default();
        let mut any = false;
        for group in self.selected(selection) {
            for rule in self.usage.get(span(&group.usage)).unwrap_or_default() {
                any = true;
                let length = match &rule.pattern {
                    None => Some(0),
                    Some(pattern) => {
                        let pattern = self.bytes.get(span(pattern)).unwrap_or_default();
                        Compiled::new(pattern, self.dialect.wildcards)
                            .matches(&subject)
                            .then_some(pattern.len() as u32)
                    }
                };
                if let Some(length) = length {
                    found.offer(length, rule.line, &rule.statement);
                }
            }
        }
        // ATTACH-05 §3.4: a crawler with a group of its own does not fall back to `*`'s rules.
        if !any && matches!(selection, Selection::Specific(_)) {
            return [Answer::unknown(Why::OwnGroupSilent); COUNT];
        }
        found.answers()
    }

    fn content_signal(&self, selection: Selection) -> Option<[SignalAnswer; SIGNAL_COUNT]> {
        let mut signals = Signals::default();
        for group in self.selected(selection) {
            for line in self.signals.get(span(&group.signals)).unwrap_or_default() {
                signals.offer(line.line, line.values);
            }
        }
        signals.answers()
    }
}

/// A piece of a value that is text (split at ASCII bytes), as text.
fn text(bytes: &[u8]) -> &str {
    core::str::from_utf8(bytes).unwrap_or("")
}
