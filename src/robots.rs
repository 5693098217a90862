//! The parsed form of a robots.txt: groups, rules, other records and diagnostics, plus the
//! rule sets that queries run against. Built once by `parse`, read by `decide`; each rule set is
//! compiled by `compile` on first use.

use alloc::vec::Vec;
use core::ops::Range;

use crate::dialect::Dialect;
use crate::lint::Diagnostic;

/// Allow or Disallow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    Allow,
    Disallow,
}

impl RuleKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
        }
    }
}

/// One `Allow`/`Disallow` path pattern (a line of the Revisited format may hold several).
#[derive(Clone, Debug)]
pub struct Rule {
    /// 1-based line number.
    pub line: u32,
    pub kind: RuleKind,
    /// The group the rule belongs to (index into `Robots::groups`).
    pub group: u32,
    pub(crate) written: Range<u32>,
    pub(crate) pattern: Range<u32>,
}

/// One user-agent value of a group.
#[derive(Clone, Debug)]
pub struct Agent {
    pub line: u32,
    /// `*`: the group is for every crawler not named elsewhere.
    pub global: bool,
    pub(crate) written: Range<u32>,
    /// The product token as the dialect reads it, lower-cased (empty when there is none).
    pub(crate) token: Range<u32>,
}

/// A group (a "record" in the 1994/1996 texts): user-agent lines and the rules after them.
#[derive(Clone, Debug)]
pub struct Group {
    /// The line of the first user-agent line.
    pub line: u32,
    pub(crate) agents: Range<u32>,
    pub(crate) rules: Range<u32>,
    pub(crate) records: Vec<u32>,
}

/// What kind of "other record" (RFC 9309 §2.2.4) a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Sitemap,
    CrawlDelay,
    Host,
    CleanParam,
    RequestRate,
    VisitTime,
    ContentUsage,
    ContentSignal,
    RobotVersion,
    Comment,
    /// A field this library does not know; `Record::field` holds its name.
    Unknown,
}

impl RecordKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordKind::Sitemap => "sitemap",
            RecordKind::CrawlDelay => "crawl-delay",
            RecordKind::Host => "host",
            RecordKind::CleanParam => "clean-param",
            RecordKind::RequestRate => "request-rate",
            RecordKind::VisitTime => "visit-time",
            RecordKind::ContentUsage => "content-usage",
            RecordKind::ContentSignal => "content-signal",
            RecordKind::RobotVersion => "robot-version",
            RecordKind::Comment => "comment",
            RecordKind::Unknown => "unknown",
        }
    }
}

/// A line that is neither a user-agent line nor a rule: Sitemap, Crawl-delay, unknown fields...
#[derive(Clone, Debug)]
pub struct Record {
    pub line: u32,
    pub kind: RecordKind,
    /// The group the line stands in, if any (these lines never end a group in RFC 9309).
    pub group: Option<u32>,
    pub(crate) field: Range<u32>,
    pub(crate) value: Range<u32>,
}

/// A compiled entry of a rule set, in the order the dialect examines them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Index into `Robots::rules`.
    pub rule: u32,
    /// The normalised pattern, in `Robots::bytes`.
    pub start: u32,
    /// Also the priority of a longest-match dialect: the most specific match is the longest
    /// pattern (RFC 9309 §2.2.2).
    pub len: u32,
    pub allow: bool,
    /// An empty pattern: it matches everything but never disallows (RFC 9309 convention, Google).
    pub empty: bool,
    /// Position in the set's decision order (lower is examined first): the dialect's order in
    /// the high half, the position in file order in the low half.
    pub rank: u64,
    /// The pattern's second octet when its literal prefix is at least two octets long: only
    /// paths with that octet at index 1 can match (the key of the set's bucket index).
    pub key: Option<u8>,
    /// The pattern ends with an anchoring `$` (wildcard dialects).
    pub anchored: bool,
    /// The pattern has a `*` wildcard (wildcard dialects).
    pub star: bool,
}

