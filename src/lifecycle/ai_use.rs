//! Lifecycle, floor 6: "may this crawler use this page for AI?", answered per purpose (AI
//! training `train-ai`, AI use `ai-use`, `search`) from every signal a site can give, with the
//! trace of each signal read: robots.txt's crawl verdict and the purpose tokens of the operator
//! table (`aipref::operators`), Content-Usage and Content-Signal in robots.txt (`preferences`),
//! the `Content-Usage` header, TDMRep (`tdmrep`), `noai`/`noimageai` and the operators' AI
//! meanings of robots META tags and `X-Robots-Tag` (`meta`), and Content-Signal's non-standard
//! header and META carriers.
//!
//! The model is `shared/docs/ai-signals.md` §5 with its readings [S-1] to [S-22] and decisions
//! [D-1] to [D-11]; `docs/ai-use.md` gives them with their sources. In short: each family
//! resolves with its own rules first ([S-2]), then per purpose any deny wins, else any allow,
//! else unknown ([S-1]); a URL the crawler may not fetch is denied for every purpose ([S-3]);
//! unknown stays unknown ([S-17]).
//!
//! This runs only when asked: a crawl verdict never comes here.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::fetch::Policy;
use super::meta::{self, DirectiveKind, Scope};
use super::tdmrep::{self, Reservation, TdmFile};
use crate::aipref::operators::{self, Kind, Operator, Purpose, Purposes, PURPOSES};
use crate::aipref::{self, Member, Preference, Statement, Why, CATEGORIES};
use crate::decide::{Path, Selection, Verdict};
use crate::model::RecordKind;
use crate::robots::Robots;

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
/// rule (its index in the array, from 0). Fields that do not apply are absent.
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
}

impl Where {
    fn line(line: u32) -> Where {
        Where {
            line: Some(line),
            ..Where::default()
        }
    }

    fn header(name: &'static str, index: Option<u32>) -> Where {
        Where {
            header: Some(name),
            index,
            ..Where::default()
        }
    }

    fn tag(tag: u32) -> Where {
        Where {
            tag: Some(tag),
            ..Where::default()
        }
    }

    fn file(rule: Option<u32>) -> Where {
        Where {
            file: Some(TDMREP_PATH),
            rule,
            ..Where::default()
        }
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
                write!(f, " (field line {i})")?;
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
                write!(f, " rule {r}")?;
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
    fn new(signal: Signal, at: Where) -> TraceEntry {
        TraceEntry {
            signal,
            at,
            scope: None,
            raw: None,
            effect: PerPurpose::default(),
            rules: Vec::new(),
            error: None,
            note: None,
            visible: true,
        }
    }

    fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    fn raw(mut self, raw: impl Into<String>) -> Self {
        self.raw = Some(raw.into());
        self
    }

    fn rules(mut self, rules: &[&'static str]) -> Self {
        self.rules.extend_from_slice(rules);
        self
    }

    fn note(mut self, note: impl Into<String>) -> Self {
        let note = note.into();
        self.note = Some(match self.note.take() {
            Some(before) => format!("{before}; {note}"),
            None => note,
        });
        self
    }

    fn set(&mut self, p: Purpose, e: Effect) {
        *self.effect.get_mut(p) = Some(e);
    }

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

/// One purpose's answer and the trace entries (indices into [`AiUse::trace`]) that decided it:
/// every deny when it is deny, every allow when it is allow, none when unknown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct PurposeAnswer {
    pub answer: Answer,
    pub by: Vec<usize>,
}

/// The crawler as the resolver read it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Crawler {
    /// The agent as given.
    pub agent: String,
    /// The token of the operator table's row, or the agent's product token.
    pub token: String,
    /// Whether the operator table knows it.
    pub known: bool,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub operator: Option<&'static str>,
    /// `crawler`, `control-token`, `user-fetcher`, `link-previews`, or `unknown`.
    pub kind: &'static str,
    /// The token whose crawl verdict gates everything (a control token's crawler, [D-2]).
    pub fetch_token: String,
    /// The purposes it serves (the table's, or the caller's for a crawler the table does not know).
    pub purposes: Vec<Purpose>,
    /// Per purpose, the robots.txt tokens that govern it (`tokens(C, P)`, §5.2, [S-5]).
    pub tokens: PerPurpose<Vec<String>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub source: Option<&'static str>,
}

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

/// How the robots.txt was had, when it was fetched ([D-11]): its status and the fetch policy
/// decision obeyed (`fetch::decide`). A 4xx taken as allow-all makes no statements; a 5xx or a
/// network failure taken as disallow-all makes every purpose deny ([S-3]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RobotsFetch {
    /// The HTTP status, `None` for a network failure or timeout.
    pub status: Option<u16>,
    pub policy: Policy,
    /// The decision's reason code (`fetch::Decision::reason`).
    pub reason: &'static str,
}

/// What the caller has besides robots.txt. `Default`: nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct AiUseInputs<'a> {
    /// The page's response headers, `(name, value)`, names in any case; a repeated header as
    /// repeated pairs (one per field line: `X-Robots-Tag`'s bot prefix holds per line).
    pub headers: &'a [(&'a str, &'a str)],
    /// The page's HTML: only its head is read, up to [`meta::HEAD_SCAN_LIMIT`].
    pub html: Option<&'a [u8]>,
    /// The body of the site's `/.well-known/tdmrep.json`; `None` when it was absent (TDMREP
    /// §6.1: no successful response, the origin does not implement the file).
    pub tdmrep: Option<&'a [u8]>,
    /// The purposes of a crawler the operator table does not know (or whose purposes its caller
    /// declares, as Cloudflare's `/crawl`): [S-5].
    pub purposes: Option<&'a [Purpose]>,
    /// Cross-operator training policy tokens (draft-kelley-aipref-training-preference-signal;
    /// names unconfirmed, none by default): each is a `train-ai` control token for every
    /// crawler ([S-22]).
    pub policy_tokens: &'a [&'a str],
    /// How robots.txt was fetched, if it was.
    pub robots_fetch: Option<RobotsFetch>,
}

