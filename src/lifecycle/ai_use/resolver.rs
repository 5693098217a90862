//! The resolver's state while it reads the signals (`Resolver`), and what every signal family
//! asks of it: a token's groups and verdict, the records of a selection, a response header's
//! field lines, and adding an entry to the trace.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use super::crawler::{Crawler, Governing};
use super::inputs::AiUseInputs;
use super::trace::{Condition, Entry};
use super::words::Note;
use crate::aipref::operators::{Operator, Purposes, PURPOSES};
use crate::decide::{Path, Selection, Verdict};
use crate::lifecycle::meta::HeadMeta;
use crate::model::RecordKind;
use crate::robots::{RecordView, Robots};

pub(super) struct Resolver<'r, 'i> {
    pub(super) robots: &'r Robots,
    pub(super) path: Path<'r>,
    pub(super) inputs: &'i AiUseInputs<'i>,
    pub(super) crawler: Crawler,
    pub(super) row: Option<&'static Operator>,
    pub(super) governing: Vec<Governing>,
    /// The named META tags of the page's head (read once).
    pub(super) head: Head,
    pub(super) trace: Vec<Entry>,
    pub(super) conditions: Vec<Condition>,
    /// Whether the crawler may fetch the URL (its fetch token's verdict); known once robots.txt
    /// is read, which comes first.
    pub(super) crawlable: bool,
    /// Whether robots.txt has been read: the entries after it are the response's and the page's.
    pub(super) robots_read: bool,
}

/// The named META tags of the page's head, and whether the head was cut at its limit.
#[derive(Default)]
pub(super) struct Head {
    pub(super) tags: Vec<HeadMeta>,
    pub(super) cut: bool,
}

/// A selection of robots.txt read for some of the crawler's tokens ([S-7]): the tokens that
/// select it (`, ` between them) and the purposes it is read for.
pub(super) struct Reading {
    pub(super) selection: Selection,
    pub(super) tokens: String,
    pub(super) purposes: Purposes,
}

impl<'r, 'i> Resolver<'r, 'i> {
    /// Adds an entry to the trace. What only a fetch reveals is never seen by a compliant
    /// crawler of a URL it may not fetch ([S-3], [D-10]); the tdmrep.json file is site metadata
    /// like robots.txt (TDMREP §5.6): it stays visible.
    pub(super) fn push(&mut self, mut e: Entry) {
        if self.robots_read && !self.crawlable && e.at.file.is_none() {
            e.visible = false;
            e.notes.push(Note::NotVisible);
        }
        self.trace.push(e);
    }

    /// The selection of a token, with Applebot's fallback to the Googlebot group ([S-19]).
    pub(super) fn select(&self, token: &str) -> Selection {
        let s = self.robots.selection(token);
        if token.eq_ignore_ascii_case("Applebot") && !matches!(s, Selection::Specific(_)) {
            let g = self.robots.selection("Googlebot");
            if matches!(g, Selection::Specific(_)) {
                return g;
            }
        }
        s
    }

    pub(super) fn check(&self, token: &str) -> Verdict {
        self.robots.check_path(&self.path, self.select(token))
    }

    /// The selections of robots.txt read, and for which purposes (among those a token governs
    /// here): the fetch token's groups for every purpose, each governing token's for its own
    /// ([S-7]).
    pub(super) fn readings(&self) -> Vec<Reading> {
        let mut out: Vec<Reading> = Vec::new();
        let all = Purposes::of(&PURPOSES);
        let fetch = (self.crawler.fetch_token.as_str(), all);
        let each = self
            .governing
            .iter()
            .map(|g| (g.token.as_str(), g.purposes));
        for (token, purposes) in core::iter::once(fetch).chain(each) {
            let selection = self.select(token);
            match out.iter_mut().find(|r| r.selection == selection) {
                Some(r) => {
                    if !r.tokens.split(", ").any(|n| n.eq_ignore_ascii_case(token)) {
                        r.tokens.push_str(", ");
                        r.tokens.push_str(token);
                    }
                    r.purposes = r.purposes.and(purposes);
                }
                None => out.push(Reading {
                    selection,
                    tokens: token.to_owned(),
                    purposes,
                }),
            }
        }
        out
    }

    /// The records of a kind in a selection's groups, in file order.
    pub(super) fn records(
        &self,
        selection: Selection,
        kind: RecordKind,
    ) -> impl Iterator<Item = RecordView<'r>> + 'r {
        self.robots
            .selected_groups(selection)
            .flat_map(|g| g.records())
            .filter(move |r| r.kind == kind)
    }

    /// The values of a response header, one per field line.
    pub(super) fn header(&self, name: &str) -> Vec<&'i str> {
        self.inputs
            .headers
            .iter()
            .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
            .collect()
    }
}
