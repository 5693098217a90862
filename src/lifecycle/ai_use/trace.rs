//! The trace: what each signal read was (`Signal`), where it was found (`Where`), and what it
//! said (`TraceEntry`). The resolver builds each entry as an `Entry`, whose notes and error are
//! data (`words::Note`, `words::Problem`), and renders it once, at the end (`Entry::render`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::answer::{Effect, PerPurpose};
use super::words::{notes_text, Note, Problem};
use crate::aipref::operators::{Purpose, PURPOSES};
#[cfg(feature = "serde")]
use serde::Serialize;

/// The kind of signal a trace entry reads, named as the contract names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// The crawl verdict, and a purpose token's group ([S-3], [S-6]).
    RobotsTxt,
    /// A Content-Usage rule of robots.txt (draft-ietf-aipref-attach §3).
    ContentUsage,
    /// The `Content-Usage` response header (attach §2).
    ContentUsageHeader,
    /// A Content-Signal line of robots.txt, or its non-standard header and META carriers ([S-16]).
    ContentSignal,
    /// TDMRep: tdmrep.json, the `tdm-reservation`/`tdm-policy` headers and META tags.
    Tdmrep,
    /// A robots META tag of the page's head.
    RobotsMeta,
    /// An `X-Robots-Tag` response header.
    XRobotsTag,
}

impl Signal {
    pub const fn as_str(self) -> &'static str {
        match self {
            Signal::RobotsTxt => "robots.txt",
            Signal::ContentUsage => "content-usage",
            Signal::ContentUsageHeader => "content-usage-header",
            Signal::ContentSignal => "content-signal",
            Signal::Tdmrep => "tdmrep",
            Signal::RobotsMeta => "robots-meta",
            Signal::XRobotsTag => "x-robots-tag",
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for Signal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where a signal was found: a robots.txt line, a header (its name and which of its field lines,
/// from 0), a META tag (its position among the head's named META tags, from 1), a tdmrep.json
/// rule (its index in the array, from 0). Fields that do not apply are absent. `text`: the place
/// in words (`Display`, written once when it is made), which every renderer prints as it is; it
/// counts from 1, as a person does ("field line 1" is `index` 0, "rule 1" is `rule` 0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Where {
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line: Option<u32>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub header: Option<&'static str>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub index: Option<u32>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tag: Option<u32>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub file: Option<&'static str>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rule: Option<u32>,
    pub text: String,
}

impl Where {
    /// With its `text`.
    fn worded(mut self) -> Where {
        self.text = self.to_string();
        self
    }

    pub(super) fn line(line: u32) -> Where {
        Where {
            line: Some(line),
            ..Where::default()
        }
        .worded()
    }

    pub(super) fn header(name: &'static str, index: Option<u32>) -> Where {
        Where {
            header: Some(name),
            index,
            ..Where::default()
        }
        .worded()
    }

    pub(super) fn tag(tag: u32) -> Where {
        Where {
            tag: Some(tag),
            ..Where::default()
        }
        .worded()
    }

    pub(super) fn file(rule: Option<u32>) -> Where {
        Where {
            file: Some(TDMREP_PATH),
            rule,
            ..Where::default()
        }
        .worded()
    }
}

impl core::fmt::Display for Where {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut sep = "";
        if let Some(line) = self.line {
            write!(f, "robots.txt line {line}")?;
            sep = ", ";
        }
        if let Some(h) = self.header {
            write!(f, "{sep}header {h}")?;
            if let Some(i) = self.index {
                write!(f, " (field line {})", u64::from(i) + 1)?;
            }
            sep = ", ";
        }
        if let Some(t) = self.tag {
            write!(f, "{sep}META tag {t}")?;
            sep = ", ";
        }
        if let Some(file) = self.file {
            write!(f, "{sep}{file}")?;
            if let Some(r) = self.rule {
                write!(f, " rule {}", u64::from(r) + 1)?;
            }
        }
        Ok(())
    }
}

/// The path the TDMRep file is read from (TDMREP §6.1).
pub const TDMREP_PATH: &str = "/.well-known/tdmrep.json";

/// One signal read, whether or not it decided anything.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct TraceEntry {
    pub signal: Signal,
    #[cfg_attr(feature = "serde", serde(rename = "where"))]
    pub at: Where,
    /// The token or group it was read for, or the crawler a page directive addresses.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub scope: Option<String>,
    /// The signal as written (a rule, a directive, a header value, a tdmrep.json rule).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub raw: Option<String>,
    /// Its effect per purpose: `allow`, `deny`, or none (null).
    pub effect: PerPurpose<Option<Effect>>,
    /// The texts and readings it follows (`RFC 9309 §2.2.2`, `TDMREP §6.7`, `S-9`, ...).
    pub rules: Vec<&'static str>,
    /// What was wrong with it, when it is malformed (then its effect is none).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub error: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub note: Option<String>,
    /// `false` for response-level signals of a URL the crawler may not fetch: a compliant
    /// crawler never sees them, so they decide nothing ([S-3], [D-10]).
    pub visible: bool,
}

impl TraceEntry {
    /// The purposes it allows or denies.
    pub fn effects(&self) -> impl Iterator<Item = (Purpose, Effect)> + '_ {
        PURPOSES
            .into_iter()
            .filter_map(|p| self.effect.get(p).map(|e| (p, e)))
    }
}

/// A limit that does not change an answer ([D-11]): `use`, `max-snippet`, `nocache`,
/// `tdm-policy`, `noimageai` on a page, the operator's stance on robots.txt.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Condition {
    pub condition: &'static str,
    pub value: String,
    pub signal: Signal,
    #[cfg_attr(feature = "serde", serde(rename = "where"))]
    pub at: Where,
    /// The purposes it limits.
    pub purposes: Vec<Purpose>,
    pub note: &'static str,
}

/// A trace entry being built: what it says as data, rendered to a [`TraceEntry`] at the end.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) signal: Signal,
    pub(super) at: Where,
    pub(super) scope: Option<String>,
    pub(super) raw: Option<String>,
    pub(super) effect: PerPurpose<Option<Effect>>,
    pub(super) rules: Vec<&'static str>,
    pub(super) error: Option<Problem>,
    pub(super) notes: Vec<Note>,
    pub(super) visible: bool,
}

impl Entry {
    pub(super) fn new(signal: Signal, at: Where) -> Entry {
        Entry {
            signal,
            at,
            scope: None,
            raw: None,
            effect: PerPurpose::default(),
            rules: Vec::new(),
            error: None,
            notes: Vec::new(),
            visible: true,
        }
    }

    pub(super) fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    pub(super) fn raw(mut self, raw: impl Into<String>) -> Self {
        self.raw = Some(raw.into());
        self
    }

    pub(super) fn rules(mut self, rules: &[&'static str]) -> Self {
        self.rules.extend_from_slice(rules);
        self
    }

    pub(super) fn note(mut self, note: Note) -> Self {
        self.notes.push(note);
        self
    }

    pub(super) fn set(&mut self, p: Purpose, e: Effect) {
        *self.effect.get_mut(p) = Some(e);
    }

    /// The entry in words (`words`).
    pub(super) fn render(self) -> TraceEntry {
        TraceEntry {
            signal: self.signal,
            at: self.at,
            scope: self.scope,
            raw: self.raw,
            effect: self.effect,
            rules: self.rules,
            error: self.error.map(|e| e.to_string()),
            note: notes_text(&self.notes),
            visible: self.visible,
        }
    }
}