/// The reuse levels of Content-Signal's `use`, least to most permissive ([S-15]).
const USE_LEVELS: [&str; 3] = ["immediate", "reference", "full"];

/// A TDMRep layer that was read: its trace entry's index, its value, its policy, its name.
type Layer = (usize, Option<Reservation>, Option<String>, &'static str);

/// A TDMRep carrier's trace entry, before its values are read.
struct Carrier {
    at: Where,
    rule: &'static str,
    layer: &'static str,
    raw: Vec<String>,
    policy: Option<String>,
}

/// A token whose groups are read, with the purposes it speaks for here.
struct Governing {
    token: String,
    purposes: Purposes,
    dedicated: bool,
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
        Resolver::new(self, url, agent, inputs).run()
    }
}

struct Resolver<'r, 'i> {
    robots: &'r Robots,
    path: Path<'r>,
    inputs: &'i AiUseInputs<'i>,
    crawler: Crawler,
    row: Option<&'static Operator>,
    governing: Vec<Governing>,
    /// The named META tags of the page's head, and whether the head was cut (read once).
    head: (Vec<meta::HeadMeta>, bool),
    trace: Vec<TraceEntry>,
    conditions: Vec<Condition>,
    crawlable: bool,
}

impl<'r, 'i> Resolver<'r, 'i> {
    fn new(robots: &'r Robots, url: &'r str, agent: &str, inputs: &'i AiUseInputs<'i>) -> Self {
        let row = operators::crawler(agent);
        let declared = inputs.purposes.map(Purposes::of);
        let (token, purposes) = match row {
            Some(r) if r.purposes != Purposes::NONE || declared.is_none() => {
                (r.token.to_owned(), r.purposes)
            }
            Some(r) => (r.token.to_owned(), declared.unwrap_or_default()),
            None => (
                product_token(agent).to_owned(),
                declared.unwrap_or_default(),
            ),
        };
        let fetch_token = match row.and_then(|r| r.fetched_by) {
            Some(f) => f.to_owned(),
            // A crawler the table does not know is read as robots.txt reads its agent.
            None if row.is_none() => agent.to_owned(),
            None => token.clone(),
        };
        let governing = governing(row, &token, purposes, inputs.policy_tokens);
        let mut tokens = PerPurpose::<Vec<String>>::default();
        for g in &governing {
            for p in g.purposes.iter() {
                tokens.get_mut(p).push(g.token.clone());
            }
        }
        let crawler = Crawler {
            agent: agent.to_owned(),
            token,
            known: row.is_some(),
            operator: row.map(|r| r.operator),
            kind: row.map_or("unknown", |r| r.kind.as_str()),
            fetch_token,
            purposes: purposes.iter().collect(),
            tokens,
            source: row.map(|r| r.source),
        };
        Resolver {
            robots,
            path: robots.path(url),
            inputs,
            crawler,
            row,
            governing,
            head: inputs.html.map(meta::head_meta).unwrap_or_default(),
            trace: Vec::new(),
            conditions: Vec::new(),
            crawlable: true,
        }
    }

    fn run(mut self) -> AiUse {
        self.robots_txt();
        let visible_from = self.trace.len();
        self.content_usage_header();
        self.content_signal_carriers();
        self.tdmrep();
        self.page_directives();
        self.operator_stance();
        if !self.crawlable {
            // [S-3], [D-10]: what only a fetch reveals is never seen by a compliant crawler. The
            // tdmrep.json file is site metadata like robots.txt (5.6): it stays visible.
            for e in self.trace.iter_mut().skip(visible_from) {
                if e.at.file.is_none() {
                    e.visible = false;
                    let note = "not visible to a compliant crawler: the URL may not be fetched";
                    e.note = Some(match e.note.take() {
                        Some(before) => format!("{before}; {note}"),
                        None => note.to_owned(),
                    });
                }
            }
        }
        let [train, input, search] = PURPOSES.map(|p| self.decide(p));
        AiUse {
            train,
            input,
            search,
            trace: self.trace,
            conditions: self.conditions,
            crawler: self.crawler,
            crawlable: self.crawlable,
        }
    }