/// The rules one crawler obeys: the groups that apply, whose rules are merged and sorted for
/// decision on the first query that needs them.
#[derive(Clone, Debug)]
pub(crate) struct RuleSet {
    pub groups: Range<u32>,
    pub compiled: Computed<crate::compile::CompiledSet>,
}

/// A value computed on first use and kept: what a crawler's queries never need is not paid for
/// at parse time. Shared across threads (`once_cell`'s lock-free `OnceBox`: threads racing for
/// the first use may each compute it, and one result is kept).
pub(crate) struct Computed<T>(once_cell::race::OnceBox<T>);

impl<T> Computed<T> {
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(|| alloc::boxed::Box::new(f()))
    }
}

impl<T> Default for Computed<T> {
    fn default() -> Self {
        Computed(once_cell::race::OnceBox::new())
    }
}

impl<T: Clone> Clone for Computed<T> {
    fn clone(&self) -> Self {
        let copy = Computed::default();
        if let Some(value) = self.0.get() {
            let _ = copy.0.set(alloc::boxed::Box::new(value.clone()));
        }
        copy
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Computed<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.get() {
            Some(value) => value.fmt(f),
            None => f.write_str("(not computed yet)"),
        }
    }
}

/// A product token and the rule set of the groups that name it.
#[derive(Clone, Debug)]
pub(crate) struct TokenEntry {
    pub token: Range<u32>,
    pub set: u32,
}

/// A parsed robots.txt. Build it with [`Robots::parse`]; query it with [`Robots::check`].
#[derive(Clone, Debug)]
pub struct Robots {
    pub(crate) dialect: Dialect,
    pub(crate) groups: Vec<Group>,
    pub(crate) agents: Vec<Agent>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) records: Vec<Record>,
    /// What the parser found while reading the lines (in the order found).
    pub(crate) found: Vec<Diagnostic>,
    /// `found` plus the findings about whole groups' rules (`lint::group_findings`), in line
    /// order: computed when first asked for, since a crawler never asks.
    pub(crate) diagnostics: Computed<Vec<Diagnostic>>,
    /// A copy of the file (after a byte order mark, UTF-16 transcoded), followed by what is
    /// not in it as such: normalised rule patterns, lower-cased product tokens, and lossy UTF-8
    /// of values that are not valid UTF-8. Values, patterns and tokens are ranges into it.
    pub(crate) bytes: Vec<u8>,
    /// google/robotstxt's `index.htm` leniency: (rule, the `/dir/$` pattern it also stands for,
    /// in `bytes`), in rule order.
    pub(crate) alternates: Vec<(u32, Range<u32>)>,
    pub(crate) sets: Vec<RuleSet>,
    /// Group indices of every rule set (`RuleSet::groups` ranges into it).
    pub(crate) set_groups: Vec<u32>,
    /// In order of first appearance (merging dialects) or in file order (first-record dialects).
    pub(crate) tokens: Vec<TokenEntry>,
    /// Open-addressing hash index over `tokens` (merging dialects): slot = token index + 1, 0 is
    /// empty; its length is a power of two at least twice the number of tokens.
    pub(crate) token_index: Vec<u32>,
    /// The rule set of the `*` group(s).
    pub(crate) global: Option<u32>,
    /// Bytes read (after the size cap) and the number of lines.
    pub(crate) bytes_read: usize,
    pub(crate) truncated: bool,
    pub(crate) lines: u32,
}

/// A group as the caller sees it.
#[derive(Clone, Copy, Debug)]
pub struct GroupView<'a> {
    robots: &'a Robots,
    index: u32,
    group: &'a Group,
}

