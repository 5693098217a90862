//! AI usage preferences: what a site says about using its content for AI training, AI use and
//! search, and the reason for each answer.
//!
//! Two mechanisms, reported apart:
//! - **Content-Usage** (IETF aipref): statements in the vocabulary of draft-ietf-aipref-vocab-08
//!   ([`vocab`]), written as RFC 9651 Dictionaries ([`sf`]), attached to content by
//!   draft-ietf-aipref-attach-05 ([`attach`]) as robots.txt rules and as a response header.
//! - **Content-Signal** (Cloudflare's Content Signals Policy, 2025): [`signal`].
//!
//! The rules, with their sections, and the readings chosen where the texts are open ([I-1] to
//! [I-10]) are in `docs/ai-preferences.md`. This module is the part that knows no robots.txt:
//! parsing a statement, the vocabulary, longest-match selection with most-restrictive ties, and
//! the reasons; the robots.txt side selects the groups, gates on crawlability and matches paths.
//! Nothing here allocates.

/// A table's names as a constant array: `$name` of each element `$x` of `$all`.
macro_rules! names {
    ($all:expr, |$x:ident| $name:expr) => {{
        let mut out = [""; $all.len()];
        let mut i = 0;
        while i < out.len() {
            let $x = &$all[i];
            out[i] = $name;
            i += 1;
        }
        out
    }};
}

pub mod attach;
pub mod operators;
pub mod sf;
pub mod signal;
pub mod vocab;

pub use attach::{parse_header, split_rule, RuleValue};
pub use signal::{read_signals, yes_no, Signal, SignalMember, SIGNALS, SIGNAL_COUNT, SIGNAL_KEYS};
pub use vocab::{
    category, combine, Category, Member, Preference, Statement, CATEGORIES, COUNT, LABELS,
};

/// Where a statement came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A Content-Usage (or Content-Signal) line of robots.txt, 1-based.
    Line(u32),
    /// The `Content-Usage` response header.
    Header,
}

/// Why a category has its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The statement says `y` or `n`.
    Stated(Origin),
    /// The deciding statement does not mention the category: it applies whole, nothing is
    /// inherited from a shorter rule ([I-3]).
    NotStated(Origin),
    /// The deciding statement's value is not the Token `y` or `n` (VOCAB §6.5).
    NotYesNo(Origin, sf::Type),
    /// The deciding statement is not a valid Dictionary: every category unknown (VOCAB §6.5.1).
    Malformed(Origin, sf::Error),
    /// No Content-Usage rule of the crawler's group(s) matches the URL.
    NoRule,
    /// The crawler has a group of its own with no Content-Usage rule; the `*` group's rules do
    /// not apply to it (ATTACH-05 §3.4).
    OwnGroupSilent,
    /// The URL is disallowed for the crawler, so no preference applies ([I-5]); the line is the
    /// deciding Disallow rule (0 when there is none to name).
    NotCrawlable(u32),
}

impl Why {
    /// A stable kebab-case code for outputs.
    pub const fn code(self) -> &'static str {
        Why::CODES[self.index()]
    }

    /// Every code, in the order of [`Why::index`].
    pub const CODES: [&'static str; 7] = [
        "stated",
        "not-stated",
        "not-y-or-n",
        "malformed",
        "no-rule",
        "own-group-silent",
        "not-crawlable",
    ];

    /// The code's index in [`Why::CODES`].
    pub const fn index(self) -> usize {
        match self {
            Why::Stated(_) => 0,
            Why::NotStated(_) => 1,
            Why::NotYesNo(..) => 2,
            Why::Malformed(..) => 3,
            Why::NoRule => 4,
            Why::OwnGroupSilent => 5,
            Why::NotCrawlable(_) => 6,
        }
    }

    /// The statement the reason is about, if any.
    pub const fn origin(self) -> Option<Origin> {
        match self {
            Why::Stated(o) | Why::NotStated(o) | Why::NotYesNo(o, _) | Why::Malformed(o, _) => {
                Some(o)
            }
            Why::NoRule | Why::OwnGroupSilent | Why::NotCrawlable(_) => None,
        }
    }

    /// How much an unknown outcome's reason tells: when tied statements all leave a category
    /// unknown, the most telling reason is reported.
    fn weight(self) -> u8 {
        match self {
            Why::Malformed(..) => 4,
            Why::NotYesNo(..) => 3,
            Why::NotCrawlable(_) => 2,
            Why::NotStated(_) => 1,
            Why::Stated(_) | Why::NoRule | Why::OwnGroupSilent => 0,
        }
    }
}

