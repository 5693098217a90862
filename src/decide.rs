//! Floor 5: queries, as an `impl Robots` block (`check`, `is_allowed`, `select`, ...): which
//! groups apply to a crawler, and which rule decides a URL — with the reason.
//!
//! A query reads only the compiled rule sets (each compiled on the first query that needs it): no
//! re-parse, and no allocation unless the URL's path must be percent-normalised (it contains `%`,
//! non-ASCII, or for rfc9309 a literal `*`/`$`).

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::num::NonZeroUsize;

use crate::agent::{self, cmp_lower, lower_into, MAX_AGENT_BYTES};
use crate::compile::{compile, CompiledSet};
use crate::dialect::{AgentMatch, PercentEncoding, Precedence};
use crate::model::{span, Agent, Entry, RecordKind};
use crate::pattern::{normalize, Compiled, Side, Subject};
use crate::robots::{GroupView, Robots, RuleView};
use crate::url;
use crate::value::{parse_request_rate, parse_seconds, RequestRate};

/// A URL as one file's dialect matches it (from [`Robots::path`]): the path (and query, where
/// the dialect matches it), normalised, with what the rule filters need to know of it.
#[derive(Clone, Debug)]
pub struct Path<'u> {
    /// Borrowed from the URL (the common case: no allocation), or normalised. Matched as
    /// octets, so a path read from the URL's octets (`Robots::ascii_path`) is never validated
    /// as UTF-8.
    text: Cow<'u, [u8]>,
    /// Its octet set (`CompiledSet::filters`).
    mask: u64,
    /// It is `/robots.txt` (with any query), which the dialect always allows.
    robots_txt: bool,
}

impl Path<'_> {
    /// The path as matched, after normalisation.
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }
}

/// A path being decided, and what is known of it.
struct Query<'p> {
    path: Subject<'p>,
    /// The path's octet set and pair set (`CompiledSet::filters`; every pair when too few
    /// entries are scanned for the pair filter to pay).
    octets: u64,
    pairs: u64,
}

/// The number of entries to scan from which a query computes the path's pair set (`decide`).
const PAIR_FILTER_FROM: usize = 16;

/// Entries tested at a time by `first_match`: small enough that a match early in a list ends
/// the scan early, large enough to spread the cost of each step.
const CHUNK: usize = 16;
const _: () = assert!(
    CHUNK <= 64,
    "first_match keeps a chunk's candidates in a u64"
);

/// Which groups a crawler obeys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// No group names the crawler and there is no `*` group: no rules apply.
    None,
    /// The groups that name the crawler (merged, or the first one, per dialect).
    Specific(u32),
    /// The `*` group(s).
    Global(u32),
}

/// Why a verdict is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `/robots.txt` itself is always allowed (RFC 9309 §2.2.2, 1996 draft §3.2.2).
    RobotsTxt,
    /// A rule matched and decided.
    Rule,
    /// Only an empty rule matched; empty rules have no effect.
    EmptyRule,
    /// A group applies, but none of its rules matches the URL.
    NoMatch,
    /// No group applies to this crawler (none names it and there is no `*` group).
    NoGroup,
}

impl Reason {
    /// A stable kebab-case code.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::RobotsTxt => "robots-txt",
            Reason::Rule => "rule",
            Reason::EmptyRule => "empty-rule",
            Reason::NoMatch => "no-match",
            Reason::NoGroup => "no-group",
        }
    }

    /// The reason in a few words, as both commands and the playground print it beside a verdict.
    pub const fn words(self) -> &'static str {
        match self {
            Reason::RobotsTxt => "/robots.txt is always allowed",
            Reason::Rule => "a rule decides",
            Reason::EmptyRule => "only an empty rule matched",
            Reason::NoMatch => "no rule matches",
            Reason::NoGroup => "no group applies",
        }
    }
}

