//! The answer per purpose: allow, deny or unknown ([S-1], [S-17]), with the trace entries that
//! decided it; and `PerPurpose`, one value per purpose as the contract names them.

use alloc::vec::Vec;

use crate::aipref::operators::Purpose;
#[cfg(feature = "serde")]
use serde::Serialize;

/// The answer for one purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum Answer {
    Allow,
    Deny,
    /// Nothing the site gave allows or denies it; no default is invented ([S-17]).
    Unknown,
}

impl Answer {
    pub const fn as_str(self) -> &'static str {
        match self {
            Answer::Allow => "allow",
            Answer::Deny => "deny",
            Answer::Unknown => "unknown",
        }
    }
}

/// What one signal says about one purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum Effect {
    Allow,
    Deny,
}

/// One value per purpose, serialised with the purposes' labels as keys.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct PerPurpose<T> {
    #[cfg_attr(feature = "serde", serde(rename = "train-ai"))]
    pub train: T,
    #[cfg_attr(feature = "serde", serde(rename = "ai-use"))]
    pub input: T,
    pub search: T,
}

impl<T> PerPurpose<T> {
    pub fn get(&self, p: Purpose) -> &T {
        match p {
            Purpose::Train => &self.train,
            Purpose::Input => &self.input,
            Purpose::Search => &self.search,
        }
    }

    pub fn get_mut(&mut self, p: Purpose) -> &mut T {
        match p {
            Purpose::Train => &mut self.train,
            Purpose::Input => &mut self.input,
            Purpose::Search => &mut self.search,
        }
    }
}

/// One purpose's answer and the trace entries (indices into `AiUse::trace`) that decided it:
/// every deny when it is deny, every allow when it is allow, none when unknown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct PurposeAnswer {
    pub answer: Answer,
    pub by: Vec<usize>,
}