    /// [S-1]: any deny wins, else any allow, else unknown; a URL that may not be fetched is
    /// denied by the crawl verdict and robots.txt's own denials ([S-3], [D-10]).
    fn decide(&self, p: Purpose) -> PurposeAnswer {
        // Not crawlable: only what robots.txt itself says counts (its lines: the verdicts,
        // Content-Usage rules, Content-Signal lines), [D-10].
        let counted = |e: &&TraceEntry| {
            e.visible
                && (self.crawlable
                    || matches!(e.signal, Signal::RobotsTxt | Signal::ContentUsage)
                    || (e.signal == Signal::ContentSignal && e.at.line.is_some()))
        };
        let with = |effect: Effect| -> Vec<usize> {
            self.trace
                .iter()
                .enumerate()
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

    /// The selection of a token, with Applebot's fallback to the Googlebot group ([S-19]).
    fn select(&self, token: &str) -> Selection {
        let s = self.robots.selection(token);
        if token.eq_ignore_ascii_case("Applebot") && !matches!(s, Selection::Specific(_)) {
            let g = self.robots.selection("Googlebot");
            if matches!(g, Selection::Specific(_)) {
                return g;
            }
        }
        s
    }

    /// The purposes (among those a token governs here) a selection of robots.txt is read for:
    /// the fetch token's groups for every purpose, each governing token's for its own ([S-7]).
    fn readings(&self) -> Vec<(Selection, String, Purposes)> {
        let mut out: Vec<(Selection, String, Purposes)> = Vec::new();
        let all = Purposes::of(&PURPOSES);
        let fetch = (self.crawler.fetch_token.clone(), all);
        let each = self.governing.iter().map(|g| (g.token.clone(), g.purposes));
        for (token, purposes) in core::iter::once(fetch).chain(each) {
            let s = self.select(&token);
            match out.iter_mut().find(|(sel, ..)| *sel == s) {
                Some((_, names, p)) => {
                    if !names.split(", ").any(|n| n.eq_ignore_ascii_case(&token)) {
                        names.push_str(", ");
                        names.push_str(&token);
                    }
                    *p = p.and(purposes);
                }
                None => out.push((s, token, purposes)),
            }
        }
        out
    }

    fn robots_txt(&mut self) {
        if let Some(f) = self.inputs.robots_fetch {
            let status = f
                .status
                .map_or("no response".to_owned(), |s| format!("HTTP {s}"));
            match f.policy {
                Policy::AllowAll => {
                    let e = TraceEntry::new(Signal::RobotsTxt, Where::default())
                        .raw(status)
                        .rules(&["RFC 9309 §2.3.1.3", "S-6"])
                        .note(format!(
                            "robots.txt unavailable ({}): every URL may be fetched, no token statements",
                            f.reason
                        ));
                    self.trace.push(e);
                    return;
                }
                Policy::DisallowAll | Policy::Defer => {
                    let mut e = TraceEntry::new(Signal::RobotsTxt, Where::default())
                        .scope(self.crawler.fetch_token.clone())
                        .raw(status)
                        .rules(&["RFC 9309 §2.3.1.4", "S-3"])
                        .note(format!(
                            "robots.txt unreachable ({}): complete disallow",
                            f.reason
                        ));
                    for p in PURPOSES {
                        e.set(p, Effect::Deny);
                    }
                    self.trace.push(e);
                    self.crawlable = false;
                    return;
                }
                Policy::Parse { .. } | Policy::FollowRedirect | Policy::UseCached => {}
            }
        }
        // The crawl gate: the fetch token's verdict ([S-3]).
        let fetch = self.crawler.fetch_token.clone();
        let gate = self.check(&fetch);
        self.crawlable = gate.allowed;
        let mut entry = self.verdict_entry(&fetch, &gate);
        if gate.allowed {
            entry = entry.note(format!("{fetch} may fetch the URL"));
        } else {
            for p in PURPOSES {
                entry.set(p, Effect::Deny);
            }
            entry = entry
                .rules(&["RFC 9309 §2.2.2", "S-3"])
                .note(format!("{fetch} may not fetch the URL: not crawlable"));
        }
        // The purpose tokens' statements ([S-6]); the fetch token's own are on its entry.
        let governing: Vec<(String, Purposes, bool)> = self
            .governing
            .iter()
            .map(|g| (g.token.clone(), g.purposes, g.dedicated))
            .collect();
        let mut entries = Vec::new();
        for (token, purposes, dedicated) in governing {
            let same = token.eq_ignore_ascii_case(&fetch);
            let v = if same { gate } else { self.check(&token) };
            let mut e = if same {
                core::mem::replace(
                    &mut entry,
                    TraceEntry::new(Signal::RobotsTxt, Where::default()),
                )
            } else {
                self.verdict_entry(&token, &v)
            };
            e = e.rules(&["S-5", "S-6"]);
            let named = matches!(v.selection, Selection::Specific(_));
            for p in purposes.iter() {
                if !v.allowed {
                    e.set(p, Effect::Deny);
                } else if named && dedicated {
                    e.set(p, Effect::Allow);
                }
            }
            if v.allowed && !(named && dedicated) {
                e = e.note(if named {
                    format!("{token} is allowed, but it is not documented for these purposes only: no allow ([S-6])")
                } else {
                    format!("{token} is allowed only as any crawler is (no group names it): no allow ([S-6])")
                });
            }
            if same {
                entry = e;
            } else {
                entries.push(e);
            }
        }
        self.trace.push(entry);
        self.trace.extend(entries);
        self.preference_lines();
    }

    fn check(&self, token: &str) -> Verdict {
        self.robots.check_path(&self.path, self.select(token))
    }

    /// A robots.txt entry for a token's verdict: the deciding rule, or the group, or none.
    fn verdict_entry(&self, token: &str, v: &Verdict) -> TraceEntry {
        let rule = self.robots.deciding_rule(v);
        let group_line = self
            .robots
            .selected_groups(v.selection)
            .next()
            .map(|g| g.line());
        let at = match (rule, group_line) {
            (Some(r), _) => Where::line(r.line),
            (None, Some(line)) => Where::line(line),
            (None, None) => Where::default(),
        };
        let mut e = TraceEntry::new(Signal::RobotsTxt, at).scope(token.to_owned());
        if let Some(r) = rule {
            let kind = match r.kind {
                crate::RuleKind::Allow => "Allow",
                crate::RuleKind::Disallow => "Disallow",
            };
            e = e.raw(format!("{kind}: {}", r.pattern));
        }
        let how = match v.selection {
            Selection::Specific(_) => "its own group",
            Selection::Global(_) => "the * group (no group names it)",
            Selection::None => "no group (none names it and there is no * group)",
        };
        let verdict = if v.allowed { "allowed" } else { "disallowed" };
        let e = e.note(format!(
            "{token}: {verdict} by {how}, reason {}",
            v.reason.as_str()
        ));
        // [S-18], [D-9]: Google's two AI-input channels, named where a statement addresses one.
        if token.eq_ignore_ascii_case("Google-Extended") {
            e.note("Google channel: Gemini Apps and Grounding with Google Search on Vertex AI (not AI Overviews or AI Mode)")
        } else {
            e
        }
    }

    /// Content-Usage and Content-Signal lines of the groups read for each token ([S-7]).
    fn preference_lines(&mut self) {
        for (selection, names, purposes) in self.readings() {
            let prefs = self.robots.ai_preferences_path(&self.path, selection, None);
            let scope = match selection {
                Selection::Global(_) => format!("{names} (the * group)"),
                _ => names.clone(),
            };
            // Content-Usage: the family's own rules first (longest match, I-1..I-5), then one
            // entry per deciding line.
            let mut lines: Vec<u32> = Vec::new();
            for a in &prefs.content_usage {
                if let Some(aipref::Origin::Line(l)) = a.why.origin() {
                    if !lines.contains(&l) {
                        lines.push(l);
                    }
                }
            }
            for line in lines {
                let raw = self.record_value(selection, RecordKind::ContentUsage, line);
                let mut e = TraceEntry::new(Signal::ContentUsage, Where::line(line))
                    .scope(scope.clone())
                    .raw(format!("Content-Usage: {}", raw.unwrap_or_default()))
                    .rules(&["draft-ietf-aipref-attach-05 §3.1", "S-7", "S-8"]);
                for (c, a) in CATEGORIES.iter().zip(&prefs.content_usage) {
                    let Some(p) = Purpose::from_label(c.label) else {
                        continue;
                    };
                    if a.why.origin() != Some(aipref::Origin::Line(line)) {
                        continue;
                    }
                    if let Why::Malformed(..) = a.why {
                        e.error = Some(a.why.to_string());
                    }
                    if !purposes.contains(p) {
                        continue;
                    }
                    match a.preference {
                        Preference::Allowed => e.set(p, Effect::Allow),
                        Preference::Disallowed => e.set(p, Effect::Deny),
                        Preference::Unknown => {}
                    }
                }
                self.trace.push(e);
            }
            if prefs
                .content_usage
                .iter()
                .all(|a| matches!(a.why, Why::NotCrawlable(_)))
            {
                let cut: Vec<(u32, String)> =
                    self.records(selection, RecordKind::ContentUsage).collect();
                for (line, value) in cut {
                    self.trace.push(
                        TraceEntry::new(Signal::ContentUsage, Where::line(line))
                            .scope(scope.clone())
                            .raw(format!("Content-Usage: {value}"))
                            .rules(&["draft-ietf-aipref-attach-05 §3.1", "I-5"])
                            .note("the URL is disallowed for this group: no preference applies"),
                    );
                }
            }
            // Content-Signal: one entry per line; lines combine as any no, else any yes ([I-9]).
            let signal_lines: Vec<(u32, String)> =
                self.records(selection, RecordKind::ContentSignal).collect();
            for (line, value) in signal_lines {
                let e = self.content_signal_entry(
                    TraceEntry::new(Signal::ContentSignal, Where::line(line))
                        .scope(scope.clone())
                        .raw(format!("Content-Signal: {value}"))
                        .rules(&["Content Signals Policy", "I-8", "I-9", "S-7", "S-8"]),
                    &value,
                    purposes,
                    Where::line(line),
                );
                self.trace.push(e);
            }
        }
    }

    /// The records of a kind in a selection's groups, in file order: (line, value).
    fn records(
        &self,
        selection: Selection,
        kind: RecordKind,
    ) -> impl Iterator<Item = (u32, String)> + '_ {
        self.robots
            .selected_groups(selection)
            .flat_map(|g| g.records())
            .filter(move |r| r.kind == kind)
            .map(|r| (r.line, r.value.to_owned()))
    }

    fn record_value(&self, selection: Selection, kind: RecordKind, line: u32) -> Option<String> {
        self.records(selection, kind)
            .find(|(l, _)| *l == line)
            .map(|(_, v)| v)
    }

    /// A Content-Signal value's effects ([I-8], [S-8]) and its `use` ceiling ([S-15]).
    fn content_signal_entry(
        &mut self,
        mut e: TraceEntry,
        value: &str,
        purposes: Purposes,
        at: Where,
    ) -> TraceEntry {
        let Some(members) = aipref::signal::members(value.as_bytes()) else {
            return e.note("a value starting with / is a path form the policy does not define: ignored ([I-8])");
        };
        let mut odd = Vec::new();
        for m in members {
            match m {
                aipref::SignalMember::Signal {
                    signal,
                    value,
                    preference,
                } => {
                    let key = aipref::SIGNAL_KEYS.get(signal).copied().unwrap_or("");
                    let Some(p) = Purpose::from_label(key) else {
                        continue;
                    };
                    match preference {
                        // Several values of a key in one line: any no, else any yes ([I-9]).
                        Preference::Disallowed if purposes.contains(p) => e.set(p, Effect::Deny),
                        Preference::Allowed
                            if purposes.contains(p) && e.effect.get(p).is_none() =>
                        {
                            e.set(p, Effect::Allow);
                        }
                        Preference::Unknown => odd.push(format!(
                            "{key}={}: not yes or no, unknown",
                            String::from_utf8_lossy(value)
                        )),
                        _ => {}
                    }
                }
                aipref::SignalMember::Extra { key, value } => {
                    let key = String::from_utf8_lossy(key);
                    let value = String::from_utf8_lossy(value);
                    if key.eq_ignore_ascii_case("use") {
                        self.use_ceiling(&value, at.clone(), &mut odd);
                    } else {
                        odd.push(format!("{key}: not a signal, ignored"));
                    }
                }
                aipref::SignalMember::Empty => odd.push("an empty member, ignored".to_owned()),
            }
        }
        if !odd.is_empty() {
            e = e.note(odd.join("; "));
        }
        e
    }

    /// Content-Signal's `use`: a reuse ceiling, reported, never an answer; several give the most
    /// restrictive ([S-15]).
    fn use_ceiling(&mut self, value: &str, at: Where, odd: &mut Vec<String>) {
        let v = value.trim().to_ascii_lowercase();
        let Some(level) = USE_LEVELS.iter().position(|l| *l == v) else {
            odd.push(format!(
                "use={value}: not immediate, reference or full, unknown ([S-15])"
            ));
            return;
        };
        let existing = self.conditions.iter_mut().find(|c| c.condition == "use");
        match existing {
            Some(c) => {
                let before = USE_LEVELS.iter().position(|l| *l == c.value);
                if before.is_none_or(|b| level < b) {
                    c.value = v;
                    c.at = at;
                }
            }
            None => self.conditions.push(Condition {
                condition: "use",
                value: v,
                signal: Signal::ContentSignal,
                at,
                purposes: PURPOSES.to_vec(),
                note: "how much of the content may be kept and reshared: immediate < reference < full (S-15)",
            }),
        }
    }

    /// The values of a response header, one per field line.
    fn header(&self, name: &str) -> Vec<&'i str> {
        self.inputs
            .headers
            .iter()
            .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
            .collect()
    }