/// What selected a crawler's groups (`Robots::selected_by`), as its dialect compares agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectedBy<'a> {
    /// The agent as given equals the groups' product token, ignoring case (RFC 9309 §2.2.1;
    /// Google compares the whole string).
    Token(&'a str),
    /// A word of a full User-Agent header, the longest that names a group (RFC 9309).
    HeaderWord(&'a str),
    /// The first record's User-agent value, as written, that names the caller by the dialect's
    /// substring test (1996 draft, 1994, Revisited).
    Record(&'a str),
    /// No group names the crawler: the `*` group(s).
    Global,
    /// No group applies.
    None,
}

impl<'a> SelectedBy<'a> {
    /// A stable kebab-case code.
    pub const fn as_str(self) -> &'static str {
        match self {
            SelectedBy::Token(_) => "token",
            SelectedBy::HeaderWord(_) => "header-word",
            SelectedBy::Record(_) => "record",
            SelectedBy::Global => "global",
            SelectedBy::None => "none",
        }
    }

    /// The token that named the groups (`*` for the global groups, empty for none).
    pub const fn token(self) -> &'a str {
        match self {
            SelectedBy::Token(t) | SelectedBy::HeaderWord(t) | SelectedBy::Record(t) => t,
            SelectedBy::Global => "*",
            SelectedBy::None => "",
        }
    }
}

/// The answer to "may this crawler fetch this URL?", and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub allowed: bool,
    pub reason: Reason,
    /// The deciding rule (index for [`Robots::rule`]); for `EmptyRule` the empty rule matched.
    pub rule: Option<u32>,
    pub selection: Selection,
}

impl Robots {
    /// May `agent` fetch `url`? `url` is absolute or a path; `agent` is a product token or a
    /// full User-Agent header (see the `agent` module for how each dialect reads it).
    pub fn check(&self, url: &str, agent: &str) -> Verdict {
        self.check_selection(url, self.select(agent.as_bytes()))
    }

    /// `check` for a crawler whose groups are already known (from [`Robots::selection`]).
    pub(crate) fn check_selection(&self, url: &str, selection: Selection) -> Verdict {
        self.check_path(&self.path(url), selection)
    }

