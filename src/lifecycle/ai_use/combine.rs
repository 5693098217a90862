//! Combining the answers ([S-1]): per purpose any deny wins, else any allow, else unknown; a
//! URL the crawler may not fetch is denied by the crawl verdict and robots.txt's own denials,
//! and nothing else counts ([S-3], [D-10]).

use alloc::vec::Vec;

use super::answer::{Answer, Effect, PurposeAnswer};
use super::trace::{Signal, TraceEntry};
use crate::aipref::operators::Purpose;

/// The answer for `p` from the trace, with the entries that decided it.
pub(super) fn combine(trace: &[TraceEntry], crawlable: bool, p: Purpose) -> PurposeAnswer {
    // Not crawlable: only what robots.txt itself says counts (its lines: the verdicts,
    // Content-Usage rules, Content-Signal lines), [D-10].
    let counted = |e: &TraceEntry| {
        e.visible
            && (crawlable
                || matches!(e.signal, Signal::RobotsTxt | Signal::ContentUsage)
                || (e.signal == Signal::ContentSignal && e.at.line.is_some()))
    };
    let with = |effect: Effect| -> Vec<usize> {
        (trace.iter().enumerate())
            .filter(|(_, e)| counted(e) && *e.effect.get(p) == Some(effect))
            .map(|(i, _)| i)
            .collect()
    };
    let deny = with(Effect::Deny);
    if !deny.is_empty() {
        return PurposeAnswer {
            answer: Answer::Deny,
            by: deny,
        };
    }
    let allow = with(Effect::Allow);
    if !allow.is_empty() {
        return PurposeAnswer {
            answer: Answer::Allow,
            by: allow,
        };
    }
    PurposeAnswer {
        answer: Answer::Unknown,
        by: Vec::new(),
    }
}