    fn content_usage_header(&mut self) {
        let lines = self.header("content-usage");
        if lines.is_empty() {
            return;
        }
        // Field lines are one Dictionary, joined with ", " (RFC 9110 §5.3, SF §4.2).
        let value = lines.join(", ");
        let statement = Statement::parse(value.as_bytes());
        let mut e = TraceEntry::new(
            Signal::ContentUsageHeader,
            Where::header("Content-Usage", None),
        )
        .raw(value.clone())
        .rules(&["draft-ietf-aipref-attach-05 §2", "S-8"]);
        if let Some(err) = statement.error() {
            e.error = Some(format!(
                "not a Structured Field Dictionary (at byte {}: {}): every category unknown",
                err.offset,
                err.failure.as_str()
            ));
        }
        for (i, c) in CATEGORIES.iter().enumerate() {
            let Some(p) = Purpose::from_label(c.label) else {
                continue;
            };
            match statement.member(i) {
                Member::Stated(Preference::Allowed) => e.set(p, Effect::Allow),
                Member::Stated(Preference::Disallowed) => e.set(p, Effect::Deny),
                Member::Other(t) => {
                    e = e.note(format!(
                        "{}: a {}, not y or n: unknown",
                        c.label,
                        t.as_str()
                    ));
                }
                _ => {}
            }
        }
        self.trace.push(e);
    }

