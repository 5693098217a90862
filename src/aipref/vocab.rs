//! The vocabulary of AI usage preferences (draft-ietf-aipref-vocab): its categories, as data,
//! and what one statement of preference says about each of them (VOCAB §6.5).
//!
//! Categories follow -08 (September 2026), which adds AI Use (`ai-use`, -08 §4.2) to the two
//! of -05 to -07 (`train-ai`, `search`); section numbers below are -08's where it moved them.
//! A new category is one more entry in [`CATEGORIES`]: every statement, explanation and output
//! is sized and named from that table. A label that is not in it is ignored (VOCAB §6.4), so
//! the labels of older revisions (`bots`, `ai-output`, `train-genai`, ...) mean nothing.

use super::sf::{self, Type, Value};

/// A category of use (VOCAB §4) and its label in the exemplary format (VOCAB §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Category {
    /// The label, compared character for character (VOCAB §6.1: labels are case-sensitive).
    pub label: &'static str,
    pub name: &'static str,
}

/// The categories of draft-ietf-aipref-vocab-08, in the order of its §4: AI Training (§4.1),
/// AI Use (§4.2, new in -08), Search (§4.3).
pub const CATEGORIES: [Category; 3] = [
    Category {
        label: "train-ai",
        name: "AI Training",
    },
    Category {
        label: "ai-use",
        name: "AI Use",
    },
    Category {
        label: "search",
        name: "Search",
    },
];

/// The number of categories: the size of every per-category array.
pub const COUNT: usize = CATEGORIES.len();

/// The categories' labels, in the order of [`CATEGORIES`].
pub const LABELS: [&str; COUNT] = names!(CATEGORIES, |c| c.label);

/// The index of the category with this label, if it is one (exact bytes: VOCAB §6.1, §6.5.1).
pub fn category(label: &[u8]) -> Option<usize> {
    CATEGORIES.iter().position(|c| c.label.as_bytes() == label)
}

/// The outcome for one category (VOCAB §3): allowed, disallowed, or unknown. The order is the
/// order of restriction, so combining is `max` (VOCAB §5.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Preference {
    /// No preference was stated, or none could be read. Never replaced by a default: VOCAB §5
    /// "takes no position" on what unknown means.
    #[default]
    Unknown,
    Allowed,
    Disallowed,
}

impl Preference {
    /// VOCAB §5.1: any disallowed gives disallowed, else any allowed gives allowed, else unknown.
    #[must_use]
    pub fn combine(self, other: Preference) -> Preference {
        self.max(other)
    }

    /// The Token of the exemplary format (VOCAB §6.2): `y`, `n`, or none for unknown.
    pub const fn token(self) -> Option<&'static str> {
        match self {
            Preference::Unknown => None,
            Preference::Allowed => Some("y"),
            Preference::Disallowed => Some("n"),
        }
    }
}

/// Combines per category, as [`Preference::combine`] does for one.
pub fn combine<const N: usize>(a: [Preference; N], b: [Preference; N]) -> [Preference; N] {
    core::array::from_fn(|i| a[i].combine(b[i]))
}

/// What a statement's last member for a category was (VOCAB §6.5, last duplicate wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Member {
    /// The statement has no member with the category's label.
    #[default]
    Absent,
    /// The Token `y` or `n`.
    Stated(Preference),
    /// A value of another type, or a Token other than `y` and `n`: the category is unknown
    /// (VOCAB §6.5), which is not an error.
    Other(Type),
}

fn member_of(value: Value<'_>) -> Member {
    match (value.kind, value.token) {
        (Type::Token, b"y") => Member::Stated(Preference::Allowed),
        (Type::Token, b"n") => Member::Stated(Preference::Disallowed),
        (other, _) => Member::Other(other),
    }
}

/// One statement of preference, resolved (VOCAB §6.5): per category, the member that decides,
/// or the point where the statement failed to parse (then every category is unknown, §6.5.1).
/// Small and `Copy`: the parsed robots.txt keeps one per Content-Usage rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statement {
    members: [Member; COUNT],
    error: Option<sf::Error>,
}

impl Statement {
    /// Parses one statement (a robots.txt rule's, or a header's field value). An empty
    /// statement has no members.
    pub fn parse(value: &[u8]) -> Statement {
        Statement::parse_with(value, |_, _| {})
    }

    /// As [`Statement::parse`], also handing every member to `each` (lint: unknown labels).
    pub fn parse_with<'a>(value: &'a [u8], mut each: impl FnMut(&'a [u8], Value<'a>)) -> Statement {
        let mut members = [Member::Absent; COUNT];
        let parsed = sf::parse_dictionary(value, &mut |key, value| {
            if let Some(slot) = category(key).and_then(|i| members.get_mut(i)) {
                *slot = member_of(value);
            }
            each(key, value);
        });
        match parsed {
            Ok(()) => Statement {
                members,
                error: None,
            },
            Err(error) => Statement {
                members: [Member::Absent; COUNT],
                error: Some(error),
            },
        }
    }

    /// Where and why the statement failed to parse, if it did.
    pub fn error(&self) -> Option<sf::Error> {
        self.error
    }

    /// The deciding member for a category (index into [`CATEGORIES`]); `Absent` when the
    /// statement failed to parse or the index is out of range.
    pub fn member(&self, category: usize) -> Member {
        self.members.get(category).copied().unwrap_or_default()
    }

    /// The outcome for a category.
    pub fn preference(&self, category: usize) -> Preference {
        match self.member(category) {
            Member::Stated(p) => p,
            Member::Absent | Member::Other(_) => Preference::Unknown,
        }
    }

    /// The outcome for every category, in the order of [`CATEGORIES`].
    pub fn preferences(&self) -> [Preference; COUNT] {
        core::array::from_fn(|i| self.preference(i))
    }
}