impl<'a> GroupView<'a> {
    pub fn index(&self) -> u32 {
        self.index
    }
    /// The line of its first user-agent line.
    pub fn line(&self) -> u32 {
        self.group.line
    }
    /// The user-agent values as written, with their lines.
    pub fn agents(&self) -> impl Iterator<Item = (u32, &'a str)> + 'a {
        let robots = self.robots;
        robots.agents[span(&self.group.agents)]
            .iter()
            .map(move |a| (a.line, robots.str(&a.written)))
    }
    /// The rules of the group, in file order (indices into `Robots::rule`).
    pub fn rules(&self) -> Range<u32> {
        self.group.rules.clone()
    }
    /// Whether a user-agent line of the group is `*`.
    pub fn is_global(&self) -> bool {
        self.robots.agents[span(&self.group.agents)]
            .iter()
            .any(|a| a.global)
    }
    /// The other records (Crawl-delay, ...) written inside the group.
    pub fn records(&self) -> impl Iterator<Item = RecordView<'a>> + 'a {
        let robots = self.robots;
        self.group
            .records
            .iter()
            .filter_map(move |&i| robots.record(i))
    }
}

/// A rule as the caller sees it.
#[derive(Clone, Copy, Debug)]
pub struct RuleView<'a> {
    pub index: u32,
    pub line: u32,
    pub kind: RuleKind,
    pub group: u32,
    /// The path pattern as written.
    pub pattern: &'a str,
    /// The pattern after the dialect's normalisation (what is compared).
    pub normalized: &'a [u8],
}

/// A record as the caller sees it.
#[derive(Clone, Copy, Debug)]
pub struct RecordView<'a> {
    pub line: u32,
    pub kind: RecordKind,
    pub group: Option<u32>,
    /// The field name as written (`Crawl-delay`, `X-Custom`, ...).
    pub field: &'a str,
    pub value: &'a str,
}

pub(crate) fn span(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

impl Robots {
    /// Text as written: `parse` only makes text ranges over valid UTF-8.
    pub(crate) fn str(&self, r: &Range<u32>) -> &str {
        self.bytes
            .get(span(r))
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }

    pub(crate) fn token(&self, r: &Range<u32>) -> &[u8] {
        self.bytes.get(span(r)).unwrap_or_default()
    }

    /// The dialect the file was parsed with.
    pub fn dialect(&self) -> &Dialect {
        &self.dialect
    }

    /// Every group, in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = GroupView<'_>> + '_ {
        self.groups
            .iter()
            .enumerate()
            .map(move |(i, group)| GroupView {
                robots: self,
                index: i as u32,
                group,
            })
    }

    pub fn group(&self, index: u32) -> Option<GroupView<'_>> {
        self.groups.get(index as usize).map(|group| GroupView {
            robots: self,
            index,
            group,
        })
    }

    pub fn rule_count(&self) -> u32 {
        self.rules.len() as u32
    }

    pub fn rule(&self, index: u32) -> Option<RuleView<'_>> {
        let rule = self.rules.get(index as usize)?;
        Some(RuleView {
            index,
            line: rule.line,
            kind: rule.kind,
            group: rule.group,
            pattern: self.str(&rule.written),
            normalized: self.bytes.get(span(&rule.pattern)).unwrap_or_default(),
        })
    }

    pub(crate) fn record(&self, index: u32) -> Option<RecordView<'_>> {
        let r = self.records.get(index as usize)?;
        Some(RecordView {
            line: r.line,
            kind: r.kind,
            group: r.group,
            field: self.str(&r.field),
            value: self.str(&r.value),
        })
    }

    /// Every other record (Sitemap, Crawl-delay, Host, unknown fields, ...), in file order.
    pub fn records(&self) -> impl Iterator<Item = RecordView<'_>> + '_ {
        (0..self.records.len() as u32).filter_map(move |i| self.record(i))
    }

    /// The Sitemap URLs, wherever they stand in the file (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> + '_ {
        self.records()
            .filter(|r| r.kind == RecordKind::Sitemap)
            .map(|r| r.value)
    }

    /// What the parser noticed, in line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics
            .get_or_init(|| crate::lint::diagnostics(self))
    }

    /// Bytes read, after the size cap.
    pub fn bytes_read(&self) -> usize {
        self.bytes_read
    }

    /// Whether the input was longer than the size cap (the rest was ignored).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The number of lines read.
    pub fn line_count(&self) -> u32 {
        self.lines
    }
}