    /// [`Robots::path`] for the common case of a crawler's queue, read from the URL's octets:
    /// an ASCII URL, full or a path, whose path every dialect reads alike (`url::path_start`)
    /// and none normalises. `None` for any other URL, which `path` reads as text. (One pass
    /// over the path, with no UTF-8 validation of the URL: in WebAssembly, validating a
    /// query's URL as text cost a sixth of the query.)
    #[inline]
    pub(crate) fn ascii_path<'u>(&self, url: &'u [u8]) -> Option<Path<'u>> {
        self.ascii_path_at(url, None)
    }

    /// [`Robots::ascii_path`], told where the path starts (as `url::path_start` finds it) by a
    /// caller that knows without the search: a URL that is a site `url::path_starts_after`
    /// accepts, followed by `/`; `None`: search. (`Option<NonZeroUsize>` is one number: in
    /// WebAssembly, an `Option<usize>` the caller worked out cost the hot path some 40
    /// instructions a query. A path, which starts at 0, needs no search.)
    #[inline(never)]
    pub(crate) fn ascii_path_at<'u>(
        &self,
        url: &'u [u8],
        start: Option<NonZeroUsize>,
    ) -> Option<Path<'u>> {
        // Every dialect matches the path up to its fragment (or a NUL), as it is unless it has
        // octets the dialect normalises.
        if !self.dialect.match_query {
            return None;
        }
        let start = match start {
            None => url::path_start(url)?,
            Some(start) => start.get(),
        };
        let rest = url.get(start..)?;
        let (end, mask, classes) = crate::pattern::scan_path(rest);
        let (raw, after) = rest.split_at_checked(end)?;
        if classes & crate::pattern::URL_NON_ASCII != 0 || self.normalises(classes) {
            return None;
        }
        // (`path_start` leaves no other octet over 0x7F before the path.)
        after.is_ascii().then(|| Path {
            robots_txt: self.is_robots_txt(raw),
            text: Cow::Borrowed(raw),
            mask,
        })
    }

    /// Whether the dialect normalises some octet of a path with these classes (`scan_path`).
    fn normalises(&self, classes: u8) -> bool {
        match self.dialect.percent {
            PercentEncoding::Rfc9309 => classes & crate::pattern::URL_RFC_SPECIAL != 0,
            PercentEncoding::DecodeExceptSlash => classes & crate::pattern::URL_PERCENT != 0,
            PercentEncoding::Google | PercentEncoding::None => false,
        }
    }

    /// Reads `url` once as this file's dialect matches it, for several crawlers: a decision
    /// table's row is read once, then [`Robots::check_path`] answers each column.
    pub fn path<'u>(&self, url: &'u str) -> Path<'u> {
        self.ascii_path(url.as_bytes())
            .unwrap_or_else(|| self.text_path(url))
    }

    /// `path` for any URL: each dialect's own reading (`url::matched_part`), normalised. For a
    /// caller that has already tried [`Robots::ascii_path`] and got `None`.
    pub(crate) fn text_path<'u>(&self, url: &'u str) -> Path<'u> {
        let d = &self.dialect;
        let (raw, add_slash) = url::matched_part(url, d.percent);
        let raw = if d.match_query {
            raw
        } else {
            url::without_query(raw)
        };
        // Borrowed from the URL in the common case; normalised into a buffer when it must be
        // (`%`, non-ASCII, ...).
        let (_, mask, classes) = crate::pattern::scan_path(raw.as_bytes());
        let (text, mask) = if !add_slash && !self.normalises(classes) {
            (Cow::Borrowed(raw.as_bytes()), mask)
        } else {
            let mut buf = Vec::with_capacity(raw.len() + 8);
            if add_slash {
                buf.push(b'/');
            }
            normalize(raw.as_bytes(), d.percent, Side::Url, &mut buf);
            let mask = crate::pattern::octets(&buf);
            (Cow::Owned(buf), mask)
        };
        Path {
            robots_txt: self.is_robots_txt(&text),
            text,
            mask,
        }
    }

    /// `/robots.txt` itself (with any query), which the dialect may always allow.
    #[inline]
    fn is_robots_txt(&self, path: &[u8]) -> bool {
        self.dialect.robots_txt_allowed
            && path.starts_with(b"/robots.txt")
            && path_only(path) == b"/robots.txt"
    }

    /// `check` for a URL read by [`Robots::path`] and a crawler's [`Selection`].
    pub fn check_path(&self, path: &Path<'_>, selection: Selection) -> Verdict {
        let d = &self.dialect;
        let set = match selection {
            Selection::None => None,
            Selection::Specific(s) | Selection::Global(s) => Some(s),
        };
        if path.robots_txt {
            return Verdict {
                allowed: true,
                reason: Reason::RobotsTxt,
                rule: None,
                selection,
            };
        }
        let Some(set) = set else {
            return Verdict {
                allowed: true,
                reason: Reason::NoGroup,
                rule: None,
                selection,
            };
        };
        match self.decide(set, Subject::new(&path.text), path.mask) {
            Some(e) if e.empty && d.precedence == Precedence::LongestMatch => Verdict {
                allowed: true,
                reason: Reason::EmptyRule,
                rule: Some(e.rule),
                selection,
            },
            Some(e) => Verdict {
                allowed: e.allow,
                reason: Reason::Rule,
                rule: Some(e.rule),
                selection,
            },
            None => Verdict {
                allowed: true,
                reason: Reason::NoMatch,
                rule: None,
                selection,
            },
        }
    }

    /// `check(url, agent).allowed`.
    pub fn is_allowed(&self, url: &str, agent: &str) -> bool {
        self.check(url, agent).allowed
    }

    /// The first entry of the rule set, in decision order, that matches. Only the set's unkeyed
    /// entries and the bucket of the path's second octet can match. Each list is in decision
    /// order, so the answer is the lower-ranked of the two lists' first matches: the (short)
    /// bucket is searched first, and its match bounds the search of the unkeyed entries.
    fn decide(&self, set: u32, path: Subject<'_>, mask: u64) -> Option<&Entry> {
        let set = self.sets.get(set as usize)?;
        let c = set.compiled.get_or_init(|| {
            let groups = self.set_groups.get(span(&set.groups)).unwrap_or_default();
            compile(&self.model(), groups)
        });
        let keyed = match path.bytes.get(1) {
            Some(&key) => match c.buckets.binary_search_by_key(&key, |b| b.key) {
                Ok(i) => span(&c.buckets[i].entries),
                Err(_) => 0..0,
            },
            None => 0..0,
        };
        // The pair filter costs a pass over the path: worth it when many entries are to be
        // scanned; with few, the ones it would have skipped are matched instead.
        let pairs = if keyed.len() + c.wild_end as usize > PAIR_FILTER_FROM {
            crate::pattern::pairs(path.bytes)
        } else {
            u64::MAX
        };
        let query = Query {
            path,
            octets: mask,
            pairs,
        };
        let keyed = self.first_match(c, keyed, u64::MAX, &query);
        let limit = keyed.map_or(u64::MAX, |e| e.rank);
        self.first_match(c, 0..c.wild_end as usize, limit, &query)
            .or(keyed)
    }

    /// The first entry of `range` (a list in decision order) ranked below `limit` that matches.
    fn first_match<'s>(
        &'s self,
        c: &'s CompiledSet,
        range: core::ops::Range<usize>,
        limit: u64,
        q: &Query<'_>,
    ) -> Option<&'s Entry> {
        // Most paths have no bucket: the rest costs WebAssembly some 40 instructions even so.
        if range.is_empty() {
            return None;
        }
        let d = &self.dialect;
        let first_match = d.precedence == Precedence::FirstMatch;
        let filters = c.filters.get(range.clone()).unwrap_or_default();
        let entries = c.entries.get(range).unwrap_or_default();
        for (chunk, filters) in filters.chunks(CHUNK).enumerate() {
            // The entries whose octets and adjacent pairs the path has, `CHUNK` at a time and
            // without a branch per entry (which entries pass is unpredictable): few do.
            let mut candidates = 0u64;
            for (k, &(octets, pairs)) in filters.iter().enumerate() {
                let lacks = (octets & !q.octets) | (pairs & !q.pairs);
                candidates |= u64::from(lacks == 0) << k;
            }
            while candidates != 0 {
                let e = entries.get(chunk * CHUNK + candidates.trailing_zeros() as usize)?;
                candidates &= candidates - 1;
                if e.rank >= limit {
                    return None;
                }
                if e.empty {
                    // Empty rules have no effect, except an empty Allow in the 1996 draft,
                    // which matches everything (seed 002's prefix table). In longest-match
                    // dialects they sort last and are reported when nothing else matched (as
                    // the reference library reports their line).
                    if !first_match || (e.allow && d.empty_allow_matches_all) {
                        return Some(e);
                    }
                    continue;
                }
                let pattern = self
                    .bytes
                    .get(e.start as usize..(e.start + e.len) as usize)
                    .unwrap_or_default();
                let compiled = Compiled {
                    body: pattern
                        .get(..pattern.len() - usize::from(e.anchored))
                        .unwrap_or_default(),
                    anchored: e.anchored,
                    star: e.star,
                };
                if compiled.matches(&q.path) {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Which groups `agent` obeys.
    pub fn selection(&self, agent: &str) -> Selection {
        self.select(agent.as_bytes())
    }

    fn select(&self, agent: &[u8]) -> Selection {
        self.select_entry(agent).0
    }

    /// Which groups `agent` obeys, and the entry of `tokens` that named them (none for `*`).
    fn select_entry(&self, agent: &[u8]) -> (Selection, Option<usize>) {
        let entry = match self.dialect.agent_match {
            // The empty agent obeys only the `*` group (pkg/README.md): a group whose value
            // reads as no token (`User-agent:` empty, `008`, `/` or `*bot` in Google's reading)
            // names no crawler, and the empty string is no crawler's name.
            AgentMatch::GoogleWhole | AgentMatch::Token if agent.is_empty() => None,
            // A product token as given is found at once (tokens hold no header separators, so
            // an agent that equals one is not a header).
            AgentMatch::GoogleWhole | AgentMatch::Token => match self.lookup(agent) {
                None if self.dialect.agent_match == AgentMatch::Token
                    && agent::is_header(agent) =>
                {
                    self.header_entry(agent)
                }
                entry => entry,
            },
            AgentMatch::ValueContainsName | AgentMatch::NameContainsValue => {
                self.substring_entry(agent)
            }
        };
        let selection = match (entry.and_then(|i| self.tokens.get(i)), self.global) {
            (Some(t), _) => Selection::Specific(t.set),
            (None, Some(set)) => Selection::Global(set),
            (None, None) => Selection::None,
        };
        (selection, entry)
    }

    /// What selected the groups `agent` obeys: the agent itself, the word of its header, or the
    /// record value that named it (cold: for explanations).
    pub fn selected_by<'s>(&'s self, agent: &'s str) -> SelectedBy<'s> {
        let bytes = agent.as_bytes();
        let (selection, entry) = self.select_entry(bytes);
        let Some(named) = entry.and_then(|e| self.tokens.get(e)) else {
            return match selection {
                Selection::None => SelectedBy::None,
                _ => SelectedBy::Global,
            };
        };
        let named = self.token(&named.token);
        match self.dialect.agent_match {
            AgentMatch::GoogleWhole | AgentMatch::Token if cmp_lower(named, bytes).is_eq() => {
                SelectedBy::Token(agent)
            }
            // `header_entry`'s word: the first of the longest that names this entry's groups.
            AgentMatch::GoogleWhole | AgentMatch::Token => agent::header_words(bytes)
                .filter(|w| cmp_lower(named, w).is_eq())
                .find_map(|w| core::str::from_utf8(w).ok())
                .map_or(SelectedBy::Token(agent), SelectedBy::HeaderWord),
            AgentMatch::ValueContainsName | AgentMatch::NameContainsValue => self
                .selected_groups(selection)
                .flat_map(|g| g.agent_entries())
                .find(|a| !a.global && self.token(&a.token) == named)
                .map_or(SelectedBy::Global, |a| {
                    SelectedBy::Record(self.str(&a.written))
                }),
        }
    }

    /// The entry of the longest word of a User-Agent header that names a group (the most
    /// specific). Out of line, as `substring_entry`: compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn header_entry(&self, agent: &[u8]) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for word in agent::header_words(agent) {
            if best.is_some_and(|(len, _)| len >= word.len()) {
                continue;
            }
            if let Some(entry) = self.lookup(word) {
                best = Some((word.len(), entry));
            }
        }
        best.map(|(_, entry)| entry)
    }

    /// The entry of the first token that names the caller, in the substring dialects.
    #[cold]
    #[inline(never)]
    fn substring_entry(&self, agent: &[u8]) -> Option<usize> {
        let mut buf = [0u8; MAX_AGENT_BYTES];
        let caller = self.caller_key(agent, &mut buf);
        self.tokens
            .iter()
            .position(|t| self.names_caller(self.token(&t.token), caller))
    }

    /// The caller's agent as the substring dialects compare it, lower-cased into `buf`: its
    /// robot name (draft1996) or the whole of it (original1994, revisited).
    fn caller_key<'b>(&self, agent: &[u8], buf: &'b mut [u8; MAX_AGENT_BYTES]) -> &'b [u8] {
        match self.dialect.agent_match {
            AgentMatch::ValueContainsName => lower_into(agent::robot_name(agent), buf),
            _ => lower_into(agent, buf),
        }
    }

    /// In the substring dialects, whether a group's agent (`token`: its value, lower-cased)
    /// names the caller (`caller_key`).
    fn names_caller(&self, token: &[u8], caller: &[u8]) -> bool {
        match self.dialect.agent_match {
            AgentMatch::ValueContainsName => !caller.is_empty() && contains(token, caller),
            _ => !token.is_empty() && contains(caller, token),
        }
    }

    /// The entry of `tokens` of a product token, ignoring the caller's ASCII case: one hash
    /// probe sequence in the token index (stored tokens are lower-case).
    pub(crate) fn lookup(&self, token: &[u8]) -> Option<usize> {
        let mask = self.token_index.len().checked_sub(1)?;
        let mut slot = agent::hash_lower(token) as usize & mask;
        loop {
            let i = (*self.token_index.get(slot)?).checked_sub(1)? as usize;
            if cmp_lower(self.token(&self.tokens.get(i)?.token), token).is_eq() {
                return Some(i);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The groups a selection stands for, in file order.
    pub fn selected_groups(
        &self,
        selection: Selection,
    ) -> impl Iterator<Item = GroupView<'_>> + '_ {
        let range = match selection {
            Selection::None => 0..0,
            Selection::Specific(s) | Selection::Global(s) => self
                .sets
                .get(s as usize)
                .map(|set| span(&set.groups))
                .unwrap_or(0..0),
        };
        self.set_groups
            .get(range)
            .unwrap_or_default()
            .iter()
            .filter_map(move |&g| self.group(g))
    }

    /// The deciding rule of a verdict, if any.
    pub fn deciding_rule(&self, verdict: &Verdict) -> Option<RuleView<'_>> {
        verdict.rule.and_then(|r| self.rule(r))
    }

    /// The line of the deciding rule, 0 when no rule decided (as google/robotstxt's
    /// `matching_line`, which also reports a matching empty rule).
    pub fn line_of(&self, verdict: &Verdict) -> u32 {
        self.deciding_rule(verdict).map_or(0, |r| r.line)
    }

    /// Of the product tokens a crawler answers to, most specific first (`["Googlebot-News",
    /// "Googlebot"]`), the one whose groups it obeys: the first that has a group of its own, else
    /// the first (whose `*` groups apply, if any). `None` for no tokens. See docs/records.md.
    pub fn pick_agent_index(&self, agents: &[&str]) -> Option<usize> {
        let specific = |a: &&str| matches!(self.select(a.as_bytes()), Selection::Specific(_));
        (!agents.is_empty()).then(|| agents.iter().position(specific).unwrap_or(0))
    }

    /// The token [`Robots::pick_agent_index`] picks (`""`, no token, for an empty list), to ask
    /// any question with.
    ///
    /// ```
    /// use robots_eval::Robots;
    /// let robots = Robots::parse(b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot-News\nDisallow: /b\n");
    /// let news = robots.pick_agent(&["Googlebot-News", "Googlebot"]);
    /// assert!(news == "Googlebot-News" && robots.is_allowed("/a", news));
    /// let image = robots.pick_agent(&["Googlebot-Image", "Googlebot"]);
    /// assert!(image == "Googlebot" && !robots.is_allowed("/a", image));
    /// ```
    pub fn pick_agent<'a>(&self, agents: &[&'a str]) -> &'a str {
        self.pick_agent_index(agents)
            .and_then(|i| agents.get(i).copied())
            .unwrap_or("")
    }

    /// Whether a group naming `agent` itself (not `*`) disallows `url`: "blocked for me", not
    /// "blocked for everyone" (robots-parser's `isExplicitlyDisallowed`).
    pub fn is_explicitly_disallowed(&self, url: &str, agent: &str) -> bool {
        let v = self.check(url, agent);
        !v.allowed && matches!(v.selection, Selection::Specific(_))
    }

    /// The Crawl-delay, in seconds, for `agent`: the last valid one of the Crawl-delay lines in
    /// the groups it obeys that stand under a run of user-agent lines naming it (its `*` lines
    /// when it has no group of its own). See docs/records.md. Not part of RFC 9309; Bing honours
    /// it.
    ///
    /// ```
    /// use robots_eval::Robots;
    /// let robots = Robots::parse(b"User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /d\n");
    /// assert_eq!(robots.crawl_delay("a"), Some(5.0));
    /// assert_eq!(robots.crawl_delay("b"), None); // the delay is a's, the Disallow both's
    /// assert!(!robots.is_allowed("/d", "a"));
    /// ```
    pub fn crawl_delay(&self, agent: &str) -> Option<f64> {
        parse_seconds(self.agent_record(agent, RecordKind::CrawlDelay)?)
    }

    /// The Request-rate for `agent`, chosen as its Crawl-delay is (docs/records.md).
    pub fn request_rate(&self, agent: &str) -> Option<RequestRate> {
        parse_request_rate(self.agent_record(agent, RecordKind::RequestRate)?)
    }

    /// The value of the last valid `kind` record that applies to `agent`: in the groups it obeys
    /// (in file order), under a run of user-agent lines that names it.
    fn agent_record(&self, agent: &str, kind: RecordKind) -> Option<&[u8]> {
        let agent = agent.as_bytes();
        let (selection, entry) = self.select_entry(agent);
        // How a run's agent names the caller: equal tokens where groups merge, the dialect's
        // substring test elsewhere.
        let merging = matches!(
            self.dialect.agent_match,
            AgentMatch::Token | AgentMatch::GoogleWhole
        );
        let mut buf = [0u8; MAX_AGENT_BYTES];
        let caller = match entry.and_then(|e| self.tokens.get(e)) {
            Some(t) if merging => self.token(&t.token),
            _ => self.caller_key(agent, &mut buf),
        };
        let names = |a: &Agent| match selection {
            Selection::Global(_) => a.global,
            Selection::Specific(_) if merging => !a.global && self.token(&a.token) == caller,
            Selection::Specific(_) => !a.global && self.names_caller(self.token(&a.token), caller),
            Selection::None => false,
        };
        let set = match selection {
            Selection::Specific(s) | Selection::Global(s) => self.sets.get(s as usize),
            Selection::None => None,
        };
        let groups = set.map_or(&[][..], |set| {
            self.set_groups.get(span(&set.groups)).unwrap_or_default()
        });
        let mut found = None;
        // The run of the last record read, and whether it names the caller: consecutive records
        // of one run are asked once.
        let mut run = (0..0, false);
        for &g in groups {
            for record in self
                .group_records(g)
                .filter_map(|i| self.records.get(i as usize))
            {
                let value = self.token(&record.value);
                if record.kind != kind || !is_valid(kind, value) {
                    continue;
                }
                if run.0 != record.agents {
                    let agents = self.agents.get(span(&record.agents)).unwrap_or_default();
                    run = (record.agents.clone(), agents.iter().any(names));
                }
                if run.1 {
                    found = Some(value);
                }
            }
        }
        found
    }
}