    /// Content-Signal as a response header or a META tag: non-standard carriers ([S-16]).
    fn content_signal_carriers(&mut self) {
        let all = Purposes::of(&PURPOSES);
        let lines = self.header("content-signal");
        for (i, value) in lines.into_iter().enumerate() {
            let at = Where::header("Content-Signal", u32::try_from(i).ok());
            let e = TraceEntry::new(Signal::ContentSignal, at.clone())
                .raw(value)
                .rules(&["S-16", "I-8"])
                .note("non-standard carrier (an HTTP header)");
            let e = self.content_signal_entry(e, value, all, at);
            self.trace.push(e);
        }
        let tags: Vec<meta::HeadMeta> = self
            .head
            .0
            .iter()
            .filter(|t| t.name.eq_ignore_ascii_case("content-signal"))
            .cloned()
            .collect();
        for tag in tags {
            let value = tag.content.clone().unwrap_or_default();
            let at = Where::tag(tag.index);
            let e = TraceEntry::new(Signal::ContentSignal, at.clone())
                .raw(format!("<meta name=\"{}\" content=\"{value}\">", tag.name))
                .rules(&["S-16", "I-8"])
                .note("non-standard carrier (a META tag)");
            let e = self.content_signal_entry(e, &value, all, at);
            self.trace.push(e);
        }
    }

