//! What a page directive means for AI use, per operator: `noai` and `noimageai` ([S-12],
//! [D-7], [D-8]), `noindex`/`none` ([S-14]), and the operators' documented readings of
//! `nosnippet`, `max-snippet`, `nocache` and `noarchive` ([S-13]). A table in code: each arm
//! cites its source.

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};

use super::trace::Signal;
use super::words::Note;
use crate::aipref::operators::Purposes;
use crate::lifecycle::meta::{Directive, DirectiveKind};

/// A directive's name: what is before its colon.
pub(super) fn name_of(d: &Directive) -> &str {
    d.raw.split(':').next().unwrap_or("").trim()
}

/// What a page directive means for AI use, for this crawler's operator.
pub(super) struct Meaning {
    /// The purposes it denies.
    pub(super) deny: Purposes,
    /// A limit that does not change an answer ([D-11]).
    pub(super) condition: Option<Limit>,
    pub(super) note: Option<Note>,
    pub(super) rules: &'static [&'static str],
}

/// A condition a directive sets, for the purposes it limits (those it addresses among them).
pub(super) struct Limit {
    pub(super) condition: &'static str,
    pub(super) value: String,
    pub(super) purposes: Purposes,
    pub(super) note: &'static str,
}

impl Meaning {
    /// `None`: the directive has no AI meaning for anyone (it is not traced).
    pub(super) fn of(
        name: &str,
        kind: &DirectiveKind,
        operator: &str,
        signal: Signal,
        content_type: Option<&str>,
        bing_nocache: bool,
    ) -> Option<Meaning> {
        let m = |deny: Purposes, rules: &'static [&'static str]| Meaning {
            deny,
            condition: None,
            note: None,
            rules,
        };
        let google = operator == "Google";
        let others = |what: &str| {
            Some(Meaning {
                note: Some(Note::NoAiMeaning {
                    directive: what.to_owned(),
                }),
                ..m(Purposes::NONE, &["S-13"])
            })
        };
        match (name, kind) {
            ("noai", _) => Some(Meaning {
                note: Some(Note::NoaiTrainingOnly),
                ..m(Purposes::TRAIN, &["DeviantArt noai (2022)", "S-12"])
            }),
            ("noimageai", _) => {
                let image = content_type.map(|t| t.starts_with("image/"));
                match (signal, image) {
                    (Signal::XRobotsTag, Some(true)) => Some(m(Purposes::TRAIN, &["DeviantArt noimageai (2022)", "S-12"])),
                    (Signal::XRobotsTag, None) => Some(Meaning {
                        note: Some(Note::NoContentType),
                        ..m(Purposes::NONE, &["S-12", "D-8"])
                    }),
                    _ => Some(Meaning {
                        condition: Some(Limit {
                            condition: "noimageai",
                            value: "embedded images: no training".to_owned(),
                            purposes: Purposes::TRAIN,
                            note: "noimageai on a page: its images are not for training; the page's own answer is unchanged (S-12)",
                        }),
                        ..m(Purposes::NONE, &["DeviantArt noimageai (2022)", "S-12"])
                    }),
                }
            }
            (_, DirectiveKind::NoIndex | DirectiveKind::None) => Some(if google {
                Meaning {
                    note: Some(Note::GoogleNeedsIndex),
                    ..m(
                        Purposes::SEARCH.and(Purposes::INPUT),
                        &["Google robots meta", "S-14"],
                    )
                }
            } else {
                m(Purposes::SEARCH, &["S-14"])
            }),
            (_, DirectiveKind::NoSnippet) | (_, DirectiveKind::MaxSnippet(0)) => {
                if google {
                    Some(Meaning {
                        note: Some(Note::GoogleDirectInput),
                        ..m(Purposes::INPUT, &["Google robots meta", "S-13", "S-18"])
                    })
                } else if operator == "Apple" {
                    Some(m(Purposes::INPUT, &["Apple (Applebot)", "S-13"]))
                } else {
                    others(name)
                }
            }
            (_, DirectiveKind::MaxSnippet(n)) if *n > 0 => {
                if google {
                    Some(Meaning {
                        condition: Some(Limit {
                            condition: "max-snippet",
                            value: n.to_string(),
                            purposes: Purposes::INPUT,
                            note: "at most this many characters as direct input to AI Overviews and AI Mode (Google, S-13)",
                        }),
                        ..m(Purposes::NONE, &["Google robots meta", "S-13"])
                    })
                } else {
                    others(name)
                }
            }
            ("nocache", _) => {
                if operator == "Microsoft" {
                    Some(Meaning {
                        condition: Some(Limit {
                            condition: "nocache",
                            value: "URL, title and snippet only".to_owned(),
                            purposes: Purposes::TRAIN.and(Purposes::INPUT),
                            note: "Bing: only the URL, title and snippet may be used in Copilot answers and training (S-13)",
                        }),
                        ..m(Purposes::NONE, &["Bing (Sep 2023)", "S-13"])
                    })
                } else {
                    others(name)
                }
            }
            ("noarchive", _) => match operator {
                "Microsoft" if bing_nocache => Some(Meaning {
                    note: Some(Note::BingNoarchive),
                    ..m(Purposes::NONE, &["Bing (Sep 2023)", "S-13"])
                }),
                "Microsoft" => Some(m(
                    Purposes::TRAIN.and(Purposes::INPUT),
                    &["Bing (Sep 2023)", "S-13"],
                )),
                "Amazon" => Some(m(Purposes::TRAIN, &["Amazonbot", "S-13"])),
                _ => others(name),
            },
            _ => None,
        }
    }
}
