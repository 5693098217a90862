//! Floor 3: rule sets -> what queries scan: each crawler's merged rules, sorted in the
//! dialect's decision order, with the filters that let a query skip most of them.
//!
//! A rule set is compiled the first time a query needs it, not at parse time: a crawler asks
//! about its own groups, so a file with fifty groups parsed for one crawler compiles one or two
//! sets, never fifty (the per-agent parsers compile one set per parse, google/robotstxt none).
//! The compiled set is kept (`computed::Computed`, in `Robots`), so every later query reads it
//! as it is. It is built from the parsed model alone (`Model`), never from the `Robots` facade
//! above it.

use alloc::vec::Vec;
use core::ops::Range;

use crate::dialect::{Dialect, Precedence};
use crate::model::{span, Entry, Group, Rule, RuleKind};
use crate::sort::radix_sort;

/// The parts of a parsed file a rule set is compiled from (borrowed from a `Robots`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Model<'a> {
    pub dialect: &'a Dialect,
    pub groups: &'a [Group],
    pub rules: &'a [Rule],
    /// The file and what `parse` wrote after it (`Robots::bytes`); patterns are ranges into it.
    pub bytes: &'a [u8],
    /// google/robotstxt's `index.htm` leniency: (rule, its `/dir/$` pattern), in rule order.
    pub alternates: &'a [(u32, Range<u32>)],
}

/// A rule set as queries scan it.
#[derive(Clone, Debug)]
pub(crate) struct CompiledSet {
    /// The set's entries in two runs: those without a key (`..wild_end`), then the keyed ones,
    /// sorted by key; each run in decision order.
    pub entries: Vec<Entry>,
    /// Every entry's octet set (`1 << (octet % 64)` for each literal octet of its pattern) and
    /// pair set (`pattern::pair_bit` of each two adjacent literal octets), apart from the
    /// entries: a path lacking one of them cannot match, so a query scans this dense array and
    /// looks at few entries.
    pub filters: Vec<(u64, u64)>,
    pub wild_end: u32,
    /// The keyed entries of each key (sorted by key).
    pub buckets: Vec<Bucket>,
}

/// The entries of one key in a rule set.
#[derive(Clone, Debug)]
pub(crate) struct Bucket {
    pub key: u8,
    pub entries: Range<u32>,
}

/// Compiles the rules of `groups` into one rule set, in decision order.
///
/// One stable sort by (bucket, order), where order is the dialect's precedence (most specific
/// first, Allow first on a tie, RFC 9309 §2.2.2; or none: file order). Each entry's `rank` is
/// (order, position in file order), so a query can merge the unkeyed run with a bucket.
pub(crate) fn compile(model: &Model<'_>, groups: &[u32]) -> CompiledSet {
    let d = *model.dialect;
    let longest = d.precedence == Precedence::LongestMatch;
    // The set's entries and filters in file order, then sorted into `set` below.
    let mut unsorted: Vec<(Entry, (u64, u64))> = Vec::new();
    // The google/robotstxt `index.htm` patterns, by rule (in rule order, like the groups' rules).
    let alternates = model.alternates;
    for &g in groups {
        let Some(group) = model.groups.get(g as usize) else {
            continue;
        };
        let mut alt = alternates.partition_point(|&(r, _)| r < group.rules.start);
        for ri in span(&group.rules) {
            let Some(rule) = model.rules.get(ri) else {
                continue;
            };
            let allow = rule.kind == RuleKind::Allow;
            unsorted.push(entry(
                model.bytes,
                d.wildcards,
                ri as u32,
                rule.pattern.clone(),
                allow,
            ));
            if let Some((_, at)) = alternates.get(alt).filter(|(r, _)| *r as usize == ri) {
                unsorted.push(entry(model.bytes, d.wildcards, ri as u32, at.clone(), true));
                alt += 1;
            }
        }
    }
    let max = if longest {
        unsorted.iter().map(|(e, _)| e.len).max().unwrap_or(0)
    } else {
        0
    };
    // Decision order of an entry; the rank adds the file position to break ties.
    let order = |e: &Entry| {
        if longest {
            u64::from(max - e.len) * 2 + u64::from(!e.allow)
        } else {
            0
        }
    };
    let mut items: Vec<(u64, u64)> = (unsorted.iter().enumerate())
        .map(|(position, (e, _))| (bucket(e) | order(e), position as u64))
        .collect();
    radix_sort(&mut items, &mut Vec::new());

    let mut set = CompiledSet {
        entries: Vec::with_capacity(items.len()),
        filters: Vec::with_capacity(items.len()),
        wild_end: 0,
        buckets: Vec::new(),
    };
    for &(_, position) in &items {
        let Some(&(mut e, filter)) = unsorted.get(position as usize) else {
            continue;
        };
        e.rank = order(&e) << 32 | position;
        let at = set.entries.len() as u32;
        set.entries.push(e);
        set.filters.push(filter);
        match e.key {
            None => set.wild_end = at + 1,
            // Keyed entries come sorted by key: extend the last bucket or start one.
            Some(key) => match set.buckets.last_mut() {
                Some(b) if b.key == key => b.entries.end = at + 1,
                _ => set.buckets.push(Bucket {
                    key,
                    entries: at..at + 1,
                }),
            },
        }
    }
    set
}

/// The entry of one pattern: its priority (its length), and what lets a query skip it cheaply:
/// its octet set and pair set (`CompiledSet::filters`).
fn entry(
    bytes: &[u8],
    wildcards: bool,
    rule: u32,
    at: Range<u32>,
    allow: bool,
) -> (Entry, (u64, u64)) {
    let pattern = bytes.get(span(&at)).unwrap_or_default();
    let literal = match pattern.split_last() {
        Some((b'$', body)) if wildcards => body,
        _ => pattern,
    };
    // The octets and adjacent pairs of the literal runs (a `*` separates runs), in one pass
    // without branches on the octets (wildcard patterns make such branches unpredictable).
    let (mut mask, mut pairs) = (0u64, 0u64);
    let mut star = false;
    let mut previous = 0u8;
    let mut previous_literal = false; // the previous octet exists and is not a `*`
    for &b in literal {
        let is_star = wildcards && b == b'*';
        star |= is_star;
        let literal_bits = u64::from(!is_star).wrapping_neg();
        mask |= crate::pattern::octet_bit(b) & literal_bits;
        let pair_bits = u64::from(previous_literal && !is_star).wrapping_neg();
        pairs |= crate::pattern::pair_bit(previous, b) & pair_bits;
        previous = b;
        previous_literal = !is_star;
    }
    let len = at.end - at.start;
    let entry = Entry {
        rule,
        start: at.start,
        len,
        allow,
        empty: len == 0,
        rank: 0,
        key: match pattern {
            // In wildcard dialects the first two octets must be literal (`*x`, `/*` and `/$`
            // have no fixed second octet).
            [first, second, ..]
                if !(wildcards
                    && (*first == b'*'
                        || *second == b'*'
                        || (pattern.len() == 2 && *second == b'$'))) =>
            {
                Some(*second)
            }
            _ => None,
        },
        anchored: literal.len() < pattern.len(),
        star,
    };
    (entry, (mask, pairs))
}

/// An entry's bucket in a rule set, in the sort key's high bits: 0 for the entries without a
/// key (they come first), else the key + 1. The low 40 bits hold the decision order.
fn bucket(e: &Entry) -> u64 {
    e.key.map_or(0, |k| u64::from(k) + 1) << 40
}
