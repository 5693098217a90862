//! The page's own directives: robots META tags and `X-Robots-Tag` header fields, read for
//! `noai`, `noimageai` ([S-12]), `noindex` ([S-14]) and the operators' own AI meanings ([S-13],
//! `meaning`), each for the crawlers it addresses ([D-3], [D-4]); and the operator's stance on
//! robots.txt ([S-4]).

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use super::answer::Effect;
use super::meaning::{name_of, Meaning};
use super::resolver::Resolver;
use super::trace::{Condition, Entry, Signal, Where};
use super::words::{Cut, Note, Problem};
use crate::aipref::operators::{self, Purpose, Purposes, PURPOSES};
use crate::lifecycle::meta::{self, Directive, Scope};

/// A directive found, and where.
struct Found {
    signal: Signal,
    at: Where,
    directive: Directive,
}

impl Resolver<'_, '_> {
    pub(super) fn page_directives(&mut self) {
        let mut found: Vec<Found> = Vec::new();
        let mut cut = Vec::new();
        for (i, value) in self.header("x-robots-tag").into_iter().enumerate() {
            let (ds, full) = meta::directives(value, None);
            if full {
                cut.push(Cut::XRobotsTag);
            }
            let at = Where::header("X-Robots-Tag", u32::try_from(i).ok());
            found.extend(ds.into_iter().map(|directive| Found {
                signal: Signal::XRobotsTag,
                at: at.clone(),
                directive,
            }));
        }
        if self.head.cut {
            cut.push(Cut::Head);
        }
        for tag in &self.head.tags {
            if !self.robots_tag_name(&tag.name) {
                continue;
            }
            let (ds, full) =
                meta::directives(tag.content.as_deref().unwrap_or(""), Some(&tag.name));
            if full {
                cut.push(Cut::MetaTag);
            }
            found.extend(ds.into_iter().map(|directive| Found {
                signal: Signal::RobotsMeta,
                at: Where::tag(tag.index),
                directive,
            }));
        }
        let content_type =
            (self.header("content-type").first()).map(|v| v.trim().to_ascii_lowercase());
        let operator = self.row.map_or("", |r| r.operator);
        // Google: parts marked `data-nosnippet` are not direct input to AI Overviews and AI Mode
        // (G-META, G-AI): a condition on AI use ([S-13], [D-11]).
        if operator == "Google" && self.inputs.html.is_some_and(meta::has_data_nosnippet) {
            self.conditions.push(Condition {
                condition: "data-nosnippet",
                value: "present".to_owned(),
                signal: Signal::RobotsMeta,
                at: Where::default(),
                purposes: [Purpose::Input].to_vec(),
                note: "the parts of the page marked data-nosnippet are not used as direct input to AI Overviews and AI Mode (Google, S-13)",
            });
        }
        let fetch = self.crawler.fetch_token.clone();
        // [D-4]: Googlebot's directives count for Applebot when none names Applebot.
        let apple_falls_back = fetch.eq_ignore_ascii_case("Applebot")
            && !found.iter().any(
                |f| matches!(&f.directive.scope, Scope::Agent(n) if meta::addresses(n, "Applebot")),
            );
        // Bing: `noarchive` and `nocache` together count as `nocache` (BING).
        let bing_nocache = operator == "Microsoft"
            && found.iter().any(|f| {
                name_of(&f.directive).eq_ignore_ascii_case("nocache")
                    && self.addressed(&f.directive, &fetch, apple_falls_back) != Purposes::NONE
            });
        for Found {
            signal,
            at,
            directive: d,
        } in found
        {
            let name = name_of(&d).to_ascii_lowercase();
            let Some(meaning) = Meaning::of(
                &name,
                &d.kind,
                operator,
                signal,
                content_type.as_deref(),
                bing_nocache,
            ) else {
                continue;
            };
            let addressed = self.addressed(&d, &fetch, apple_falls_back);
            let mut e = Entry::new(signal, at.clone())
                .raw(d.raw.clone())
                .rules(meaning.rules);
            if let Scope::Agent(n) = &d.scope {
                e = e.scope(n.clone());
            }
            if addressed == Purposes::NONE {
                if let Scope::Agent(n) = d.scope {
                    e = e.note(Note::AddressedElsewhere { name: n });
                }
                self.push(e);
                continue;
            }
            for p in meaning.deny.iter().filter(|p| addressed.contains(*p)) {
                e.set(p, Effect::Deny);
            }
            e.notes.extend(meaning.note);
            if let Some(c) = meaning.condition {
                let purposes: Vec<Purpose> = c
                    .purposes
                    .iter()
                    .filter(|p| addressed.contains(*p))
                    .collect();
                if !purposes.is_empty() {
                    self.conditions.push(Condition {
                        condition: c.condition,
                        value: c.value,
                        signal,
                        at,
                        purposes,
                        note: c.note,
                    });
                }
            }
            self.push(e);
        }
        for what in cut {
            let signal = match what {
                Cut::XRobotsTag => Signal::XRobotsTag,
                Cut::Head | Cut::MetaTag => Signal::RobotsMeta,
            };
            let mut e = Entry::new(signal, Where::default());
            e.error = Some(Problem::InputCut(what));
            self.push(e);
        }
    }

    /// A META tag name the resolver reads as robots directives: `robots`, or one that addresses
    /// the crawler, one of its tokens, or any token of the operator table (reported as addressed
    /// to another crawler).
    fn robots_tag_name(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case("robots")
            || meta::addresses(name, &self.crawler.fetch_token)
            || meta::addresses(name, &self.crawler.token)
            || self
                .governing
                .iter()
                .any(|g| meta::addresses(name, &g.token))
            || operators::OPERATORS
                .iter()
                .any(|o| meta::addresses(name, o.token))
    }

    /// The purposes for which a directive addresses this crawler ([D-3], [D-4]).
    fn addressed(&self, d: &Directive, fetch: &str, apple_falls_back: bool) -> Purposes {
        let all = Purposes::of(&PURPOSES);
        let Scope::Agent(name) = &d.scope else {
            return all;
        };
        if meta::addresses(name, fetch)
            || meta::addresses(name, &self.crawler.token)
            || (apple_falls_back && meta::addresses(name, "Googlebot"))
        {
            return all;
        }
        self.governing
            .iter()
            .filter(|g| meta::addresses(name, &g.token))
            .fold(Purposes::NONE, |acc, g| acc.and(g.purposes))
    }

    /// The operator's stance on robots.txt for a user-triggered fetcher, as a condition ([S-4]).
    pub(super) fn operator_stance(&mut self) {
        if let Some(note) = self.row.and_then(|r| r.robots_txt) {
            self.conditions.push(Condition {
                condition: "robots-txt-may-not-apply",
                value: String::from(note),
                signal: Signal::RobotsTxt,
                at: Where::default(),
                purposes: PURPOSES.to_vec(),
                note: "the answer is the site's stated preference; the operator says its fetcher may not obey it (S-4)",
            });
        }
    }
}