/// Whether a Crawl-delay or Request-rate value can be read (other records always can).
pub(crate) fn is_valid(kind: RecordKind, value: &[u8]) -> bool {
    match kind {
        RecordKind::CrawlDelay => parse_seconds(value).is_some(),
        RecordKind::RequestRate => parse_request_rate(value).is_some(),
        _ => true,
    }
}

/// Whether `needle` occurs in `haystack` (both already lower-case), in linear time.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    crate::pattern::find(&Subject::new(haystack), 0, needle).is_some()
}

/// The path without its query, for the `/robots.txt` test.
fn path_only(path: &[u8]) -> &[u8] {
    let end = path.iter().position(|&b| b == b'?').unwrap_or(path.len());
    &path[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DialectId, Options};

    /// What a `Path` is to the matcher, for comparing two readings of a URL.
    fn reading(p: &Path<'_>) -> (Vec<u8>, u64, bool) {
        (p.as_bytes().to_vec(), p.mask, p.robots_txt)
    }

    /// Wherever `ascii_path` answers, it reads the URL as the dialect's own reading does; it
    /// answers for ASCII URLs only (so bytes that are not UTF-8 never reach a `Path` as text).
    #[test]
    fn ascii_path_agrees_with_the_text_reading() {
        let urls: [&[u8]; 16] = [
            b"/",
            b"/a/b?c=d",
            b"/robots.txt?x",
            b"https://example.com/robots.txt",
            b"https://example.com/a.css#frag",
            b"http://h/a%2Fb*c$ d",
            b"ftp://u@h:21/x;y?z",
            b"/a\0b",
            b"https://h/\xc3\xa9",
            b"https://h\xc3\xa9/a",
            b"https://h/a#\xc3\xa9",
            b"https://h/a#\xff",
            b"https://h/a\0\xff",
            b"//h/a",
            b"http://h?x/",
            b"a/b",
        ];
        for dialect in DialectId::ALL {
            let r =
                Robots::parse_with(b"User-agent: *\nDisallow: /a\n", &Options::dialect(dialect));
            for url in urls {
                let ascii = r.ascii_path(url);
                if let Some(p) = &ascii {
                    let text = r.text_path(core::str::from_utf8(url).unwrap());
                    assert_eq!(reading(p), reading(&text), "{dialect:?} {url:?}");
                }
                let plain = url
                    .iter()
                    .all(|&b| b.is_ascii() && b != b'%' && b != b'*' && b != b'$' && b > b' ');
                if !url.is_ascii() {
                    assert!(ascii.is_none(), "{dialect:?} {url:?}");
                }
                if plain && url.starts_with(b"https://") && dialect == DialectId::Rfc9309 {
                    assert!(ascii.is_some(), "{url:?}");
                }
            }
        }
    }

    /// A URL made of a site that `url::path_starts_after` accepts and a path reads from the
    /// site's end as `ascii_path` reads it.
    #[test]
    fn ascii_path_from_a_site_agrees() {
        let sites: [&[u8]; 4] = [
            b"https://example.com",
            b"http://h:8080",
            b"http://[::1]",
            b"https://a;b.example",
        ];
        let paths: [&[u8]; 7] = [
            b"/",
            b"/a/b?c=d",
            b"/robots.txt",
            b"/a%2Fb",
            b"/\xc3\xa9",
            b"/a#f",
            b"/a\0b",
        ];
        for dialect in DialectId::ALL {
            let r =
                Robots::parse_with(b"User-agent: *\nDisallow: /a\n", &Options::dialect(dialect));
            for site in sites {
                for path in paths {
                    let url = [site, path].concat();
                    if crate::url::path_starts_after(site) {
                        let from = r.ascii_path_at(&url, NonZeroUsize::new(site.len()));
                        let search = r.ascii_path(&url);
                        assert_eq!(
                            from.as_ref().map(reading),
                            search.as_ref().map(reading),
                            "{dialect:?} {url:?}"
                        );
                    } else {
                        assert_eq!(site, b"https://a;b.example");
                    }
                }
            }
        }
    }
}