    /// TDMRep: the file, then the header fields, then the META tags; a later layer that speaks
    /// supersedes, one that is silent (or invalid) keeps the earlier value (TDMREP §6.7, [S-2],
    /// [S-11]). 1 denies `train-ai` and `ai-use`, 0 allows them; never `search` ([S-9]).
    fn tdmrep(&mut self) {
        // (trace index, value, policy, layer name) of each layer that was read.
        let mut layers: Vec<Layer> = Vec::new();
        if let Some(body) = self.inputs.tdmrep {
            let file = TdmFile::parse(body);
            let mut e;
            let mut value = None;
            let mut policy = None;
            if let Some(err) = &file.error {
                e = TraceEntry::new(Signal::Tdmrep, Where::file(None))
                    .rules(&["TDMREP §6.1", "S-10"])
                    .note("no file value");
                e.error = Some(err.to_string());
            } else {
                let pct = self.robots.dialect().percent;
                match file.matching(self.path.as_bytes(), pct) {
                    Some(rule) => {
                        e = TraceEntry::new(Signal::Tdmrep, Where::file(Some(rule.index)))
                            .raw(format!(
                                "{{\"location\": {:?}, \"tdm-reservation\": {}{}}}",
                                rule.location.as_deref().unwrap_or(""),
                                rule.raw_reservation.as_deref().unwrap_or("(absent)"),
                                rule.policy
                                    .as_deref()
                                    .map_or(String::new(), |p| format!(", \"tdm-policy\": {p:?}"))
                            ))
                            .rules(&["TDMREP §6.1", "TDMREP §6.1.1", "S-10"]);
                        if let Some(problem) = rule.problem {
                            e.error = Some(problem.message().to_owned());
                            e = e.note("the first matching rule decides even when invalid: unset, no fall-through ([S-10])");
                        }
                        value = rule.reservation;
                        policy = rule.policy.clone();
                    }
                    None => {
                        e = TraceEntry::new(Signal::Tdmrep, Where::file(None))
                            .rules(&["TDMREP §6.1"])
                            .note("no rule matches the URL: unset");
                    }
                }
                let skipped: Vec<String> = file
                    .rules
                    .iter()
                    .filter(|r| !r.matchable())
                    .map(|r| {
                        format!(
                            "rule {}: {}",
                            r.index,
                            r.problem.map_or("", |p| p.message())
                        )
                    })
                    .collect();
                if !skipped.is_empty() {
                    e = e.note(skipped.join("; "));
                }
                if file.truncated {
                    e = e.note(format!(
                        "more than {} rules: the rest were not read",
                        tdmrep::MAX_RULES
                    ));
                }
            }
            self.trace.push(e);
            layers.push((
                self.trace.len().saturating_sub(1),
                value,
                policy,
                "tdmrep.json",
            ));
        }
        let reservations = self.header("tdm-reservation");
        let policies = self.header("tdm-policy");
        if !reservations.is_empty() || !policies.is_empty() {
            let mut raw: Vec<String> = reservations
                .iter()
                .map(|v| format!("tdm-reservation: {v}"))
                .collect();
            raw.extend(policies.iter().map(|v| format!("tdm-policy: {v}")));
            let name = if reservations.is_empty() {
                "tdm-policy"
            } else {
                "tdm-reservation"
            };
            let carrier = Carrier {
                at: Where::header(name, None),
                rule: "TDMREP §6.2",
                layer: "header",
                raw,
                policy: policies.first().map(|p| p.trim().to_owned()),
            };
            layers.push(self.tdm_carrier(carrier, &reservations));
        }
        let tags = core::mem::take(&mut self.head.0);
        let named = |name: &str| -> Vec<&meta::HeadMeta> {
            tags.iter()
                .filter(|t| t.name.eq_ignore_ascii_case(name))
                .collect()
        };
        let (res_tags, pol_tags) = (named("tdm-reservation"), named("tdm-policy"));
        if let Some(first) = res_tags.first().or(pol_tags.first()) {
            let content = |t: &&meta::HeadMeta| t.content.clone().unwrap_or_default();
            let raw = res_tags
                .iter()
                .chain(&pol_tags)
                .map(|t| format!("<meta name=\"{}\" content=\"{}\">", t.name, content(t)))
                .collect();
            let carrier = Carrier {
                at: Where::tag(first.index),
                rule: "TDMREP §6.3",
                layer: "META tag",
                raw,
                policy: pol_tags.first().map(|t| content(t).trim().to_owned()),
            };
            let values: Vec<String> = res_tags.iter().map(content).collect();
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            layers.push(self.tdm_carrier(carrier, &values));
        }
        self.head.0 = tags;
        // Layering (§6.7): the last layer with a value decides; the others are superseded.
        let decider = layers.iter().rev().find(|(_, v, _, _)| v.is_some());
        let Some(&(at, value, _, layer)) = decider else {
            for (i, _, policy, _) in &layers {
                if let (Some(p), Some(e)) = (policy, self.trace.get_mut(*i)) {
                    *e = e
                        .clone()
                        .note(format!("tdm-policy {p} with no reservation in force"));
                }
            }
            return;
        };
        let policy = layers
            .iter()
            .rev()
            .find_map(|(i, _, p, _)| p.clone().map(|p| (*i, p)));
        for (i, v, _, _) in &layers {
            if *i == at {
                continue;
            }
            if let (Some(v), Some(e)) = (v, self.trace.get_mut(*i)) {
                let later = *i < at;
                *e = e.clone().note(if later {
                    format!(
                        "value {} superseded by the {layer} (TDMREP §6.7)",
                        v.as_u8()
                    )
                } else {
                    format!("value {} superseded", v.as_u8())
                });
            }
        }
        if let Some(e) = self.trace.get_mut(at) {
            let effect = match value {
                Some(Reservation::Reserved) => Effect::Deny,
                _ => Effect::Allow,
            };
            e.set(Purpose::Train, effect);
            e.set(Purpose::Input, effect);
            e.rules.extend_from_slice(&["TDMREP §6.7", "S-2", "S-9"]);
            *e = e.clone().note(format!(
                "tdm-reservation {}: TDM rights {}reserved; says nothing about search ([S-9])",
                value.map_or(0, Reservation::as_u8),
                if value == Some(Reservation::Reserved) {
                    ""
                } else {
                    "not "
                }
            ));
        }
        match (value, policy) {
            (Some(Reservation::Reserved), Some((i, p))) => {
                let at = self.trace.get(i).map(|e| e.at.clone()).unwrap_or_default();
                self.conditions.push(Condition {
                    condition: "tdm-policy",
                    value: p,
                    signal: Signal::Tdmrep,
                    at,
                    purposes: [Purpose::Train, Purpose::Input].to_vec(),
                    note: "how to obtain TDM authorisation (TDMREP §5.2); never fetched here",
                });
            }
            (Some(Reservation::NotReserved), Some((i, p))) => {
                if let Some(e) = self.trace.get_mut(i) {
                    *e = e.clone().note(format!(
                        "tdm-policy {p} with tdm-reservation 0: not processed (TDMREP §5.2 note)"
                    ));
                }
            }
            _ => {}
        }
    }

