//! Lifecycle, floor 6: "may this crawler use this page for AI?", answered per purpose (AI
//! training `train-ai`, AI use `ai-use`, `search`) from every signal a site can give, with the
//! trace of each signal read: robots.txt's crawl verdict and the purpose tokens of the operator
//! table (`aipref::operators`), Content-Usage and Content-Signal in robots.txt (`preferences`),
//! the `Content-Usage` header, TDMRep (`tdmrep`), `noai`/`noimageai` and the operators' AI
//! meanings of robots META tags and `X-Robots-Tag` (`meta`), and Content-Signal's non-standard
//! header and META carriers.
//!
//! The model is `docs/ai-signals.md` §5 with its readings [S-1] to [S-22] and decisions
//! [D-1] to [D-11]; `docs/ai-use.md` gives them with their sources. In short: each family
//! resolves with its own rules first ([S-2]), then per purpose any deny wins, else any allow,
//! else unknown ([S-1]); a URL the crawler may not fetch is denied for every purpose ([S-3]);
//! unknown stays unknown ([S-17]).
//!
//! This runs only when asked: a crawl verdict never comes here.
//!
//! One file per job: the crawler and its governing tokens (`crawler`); one file per signal
//! family (`robots_txt`, `content_usage`, `content_signal`, `tdmrep`, `page` with the operators'
//! readings in `meaning`), each adding entries to the trace (`trace`) through the `resolver`;
//! the notes of the trace as data, put into words in one place (`words`); and the answers
//! combined from the trace (`combine`).

mod answer;
mod combine;
mod content_signal;
mod content_usage;
mod crawler;
mod inputs;
mod meaning;
mod page;
mod resolver;
mod robots_txt;
mod tdmrep;
mod trace;
mod words;

use alloc::vec::Vec;

use crate::aipref::operators::{Purpose, PURPOSES};
use crate::lifecycle::meta;
use crate::robots::Robots;
use combine::combine;
use crawler::Known;
use resolver::{Head, Resolver};
#[cfg(feature = "serde")]
use serde::Serialize;
use trace::Entry;

pub use answer::{Answer, Effect, PerPurpose, PurposeAnswer};
pub use crawler::Crawler;
pub use inputs::{AiUseInputs, RobotsFetch};
pub use trace::{Condition, Signal, TraceEntry, Where, TDMREP_PATH};

/// The answer to [`Robots::ai_use`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct AiUse {
    #[cfg_attr(feature = "serde", serde(rename = "train-ai"))]
    pub train: PurposeAnswer,
    #[cfg_attr(feature = "serde", serde(rename = "ai-use"))]
    pub input: PurposeAnswer,
    pub search: PurposeAnswer,
    pub trace: Vec<TraceEntry>,
    pub conditions: Vec<Condition>,
    pub crawler: Crawler,
    /// Whether the crawler may fetch the URL under robots.txt (its fetch token's verdict).
    pub crawlable: bool,
}

impl AiUse {
    pub fn answer(&self, p: Purpose) -> &PurposeAnswer {
        match p {
            Purpose::Train => &self.train,
            Purpose::Input => &self.input,
            Purpose::Search => &self.search,
        }
    }
}

impl Robots {
    /// May `agent` use `url`'s content for AI training (`train-ai`), AI use (`ai-use`) and search?
    /// Answered from robots.txt (this file, in its dialect) and what `inputs` holds, with the
    /// trace of every signal read (see the module `robots_eval::ai_use`).
    ///
    /// ```
    /// use robots_eval::ai_use::{AiUseInputs, Answer};
    /// use robots_eval::Robots;
    /// let robots = Robots::parse(b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: search=yes\n");
    /// let gpt = robots.ai_use("https://example.com/a", "GPTBot", &AiUseInputs::default());
    /// assert_eq!(gpt.train.answer, Answer::Deny);
    /// let search = robots.ai_use("https://example.com/a", "OAI-SearchBot", &AiUseInputs::default());
    /// assert_eq!((search.train.answer, search.search.answer), (Answer::Deny, Answer::Allow));
    /// ```
    pub fn ai_use(&self, url: &str, agent: &str, inputs: &AiUseInputs<'_>) -> AiUse {
        resolve(self, url, agent, inputs)
    }
}

/// Reads every signal, family by family, robots.txt first (its crawl verdict decides what a
/// compliant crawler sees of the rest), then combines the answers from the trace.
fn resolve(robots: &Robots, url: &str, agent: &str, inputs: &AiUseInputs<'_>) -> AiUse {
    let Known {
        crawler,
        row,
        governing,
    } = crawler::known(agent, inputs);
    let (tags, cut) = inputs.html.map(meta::head_meta).unwrap_or_default();
    let mut r = Resolver {
        robots,
        path: robots.path(url),
        inputs,
        crawler,
        row,
        governing,
        head: Head { tags, cut },
        trace: Vec::new(),
        conditions: Vec::new(),
        crawlable: true,
        robots_read: false,
    };
    r.robots_txt();
    r.content_usage_header();
    r.content_signal_carriers();
    r.tdmrep();
    r.page_directives();
    r.operator_stance();
    let trace: Vec<TraceEntry> = r.trace.into_iter().map(Entry::render).collect();
    let [train, input, search] = PURPOSES.map(|p| combine(&trace, r.crawlable, p));
    AiUse {
        train,
        input,
        search,
        trace,
        conditions: r.conditions,
        crawler: r.crawler,
        crawlable: r.crawlable,
    }
}