/// Prose for people: the CLI's text output and docs. Bindings send [`Why`]'s parts instead.
impl core::fmt::Display for Why {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let from = |f: &mut core::fmt::Formatter<'_>, origin: &Origin| match origin {
            Origin::Line(line) => write!(f, "line {line}"),
            Origin::Header => f.write_str("the Content-Usage header"),
        };
        match self {
            Why::Stated(o) => {
                f.write_str("stated by ")?;
                from(f, o)
            }
            Why::NotStated(o) => {
                from(f, o)?;
                f.write_str(" decides and does not mention this category")
            }
            Why::NotYesNo(o, other) => {
                from(f, o)?;
                write!(f, ": value is not y/n (it is {})", other.as_str())
            }
            Why::Malformed(o, e) => {
                from(f, o)?;
                write!(
                    f,
                    ": the statement did not parse (at byte {}: {})",
                    e.offset,
                    e.failure.as_str()
                )
            }
            Why::NoRule => f.write_str("no rule matched"),
            Why::OwnGroupSilent => f.write_str("the crawler's own group has no preference"),
            Why::NotCrawlable(0) => f.write_str("URL not crawlable"),
            Why::NotCrawlable(line) => write!(f, "URL not crawlable (line {line})"),
        }
    }
}

/// One category's outcome and its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub preference: Preference,
    pub why: Why,
}

impl Answer {
    /// Unknown, for a reason that concerns every category.
    pub const fn unknown(why: Why) -> Answer {
        Answer {
            preference: Preference::Unknown,
            why,
        }
    }

    /// What `statement` says about category `index`.
    pub fn of(statement: &Statement, index: usize, origin: Origin) -> Answer {
        let why = match (statement.error(), statement.member(index)) {
            (Some(error), _) => Why::Malformed(origin, error),
            (None, Member::Stated(_)) => Why::Stated(origin),
            (None, Member::Other(other)) => Why::NotYesNo(origin, other),
            (None, Member::Absent) => Why::NotStated(origin),
        };
        Answer {
            preference: statement.preference(index),
            why,
        }
    }

    /// Two statements for the same asset (VOCAB §5.1): the more restrictive outcome, with the
    /// reason of the statement that gave it (the first on a tie, the most telling if unknown).
    #[must_use]
    pub fn combine(self, other: Answer) -> Answer {
        let better_reason = other.why.weight() > self.why.weight();
        if other.preference > self.preference
            || (other.preference == Preference::Unknown
                && self.preference == Preference::Unknown
                && better_reason)
        {
            other
        } else {
            self
        }
    }
}

/// Every category's answer, in the order of [`CATEGORIES`].
pub type Answers = [Answer; COUNT];

/// What a statement says about every category.
pub fn answers(statement: &Statement, origin: Origin) -> Answers {
    core::array::from_fn(|i| Answer::of(statement, i, origin))
}

/// Combines two sets of answers category by category (VOCAB §5.1): robots.txt with the header.
pub fn combine_answers(a: &Answers, b: &Answers) -> Answers {
    core::array::from_fn(|i| a[i].combine(b[i]))
}

/// The Content-Usage rules that match a URL, offered one by one in any order (ATTACH §3.1: order
/// carries no meaning): the longest path decides, its statement whole ([I-3]); rules of the
/// same greatest length combine most-restrictively ([I-4], ATTACH §3.1 for identical paths); a
/// rule with no path has length 0 ([I-1]).
#[derive(Clone, Copy, Debug)]
pub struct LongestMatch {
    length: Option<u32>,
    answers: Answers,
}

impl Default for LongestMatch {
    fn default() -> Self {
        LongestMatch {
            length: None,
            answers: [Answer::unknown(Why::NoRule); COUNT],
        }
    }
}

impl LongestMatch {
    /// Offers a matching rule: its path's length in bytes (0 when it has none), its line and
    /// its parsed statement.
    pub fn offer(&mut self, length: u32, line: u32, statement: &Statement) {
        let offered = answers(statement, Origin::Line(line));
        match self.length {
            Some(current) if current > length => {}
            Some(current) if current == length => {
                self.answers = combine_answers(&self.answers, &offered);
            }
            _ => {
                self.length = Some(length);
                self.answers = offered;
            }
        }
    }

    /// Whether any rule was offered.
    pub fn matched(&self) -> bool {
        self.length.is_some()
    }

    /// The answers: every category unknown with [`Why::NoRule`] when nothing was offered.
    pub fn answers(&self) -> Answers {
        self.answers
    }
}

/// One signal's outcome and the first Content-Signal line that gave it (`None` if unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignalAnswer {
    pub preference: Preference,
    pub line: Option<u32>,
}

/// The Content-Signal lines of the crawler's group(s), offered in any order: per signal, any
/// `no` gives no, else any `yes` gives yes ([I-9]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Signals {
    answers: Option<[SignalAnswer; SIGNAL_COUNT]>,
}

impl Signals {
    /// Offers a line's outcome per signal (from [`read_signals`]).
    pub fn offer(&mut self, line: u32, values: [Preference; SIGNAL_COUNT]) {
        let answers = self.answers.get_or_insert_with(Default::default);
        for (answer, preference) in answers.iter_mut().zip(values) {
            if preference > answer.preference {
                *answer = SignalAnswer {
                    preference,
                    line: Some(line),
                };
            }
        }
    }

    /// `None` when no Content-Signal line applies to the crawler's group ([I-9]).
    pub fn answers(&self) -> Option<[SignalAnswer; SIGNAL_COUNT]> {
        self.answers
    }
}

#[cfg(test)]
mod tests;