    /// One TDMRep carrier (the header fields, or the META tags) as a trace entry: its layer
    /// (trace index, value, policy, name) for the layering of [`Resolver::tdmrep`] ([S-11]).
    fn tdm_carrier(&mut self, c: Carrier, values: &[&str]) -> Layer {
        let (value, invalid) = tdmrep::carrier(values.iter().copied());
        let mut e = TraceEntry::new(Signal::Tdmrep, c.at)
            .raw(c.raw.join("\n"))
            .rules(&[c.rule, "S-11"]);
        if !invalid.is_empty() {
            // The first few, as written: the error names what was wrong, not all of it.
            let mut shown: Vec<String> = invalid.iter().take(8).map(|v| format!("{v:?}")).collect();
            if invalid.len() > 8 {
                shown.push(format!("and {} more", invalid.len().saturating_sub(8)));
            }
            e.error = Some(format!(
                "not 0 or 1: {}: a protocol error, treated as absent (TDMREP §5.1)",
                shown.join(", ")
            ));
        }
        self.trace.push(e);
        (self.trace.len().saturating_sub(1), value, c.policy, c.layer)
    }

    /// Robots META tags and `X-Robots-Tag`: `noai`, `noimageai` ([S-12]), `noindex` ([S-14])
    /// and the operators' own AI meanings ([S-13]).
    fn page_directives(&mut self) {
        // (signal, where, directive)
        let mut found: Vec<(Signal, Where, meta::Directive)> = Vec::new();
        let mut cut = Vec::new();
        for (i, value) in self.header("x-robots-tag").into_iter().enumerate() {
            let (ds, full) = meta::directives(value, None);
            if full {
                cut.push("X-Robots-Tag");
            }
            let at = Where::header("X-Robots-Tag", u32::try_from(i).ok());
            found.extend(ds.into_iter().map(|d| (Signal::XRobotsTag, at.clone(), d)));
        }
        let (tags, head_cut) = core::mem::take(&mut self.head);
        if head_cut {
            cut.push("the head (robots_eval::meta::HEAD_SCAN_LIMIT)");
        }
        for tag in &tags {
            if !self.robots_tag_name(&tag.name) {
                continue;
            }
            let (ds, full) =
                meta::directives(tag.content.as_deref().unwrap_or(""), Some(&tag.name));
            if full {
                cut.push("a META tag");
            }
            found.extend(
                ds.into_iter()
                    .map(|d| (Signal::RobotsMeta, Where::tag(tag.index), d)),
            );
        }
        let content_type = self
            .header("content-type")
            .first()
            .map(|v| v.trim().to_ascii_lowercase());
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
                |(_, _, d)| matches!(&d.scope, Scope::Agent(n) if meta::addresses(n, "Applebot")),
            );
        // Bing: `noarchive` and `nocache` together count as `nocache` (BING).
        let nocache = |s: &Self, found: &[(Signal, Where, meta::Directive)]| {
            found.iter().any(|(_, _, d)| {
                name_of(d).eq_ignore_ascii_case("nocache")
                    && !s.addressed(d, &fetch, apple_falls_back).is_empty_set()
            })
        };
        let bing_nocache = operator == "Microsoft" && nocache(self, &found);
        for (signal, at, d) in found {
            let name = name_of(&d).to_ascii_lowercase();
            let meaning = Meaning::of(
                &name,
                &d.kind,
                operator,
                signal,
                content_type.as_deref(),
                bing_nocache,
            );
            let Some(meaning) = meaning else { continue };
            let addressed = self.addressed(&d, &fetch, apple_falls_back);
            let mut e = TraceEntry::new(signal, at.clone())
                .raw(d.raw.clone())
                .rules(meaning.rules);
            if let Scope::Agent(n) = &d.scope {
                e = e.scope(n.clone());
            }
            if addressed.is_empty_set() {
                if let Scope::Agent(n) = &d.scope {
                    e = e.note(format!(
                        "addressed to {n}, not to this crawler's tokens ([D-3])"
                    ));
                }
                self.trace.push(e);
                continue;
            }
            for p in meaning.deny.iter().filter(|p| addressed.contains(*p)) {
                e.set(p, Effect::Deny);
            }
            if let Some(note) = meaning.note {
                e = e.note(note);
            }
            if let Some((condition, value, purposes, note)) = meaning.condition {
                let purposes: Vec<Purpose> =
                    purposes.iter().filter(|p| addressed.contains(*p)).collect();
                if !purposes.is_empty() {
                    self.conditions.push(Condition {
                        condition,
                        value,
                        signal,
                        at,
                        purposes,
                        note,
                    });
                }
            }
            self.trace.push(e);
        }
        for what in cut {
            let mut e = TraceEntry::new(
                if what == "X-Robots-Tag" {
                    Signal::XRobotsTag
                } else {
                    Signal::RobotsMeta
                },
                Where::default(),
            );
            e.error = Some(format!(
                "input cut: {what} went past its limit (robots_eval::meta::MAX_DIRECTIVES / HEAD_SCAN_LIMIT); the rest was not read"
            ));
            self.trace.push(e);
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
    fn addressed(&self, d: &meta::Directive, fetch: &str, apple_falls_back: bool) -> Purposes {
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
    fn operator_stance(&mut self) {
        if let Some(note) = self.row.and_then(|r| r.robots_txt) {
            self.conditions.push(Condition {
                condition: "robots-txt-may-not-apply",
                value: note.to_owned(),
                signal: Signal::RobotsTxt,
                at: Where::default(),
                purposes: PURPOSES.to_vec(),
                note: "the answer is the site's stated preference; the operator says its fetcher may not obey it (S-4)",
            });
        }
    }
}

trait EmptySet {
    fn is_empty_set(&self) -> bool;
}

impl EmptySet for Purposes {
    fn is_empty_set(&self) -> bool {
        *self == Purposes::NONE
    }
}

/// A directive's name: what is before its colon.
fn name_of(d: &meta::Directive) -> &str {
    d.raw.split(':').next().unwrap_or("").trim()
}

/// What a page directive means for AI use, for this crawler's operator.
struct Meaning {
    deny: Purposes,
    condition: Option<(&'static str, String, Purposes, &'static str)>,
    note: Option<String>,
    rules: &'static [&'static str],
}

impl Meaning {
    /// `None`: the directive has no AI meaning for anyone (it is not traced).
    fn of(
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
                note: Some(format!("{what}: no documented AI meaning for this crawler's operator; reported only ([S-13])")),
                ..m(Purposes::NONE, &["S-13"])
            })
        };
        match (name, kind) {
            ("noai", _) => Some(Meaning {
                note: Some("noai denies training only ([D-7])".to_owned()),
                ..m(Purposes::TRAIN, &["DeviantArt noai (2022)", "S-12"])
            }),
            ("noimageai", _) => {
                let image = content_type.map(|t| t.starts_with("image/"));
                match (signal, image) {
                    (Signal::XRobotsTag, Some(true)) => Some(m(Purposes::TRAIN, &["DeviantArt noimageai (2022)", "S-12"])),
                    (Signal::XRobotsTag, None) => Some(Meaning {
                        note: Some("no Content-Type: the response is not known to be an image, not applied ([D-8])".to_owned()),
                        ..m(Purposes::NONE, &["S-12", "D-8"])
                    }),
                    _ => Some(Meaning {
                        condition: Some((
                            "noimageai",
                            "embedded images: no training".to_owned(),
                            Purposes::TRAIN,
                            "noimageai on a page: its images are not for training; the page's own answer is unchanged (S-12)",
                        )),
                        ..m(Purposes::NONE, &["DeviantArt noimageai (2022)", "S-12"])
                    }),
                }
            }
            (_, DirectiveKind::NoIndex | DirectiveKind::None) => Some(if google {
                Meaning {
                    note: Some("AI Overviews and AI Mode need an indexed page (Google)".to_owned()),
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
                        note: Some(
                            "Google channel: AI Overviews and AI Mode (direct input)".to_owned(),
                        ),
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
                        condition: Some((
                            "max-snippet",
                            n.to_string(),
                            Purposes::INPUT,
                            "at most this many characters as direct input to AI Overviews and AI Mode (Google, S-13)",
                        )),
                        ..m(Purposes::NONE, &["Google robots meta", "S-13"])
                    })
                } else {
                    others(name)
                }
            }
            ("nocache", _) => {
                if operator == "Microsoft" {
                    Some(Meaning {
                        condition: Some((
                            "nocache",
                            "URL, title and snippet only".to_owned(),
                            Purposes::TRAIN.and(Purposes::INPUT),
                            "Bing: only the URL, title and snippet may be used in Copilot answers and training (S-13)",
                        )),
                        ..m(Purposes::NONE, &["Bing (Sep 2023)", "S-13"])
                    })
                } else {
                    others(name)
                }
            }
            ("noarchive", _) => match operator {
                "Microsoft" if bing_nocache => Some(Meaning {
                    note: Some("with nocache, Bing reads noarchive as nocache".to_owned()),
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

/// The governing tokens, per purpose (`tokens(C, P)`, §5.2, [S-5], [D-1], [D-2], [S-22]).
fn governing(
    row: Option<&'static Operator>,
    token: &str,
    purposes: Purposes,
    policy_tokens: &[&str],
) -> Vec<Governing> {
    let mut out: Vec<Governing> = Vec::new();
    let mut add = |token: &str, p: Purpose, dedicated: bool| match out
        .iter_mut()
        .find(|g| g.token.eq_ignore_ascii_case(token))
    {
        Some(g) => g.purposes = g.purposes.and(Purposes::of(&[p])),
        None => out.push(Governing {
            token: token.to_owned(),
            purposes: Purposes::of(&[p]),
            dedicated,
        }),
    };
    for p in PURPOSES {
        // 1. The crawler's own token, for the purposes it serves.
        if purposes.contains(p) {
            add(token, p, row.is_some_and(|r| r.dedicated));
        }
        if let Some(row) = row {
            let same = |o: &&Operator| o.operator == row.operator && o.purposes.contains(p);
            // 2. The operator's control tokens for P.
            for o in operators::OPERATORS
                .iter()
                .filter(same)
                .filter(|o| o.kind == Kind::Control)
            {
                add(o.token, p, o.dedicated);
            }
            // 3. When its own token does not serve P, the operator's crawlers that do (never a
            // user-triggered fetcher: [D-1]).
            if !purposes.contains(p) && row.kind != Kind::Control {
                for o in operators::OPERATORS
                    .iter()
                    .filter(same)
                    .filter(|o| o.kind == Kind::Crawler)
                {
                    add(o.token, p, o.dedicated);
                }
            }
        }
        // 4. Policy tokens for training ([S-22]); not dedicated: what their Allow means is
        // unconfirmed.
        if p == Purpose::Train {
            for t in policy_tokens {
                add(t, p, false);
            }
        }
    }
    out
}

/// The product token of an agent: its first run of letters, digits, `-` and `_`.
fn product_token(agent: &str) -> &str {
    let a = agent.trim_start();
    let end = a
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(a.len());
    a.get(..end).unwrap_or("")
}
