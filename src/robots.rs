//! Floor 4: the facade. The `Robots` struct holds the parsed model (`model`), the rule sets that
//! queries run against (each compiled by `compile` on first use and kept) and the diagnostics
//! (made by `lint` when first asked for); its views (`GroupView`, `RuleView`, `RecordView`)
//! are what callers see. Its methods live on the floor of what they need: building it in
//! `parse`, queries in `decide`, `diagnostics` in `lint`; here only the accessors of the data.

use alloc::vec::Vec;
use core::ops::Range;

use crate::compile::{CompiledSet, Model};
use crate::computed::Computed;
use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::model::{span, Agent, Group, Record, RecordKind, Rule, RuleKind, SignalLine, UsageRule};
use crate::value::is_valid_host;

/// The rules one crawler obeys: the groups that apply, whose rules are merged and sorted for
/// decision on the first query that needs them.
#[derive(Clone, Debug)]
pub(crate) struct RuleSet {
    pub groups: Range<u32>,
    pub compiled: Computed<CompiledSet>,
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
    /// Content-Usage rules and Content-Signal lines in groups, in file order (also kept as
    /// records): what AI-preference queries read.
    pub(crate) usage: Vec<UsageRule>,
    pub(crate) signals: Vec<SignalLine>,
    /// What the parser found while reading the lines (in the order found).
    pub(crate) found: Vec<Diagnostic>,
    /// `found` plus the findings about whole groups' rules (`lint::group_findings`), in line
    /// order: computed when first asked for, since a crawler never asks.
    pub(crate) diagnostics: Computed<Vec<Diagnostic>>,
    /// A copy of the file (after a byte order mark, UTF-16 transcoded), followed by what is
    /// not in it as such: normalised rule patterns, lower-cased product tokens, and lossy UTF-8
    /// of values that are not valid UTF-8. Values, patterns and tokens are ranges into it.
    pub(crate) bytes: Vec<u8>,
    /// How many of `bytes` are the copy of the file (each line's text, for a renderer).
    pub(crate) text_len: u32,
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
    /// The parser's working arrays, empty (`model::Scratch`).
    pub(crate) scratch: crate::model::Scratch,
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
    /// Its user-agent lines as parsed.
    pub(crate) fn agent_entries(&self) -> &'a [Agent] {
        &self.robots.agents[span(&self.group.agents)]
    }
    /// The rules of the group, in file order (indices into `Robots::rule`).
    pub fn rules(&self) -> Range<u32> {
        self.group.rules.clone()
    }
    /// Its last line: of its last user-agent line, rule or other record (Content-Usage and
    /// Content-Signal lines are records). With `line`, the span a renderer highlights; blank and
    /// comment lines after it belong to no group.
    pub fn last_line(&self) -> u32 {
        let robots = self.robots;
        let agents = robots.agents[span(&self.group.agents)]
            .iter()
            .map(|a| a.line);
        let rules = robots.rules[span(&self.group.rules)].iter().map(|r| r.line);
        let records = robots
            .group_records(self.index)
            .filter_map(|i| robots.records.get(i as usize))
            .map(|r| r.line);
        agents
            .chain(rules)
            .chain(records)
            .fold(self.group.line, u32::max)
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
        robots
            .group_records(self.index)
            .filter_map(move |i| robots.record(i))
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
    robots: &'a Robots,
    /// The run of user-agent lines it applies to (`Record::agents`).
    pub(crate) run: &'a [Agent],
}

impl<'a> RecordView<'a> {
    /// The user-agent values, as written, of the run of user-agent lines directly above it in its
    /// group, which it applies to (docs/records.md); none outside any group.
    pub fn agents(&self) -> impl Iterator<Item = &'a str> + 'a {
        let robots = self.robots;
        self.run.iter().map(move |a| robots.str(&a.written))
    }
}

impl Robots {
    /// The parsed data a rule set is compiled from.
    pub(crate) fn model(&self) -> Model<'_> {
        Model {
            dialect: &self.dialect,
            groups: &self.groups,
            rules: &self.rules,
            bytes: &self.bytes,
            alternates: &self.alternates,
        }
    }

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

    /// The indices of group `g`'s other records, in file order (see `Group::records`).
    pub(crate) fn group_records(&self, g: u32) -> impl Iterator<Item = u32> + '_ {
        let span = self
            .groups
            .get(g as usize)
            .map_or(0..0, |group| group.records.clone());
        span.filter(move |&i| {
            self.records
                .get(i as usize)
                .is_some_and(|r| r.group == Some(g))
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
            robots: self,
            run: self.agents.get(span(&r.agents)).unwrap_or_default(),
        })
    }

    /// Every other record (Sitemap, Crawl-delay, Host, unknown fields, ...), in file order.
    pub fn records(&self) -> impl Iterator<Item = RecordView<'_>> + '_ {
        (0..self.records.len() as u32).filter_map(move |i| self.record(i))
    }

    /// Yandex's Host: the first valid Host line anywhere in the file, as written
    /// (docs/records.md).
    pub fn host(&self) -> Option<&str> {
        let host = self.records.iter().filter(|r| r.kind == RecordKind::Host);
        host.map(|r| self.str(&r.value))
            .find(|v| is_valid_host(v.as_bytes()))
    }

    /// The Sitemap URLs, wherever they stand in the file (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> + '_ {
        self.records()
            .filter(|r| r.kind == RecordKind::Sitemap)
            .map(|r| r.value)
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
