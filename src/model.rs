//! Floor 2: the plain parsed data of a robots.txt: rules, user-agent values, groups, other
//! records, and the compiled entry of a rule. `parse` fills them, `compile`, `decide` and `lint`
//! read them; no behaviour here beyond naming. Text is held as `Range<u32>` into the one byte
//! buffer of a `Robots` (`span` turns a range into a slice index).

use alloc::vec::Vec;
use core::ops::Range;

use crate::aipref::{Preference, Statement, SIGNAL_COUNT};

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
    /// Its other records (Crawl-delay, ...): those of this span of `Robots::records` (first to
    /// last) that stand in it (`Robots::group_records`). A span, not a list: a list was an
    /// allocation and a free per group with a record, a measurable part of parsing a small file.
    pub(crate) records: Range<u32>,
    /// Its Content-Usage rules and Content-Signal lines (indices into `Robots::usage` and
    /// `Robots::signals`): a group's lines are consecutive, so each kind is a range.
    pub(crate) usage: Range<u32>,
    pub(crate) signals: Range<u32>,
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
    /// The run of user-agent lines it applies to (indices into `Robots::agents`): the user-agent
    /// lines of its group since the last line that was not one, before it (docs/records.md).
    /// Empty outside any group.
    pub(crate) agents: Range<u32>,
}

/// A Content-Usage rule (draft-ietf-aipref-attach-05 §3): a rule of its group ([I-6] in the
/// dialects that read it so), matched like Allow and Disallow; its statement parsed once.
#[derive(Clone, Debug)]
#[cfg_attr(not(feature = "aipref"), allow(dead_code))]
pub struct UsageRule {
    pub line: u32,
    /// The normalised path pattern, `None` when the rule has no path (it matches every URL with
    /// length 0, [I-1]).
    pub(crate) pattern: Option<Range<u32>>,
    pub(crate) statement: Statement,
}

/// A Content-Signal line of a group ([I-9]): its outcome per signal, read once; the value stays
/// in the record for the extra keys.
#[derive(Clone, Debug)]
#[cfg_attr(not(feature = "aipref"), allow(dead_code))]
pub struct SignalLine {
    pub line: u32,
    pub(crate) values: [Preference; SIGNAL_COUNT],
    /// The line's value as written (for the extra keys, read when asked for).
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

pub(crate) fn span(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

/// The parser's working arrays (`parse::Builder::merged_sets`), kept (empty) with a parsed file
/// so that parsing another into it (`Robots::reparse`) allocates none: three allocations and
/// frees were a measurable part of parsing a small file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// Each token's first and last group.
    pub(crate) spans: Vec<(u32, u32)>,
    /// The groups naming `*`.
    pub(crate) global: Vec<u32>,
    /// The rule set of each group on its own, u32::MAX until made.
    pub(crate) group_sets: Vec<u32>,
}
