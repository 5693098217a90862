//! The trace in words: every note and error a trace entry carries is decided as data (`Note`,
//! `Problem`) and written out here alone, so the wording has one home and the deciding code
//! none. The words are part of the npm contract (`tests/data/ai-use-*.json`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Display, Formatter};

use crate::aipref::sf::{Failure, Type};
use crate::aipref::Why;
use crate::decide::{Reason, Selection};
use crate::lifecycle::tdmrep::{self, FileError, Reservation};

/// What a trace entry's note says, in the order the resolver found it.
#[derive(Clone, Debug)]
pub(super) enum Note {
    /// robots.txt was not available (a 4xx taken as allow-all), for the decision's reason code.
    RobotsUnavailable { reason: &'static str },
    /// robots.txt was unreachable (a 5xx or a network failure taken as disallow-all).
    RobotsUnreachable { reason: &'static str },
    /// The crawl gate: whether the fetch token may fetch the URL.
    Fetch { token: String, allowed: bool },
    /// A token's verdict: how its groups were selected and why.
    Verdict {
        token: String,
        allowed: bool,
        selection: Selection,
        reason: Reason,
    },
    /// Google-Extended's channels ([S-18], [D-9]).
    GoogleExtended,
    /// A purpose token allowed, but not documented for these purposes only ([S-6]).
    NotDedicated { token: String },
    /// A purpose token allowed only as any crawler is ([S-6]).
    AnyCrawler { token: String },
    /// A Content-Usage line of a group for which the URL is disallowed ([I-5]).
    UsageNotCrawlable,
    /// A Content-Signal value in path form ([I-8]).
    SignalPathForm,
    /// A Content-Signal key whose value is not yes or no.
    SignalNotYesNo { key: &'static str, value: String },
    /// A Content-Signal member that is no signal.
    NotASignal { key: String },
    /// An empty Content-Signal member.
    EmptyMember,
    /// A `use` value that is no reuse level ([S-15]).
    UseNotALevel { value: String },
    /// Content-Signal in a carrier the policy does not define ([S-16]).
    NonStandardCarrier(Carrier),
    /// A Content-Usage header category whose value is neither `y` nor `n`.
    UsageNotYesNo { label: &'static str, kind: Type },
    /// tdmrep.json could not be read: no value.
    TdmNoFileValue,
    /// tdmrep.json's first matching rule is invalid, and still decides ([S-10]).
    TdmFirstRuleDecides,
    /// No rule of tdmrep.json matches the URL.
    TdmNoRuleMatches,
    /// A rule of tdmrep.json that cannot match, and why.
    TdmRuleSkipped {
        index: u32,
        problem: Option<tdmrep::Problem>,
    },
    /// tdmrep.json has more rules than are read.
    TdmTooManyRules,
    /// A `tdm-policy` with no reservation in force.
    TdmPolicyUnreserved { policy: String },
    /// A TDMRep layer's value superseded by a later layer (`by`: the decider, when it is later).
    TdmSuperseded {
        value: Reservation,
        by: Option<&'static str>,
    },
    /// The TDMRep value in force ([S-9]).
    TdmInForce { value: Reservation },
    /// A `tdm-policy` beside `tdm-reservation: 0` (TDMREP §5.2).
    TdmPolicyNotProcessed { policy: String },
    /// A page directive addressed to another crawler ([D-3]).
    AddressedElsewhere { name: String },
    /// `noai` denies training only ([D-7]).
    NoaiTrainingOnly,
    /// `noimageai` on a response of no known Content-Type ([D-8]).
    NoContentType,
    /// A directive with no documented AI meaning for the crawler's operator ([S-13]).
    NoAiMeaning { directive: String },
    /// Google: AI Overviews and AI Mode need an indexed page.
    GoogleNeedsIndex,
    /// Google: snippets are the direct input of AI Overviews and AI Mode.
    GoogleDirectInput,
    /// Bing reads `noarchive` with `nocache` as `nocache`.
    BingNoarchive,
    /// A response-level signal of a URL the crawler may not fetch ([S-3], [D-10]).
    NotVisible,
}

/// A non-standard Content-Signal carrier.
#[derive(Clone, Copy, Debug)]
pub(super) enum Carrier {
    Header,
    Meta,
}

/// What was wrong with a signal (its entry's `error`; its effect is then none).
#[derive(Clone, Debug)]
pub(super) enum Problem {
    /// A Content-Usage rule that does not parse (aipref's own words).
    Preference(Why),
    /// A Content-Usage header that is no Structured Field Dictionary.
    NotADictionary { offset: u32, failure: Failure },
    /// tdmrep.json could not be read.
    TdmFile(FileError),
    /// tdmrep.json's matching rule is invalid.
    TdmRule(tdmrep::Problem),
    /// TDMRep carrier values that are not 0 or 1: the first few as written, and how many more.
    TdmCarrier { shown: Vec<String>, more: usize },
    /// A reader stopped at its limit.
    InputCut(Cut),
}

/// Where a page-level reader stopped at its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    XRobotsTag,
    Head,
    MetaTag,
}

impl Display for Note {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Note::RobotsUnavailable { reason } => write!(
                f,
                "robots.txt unavailable ({reason}): every URL may be fetched, no token statements"
            ),
            Note::RobotsUnreachable { reason } => {
                write!(f, "robots.txt unreachable ({reason}): complete disallow")
            }
            Note::Fetch {
                token,
                allowed: true,
            } => write!(f, "{token} may fetch the URL"),
            Note::Fetch {
                token,
                allowed: false,
            } => write!(f, "{token} may not fetch the URL: not crawlable"),
            Note::Verdict {
                token,
                allowed,
                selection,
                reason,
            } => {
                let verdict = if *allowed { "allowed" } else { "disallowed" };
                let how = match selection {
                    Selection::Specific(_) => "its own group",
                    Selection::Global(_) => "the * group (no group names it)",
                    Selection::None => "no group (none names it and there is no * group)",
                };
                write!(f, "{token}: {verdict} by {how}, reason {}", reason.as_str())
            }
            Note::GoogleExtended => f.write_str("Google channel: Gemini Apps and Grounding with Google Search on Vertex AI (not AI Overviews or AI Mode)"),
            Note::NotDedicated { token } => write!(f, "{token} is allowed, but it is not documented for these purposes only: no allow ([S-6])"),
            Note::AnyCrawler { token } => write!(f, "{token} is allowed only as any crawler is (no group names it): no allow ([S-6])"),
            Note::UsageNotCrawlable => {
                f.write_str("the URL is disallowed for this group: no preference applies")
            }
            Note::SignalPathForm => f.write_str(
                "a value starting with / is a path form the policy does not define: ignored ([I-8])",
            ),
            Note::SignalNotYesNo { key, value } => {
                write!(f, "{key}={value}: not yes or no, unknown")
            }
            Note::NotASignal { key } => write!(f, "{key}: not a signal, ignored"),
            Note::EmptyMember => f.write_str("an empty member, ignored"),
            Note::UseNotALevel { value } => write!(
                f,
                "use={value}: not immediate, reference or full, unknown ([S-15])"
            ),
            Note::NonStandardCarrier(Carrier::Header) => {
                f.write_str("non-standard carrier (an HTTP header)")
            }
            Note::NonStandardCarrier(Carrier::Meta) => {
                f.write_str("non-standard carrier (a META tag)")
            }
            Note::UsageNotYesNo { label, kind } => {
                write!(f, "{label}: {}, not y or n: unknown", kind.as_str())
            }
            Note::TdmNoFileValue => f.write_str("no file value"),
            Note::TdmFirstRuleDecides => f.write_str(
                "the first matching rule decides even when invalid: unset, no fall-through ([S-10])",
            ),
            Note::TdmNoRuleMatches => f.write_str("no rule matches the URL: unset"),
            // Counted from 1, as `Where`'s text names a rule.
            Note::TdmRuleSkipped { index, problem } => write!(
                f,
                "rule {}: {}",
                u64::from(*index) + 1,
                problem.map_or("", |p| p.message())
            ),
            Note::TdmTooManyRules => write!(
                f,
                "more than {} rules: the rest were not read",
                tdmrep::MAX_RULES
            ),
            Note::TdmPolicyUnreserved { policy } => {
                write!(f, "tdm-policy {policy} with no reservation in force")
            }
            Note::TdmSuperseded { value, by: Some(by) } => write!(
                f,
                "value {} superseded by the {by} (TDMREP §6.7)",
                value.as_u8()
            ),
            Note::TdmSuperseded { value, by: None } => {
                write!(f, "value {} superseded", value.as_u8())
            }
            Note::TdmInForce { value } => write!(
                f,
                "tdm-reservation {}: TDM rights {}reserved; says nothing about search ([S-9])",
                value.as_u8(),
                if *value == Reservation::Reserved {
                    ""
                } else {
                    "not "
                }
            ),
            Note::TdmPolicyNotProcessed { policy } => write!(
                f,
                "tdm-policy {policy} with tdm-reservation 0: not processed (TDMREP §5.2 note)"
            ),
            Note::AddressedElsewhere { name } => {
                write!(f, "addressed to {name}, not to this crawler's tokens ([D-3])")
            }
            Note::NoaiTrainingOnly => f.write_str("noai denies training only ([D-7])"),
            Note::NoContentType => f.write_str(
                "no Content-Type: the response is not known to be an image, not applied ([D-8])",
            ),
            Note::NoAiMeaning { directive } => write!(
                f,
                "{directive}: no documented AI meaning for this crawler's operator; reported only ([S-13])"
            ),
            Note::GoogleNeedsIndex => {
                f.write_str("AI Overviews and AI Mode need an indexed page (Google)")
            }
            Note::GoogleDirectInput => {
                f.write_str("Google channel: AI Overviews and AI Mode (direct input)")
            }
            Note::BingNoarchive => f.write_str("with nocache, Bing reads noarchive as nocache"),
            Note::NotVisible => {
                f.write_str("not visible to a compliant crawler: the URL may not be fetched")
            }
        }
    }
}

impl Display for Problem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Preference(why) => write!(f, "{why}"),
            Problem::NotADictionary { offset, failure } => write!(
                f,
                "not a Structured Field Dictionary (at byte {offset}: {}): every category unknown",
                failure.as_str()
            ),
            Problem::TdmFile(e) => write!(f, "{e}"),
            Problem::TdmRule(p) => f.write_str(p.message()),
            Problem::TdmCarrier { shown, more } => {
                f.write_str("not 0 or 1: ")?;
                for (i, v) in shown.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{v:?}")?;
                }
                if *more > 0 {
                    write!(f, ", and {more} more")?;
                }
                f.write_str(": a protocol error, treated as absent (TDMREP §5.1)")
            }
            Problem::InputCut(cut) => {
                let what = match cut {
                    Cut::XRobotsTag => "X-Robots-Tag",
                    Cut::Head => "the head (robots_eval::meta::HEAD_SCAN_LIMIT)",
                    Cut::MetaTag => "a META tag",
                };
                write!(f, "input cut: {what} went past its limit (robots_eval::meta::MAX_DIRECTIVES / HEAD_SCAN_LIMIT); the rest was not read")
            }
        }
    }
}

/// An entry's notes as one text, `; ` between them (none: no note).
pub(super) fn notes_text(notes: &[Note]) -> Option<String> {
    use core::fmt::Write;
    let mut out = String::new();
    for (i, n) in notes.iter().enumerate() {
        let sep = if i == 0 { "" } else { "; " };
        // (Writing to a String cannot fail.)
        let _ = write!(out, "{sep}{n}");
    }
    (!notes.is_empty()).then_some(out)
}
