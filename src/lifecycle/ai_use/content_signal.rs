//! Content-Signal (the Content Signals Policy): the lines of robots.txt's groups read for the
//! crawler ([I-8], [I-9], [S-7], [S-8]), and its non-standard carriers, a response header and a
//! META tag ([S-16]). `use` is a reuse ceiling, reported as a condition, never an answer ([S-15]).

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::answer::Effect;
use super::resolver::{Reading, Resolver};
use super::trace::{Condition, Entry, Signal, Where};
use super::words::{Carrier, Note};
use crate::aipref::operators::{Purpose, Purposes, PURPOSES};
use crate::aipref::{signal, Preference, SignalMember, SIGNAL_KEYS};
use crate::lifecycle::meta::HeadMeta;
use crate::model::RecordKind;

/// The reuse levels of Content-Signal's `use`, least to most permissive ([S-15]).
const USE_LEVELS: [&str; 3] = ["immediate", "reference", "full"];

impl Resolver<'_, '_> {
    /// The Content-Signal lines of one reading's groups: one entry per line; lines combine as
    /// any no, else any yes ([I-9]).
    pub(super) fn content_signal_lines(&mut self, reading: &Reading, scope: &str) {
        let lines: Vec<(u32, String)> = self
            .records(reading.selection, RecordKind::ContentSignal)
            .map(|r| (r.line, r.value.to_owned()))
            .collect();
        for (line, value) in lines {
            let e = Entry::new(Signal::ContentSignal, Where::line(line))
                .scope(scope)
                .raw(format!("Content-Signal: {value}"))
                .rules(&["Content Signals Policy", "I-8", "I-9", "S-7", "S-8"]);
            let e = self.signals(e, &value, reading.purposes);
            self.push(e);
        }
    }

    /// Content-Signal as a response header or a META tag: non-standard carriers ([S-16]).
    pub(super) fn content_signal_carriers(&mut self) {
        let all = Purposes::of(&PURPOSES);
        for (i, value) in self.header("content-signal").into_iter().enumerate() {
            let at = Where::header("Content-Signal", u32::try_from(i).ok());
            let e = Entry::new(Signal::ContentSignal, at)
                .raw(value)
                .rules(&["S-16", "I-8"])
                .note(Note::NonStandardCarrier(Carrier::Header));
            let e = self.signals(e, value, all);
            self.push(e);
        }
        let tags: Vec<HeadMeta> = (self.head.tags.iter())
            .filter(|t| t.name.eq_ignore_ascii_case("content-signal"))
            .cloned()
            .collect();
        for tag in tags {
            let value = tag.content.unwrap_or_default();
            let e = Entry::new(Signal::ContentSignal, Where::tag(tag.index))
                .raw(format!("<meta name=\"{}\" content=\"{value}\">", tag.name))
                .rules(&["S-16", "I-8"])
                .note(Note::NonStandardCarrier(Carrier::Meta));
            let e = self.signals(e, &value, all);
            self.push(e);
        }
    }

    /// A Content-Signal value's effects for `purposes` ([I-8], [S-8]) on its entry `e`, and its
    /// `use` ceiling ([S-15]).
    fn signals(&mut self, mut e: Entry, value: &str, purposes: Purposes) -> Entry {
        let Some(members) = signal::members(value.as_bytes()) else {
            return e.note(Note::SignalPathForm);
        };
        for m in members {
            match m {
                SignalMember::Signal {
                    signal,
                    value,
                    preference,
                } => {
                    let key = SIGNAL_KEYS.get(signal).copied().unwrap_or("");
                    let Some(p) = Purpose::from_label(key) else {
                        continue;
                    };
                    match preference {
                        // Several values of a key in one line: any no, else any yes ([I-9]).
                        Preference::Disallowed if purposes.contains(p) => e.set(p, Effect::Deny),
                        Preference::Allowed
                            if purposes.contains(p) && e.effect.get(p).is_none() =>
                        {
                            e.set(p, Effect::Allow);
                        }
                        Preference::Unknown => e.notes.push(Note::SignalNotYesNo {
                            key,
                            value: String::from_utf8_lossy(value).into_owned(),
                        }),
                        _ => {}
                    }
                }
                SignalMember::Extra { key, value } => {
                    let key = String::from_utf8_lossy(key);
                    let value = String::from_utf8_lossy(value);
                    if key.eq_ignore_ascii_case("use") {
                        if let Some(note) = self.use_ceiling(&value, e.at.clone()) {
                            e.notes.push(note);
                        }
                    } else {
                        e.notes.push(Note::NotASignal {
                            key: key.into_owned(),
                        });
                    }
                }
                SignalMember::Empty => e.notes.push(Note::EmptyMember),
            }
        }
        e
    }

    /// Content-Signal's `use`: a reuse ceiling, reported, never an answer; several give the most
    /// restrictive ([S-15]). A value that is no level is noted on the entry.
    fn use_ceiling(&mut self, value: &str, at: Where) -> Option<Note> {
        let v = value.trim().to_ascii_lowercase();
        let Some(level) = USE_LEVELS.iter().position(|l| *l == v) else {
            return Some(Note::UseNotALevel {
                value: value.to_owned(),
            });
        };
        match self.conditions.iter_mut().find(|c| c.condition == "use") {
            Some(c) => {
                let before = USE_LEVELS.iter().position(|l| *l == c.value);
                if before.is_none_or(|b| level < b) {
                    c.value = v;
                    c.at = at;
                }
            }
            None => self.conditions.push(Condition {
                condition: "use",
                value: v,
                signal: Signal::ContentSignal,
                at,
                purposes: PURPOSES.to_vec(),
                note: "how much of the content may be kept and reshared: immediate < reference < full (S-15)",
            }),
        }
        None
    }
}
