//! Floor 5: diagnostics over a parsed file, for site owners (the `lint` command, the
//! playground): `Robots::diagnostics` lives here, so the facade never calls up.
//!
//! Parsing never fails (RFC 9309 §2.3.1.5): every line that cannot be used becomes a diagnostic
//! (`parse` records them; the types are in `diagnostic`, re-exported here).
//!
//! The findings about a group's rules as a whole (duplicates, conflicts, shadowed rules) and
//! about values that replace earlier ones (Crawl-delay, Request-rate) are made when the
//! diagnostics are first asked for (`Robots::diagnostics`), not at parse time: a
//! crawler parses and queries, and never asks.

use alloc::string::String;
use alloc::vec::Vec;

use crate::decide::is_valid;
pub use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::dialect::{GroupMerge, Precedence};
use crate::model::{span, Agent, RecordKind, Rule, RuleKind};
use crate::robots::Robots;
use crate::sort::radix_sort;

impl Robots {
    /// What the parser noticed, in line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics.get_or_init(|| diagnostics(self))
    }
}

/// Every diagnostic of a parsed file, in line order (each line's in the order found): what the
/// parser found, plus the findings about each group's rules.
pub(crate) fn diagnostics(r: &Robots) -> Vec<Diagnostic> {
    let mut all = r.found.clone();
    for g in 0..r.groups.len() {
        group_findings(r, g, &mut all);
    }
    replaced_values(
        r,
        RecordKind::CrawlDelay,
        Code::MultipleCrawlDelay,
        &mut all,
    );
    replaced_values(
        r,
        RecordKind::RequestRate,
        Code::MultipleRequestRate,
        &mut all,
    );
    // By line (the sort is stable).
    let mut keys: Vec<(u64, u64)> = (all.iter().enumerate())
        .map(|(i, d)| (u64::from(d.line), i as u64))
        .collect();
    radix_sort(&mut keys, &mut Vec::new());
    let mut found: Vec<Option<Diagnostic>> = all.into_iter().map(Some).collect();
    keys.iter()
        .filter_map(|&(_, i)| found.get_mut(i as usize)?.take())
        .collect()
}

/// The valid `kind` values that replace an earlier one for some user-agent (the last counts,
/// docs/records.md): where groups merge, one under a run naming a token (or `*`) that an earlier
/// run of any group gave a value; elsewhere (only the first group naming an agent is obeyed), an
/// earlier run of the same group. Linear: each run's agents are read once, for its first value
/// (a later one under the same run always replaces it).
fn replaced_values(r: &Robots, kind: RecordKind, code: Code, out: &mut Vec<Diagnostic>) {
    let merging = r.dialect.group_merge == GroupMerge::All;
    // Which user-agents have a value yet, by key: where groups merge, the entry of the token
    // table (the last slot stands for `*`); elsewhere, the first agent of the group that reads
    // the same (among its first 64).
    let slots = if merging {
        r.tokens.len() + 1
    } else {
        r.agents.len()
    };
    let mut valued = alloc::vec![false; slots];
    let mut run = None;
    for (index, g) in r.groups.iter().enumerate() {
        let first = g.agents.start as usize;
        let in_group = r.agents.get(span(&g.agents)).unwrap_or_default();
        let key = |a: &Agent| match (merging, a.global) {
            (true, true) => Some(r.tokens.len()),
            (true, false) => r.lookup(r.token(&a.token)),
            (false, _) => {
                let same =
                    |b: &Agent| b.global == a.global && r.token(&b.token) == r.token(&a.token);
                in_group.iter().take(64).position(same).map(|i| first + i)
            }
        };
        for record in (r.group_records(index as u32)).filter_map(|i| r.records.get(i as usize)) {
            if record.kind != kind || !is_valid(kind, r.token(&record.value)) {
                continue;
            }
            let replaces = run == Some(&record.agents) || {
                let agents = r.agents.get(span(&record.agents)).unwrap_or_default();
                let replaces =
                    (agents.iter().filter_map(key)).any(|k| valued.get(k) == Some(&true));
                for k in agents.iter().filter_map(key) {
                    if let Some(seen) = valued.get_mut(k) {
                        *seen = true;
                    }
                }
                replaces
            };
            run = Some(&record.agents);
            if replaces {
                out.push(Diagnostic {
                    line: record.line,
                    severity: code.severity(),
                    code,
                    detail: None,
                });
            }
        }
    }
}

/// Rules of one group that can never decide: exact duplicates; a Disallow with the same
/// pattern as an Allow (Allow wins the tie, RFC 9309 §2.2.2); in first-match dialects, a rule
/// whose every path an earlier rule already matches (its pattern starts with the earlier one's).
fn group_findings(r: &Robots, g: usize, out: &mut Vec<Diagnostic>) {
    let d = r.dialect;
    let Some(group) = r.groups.get(g) else {
        return;
    };
    let rules = r.rules.get(span(&group.rules)).unwrap_or_default();
    let pattern = |rule: &Rule| r.bytes.get(span(&rule.pattern)).unwrap_or_default();
    let previous = previous_same(rules.len(), |i| rules.get(i).map_or(&[][..], pattern));
    let mut found: Vec<(u32, Code, usize)> = Vec::new();
    for (cur, b) in rules.iter().enumerate() {
        let prev = previous.get(cur).copied().flatten();
        let Some((prev, a)) = prev.and_then(|p| Some((p, rules.get(p)?))) else {
            continue;
        };
        if pattern(a).is_empty() {
            continue;
        }
        if a.kind == b.kind {
            found.push((b.line, Code::DuplicateRule, cur));
        } else if d.precedence == Precedence::LongestMatch {
            let (disallow, line) = if a.kind == RuleKind::Disallow {
                (prev, a.line)
            } else {
                (cur, b.line)
            };
            found.push((line, Code::ConflictingRules, disallow));
        } else {
            // First match: the later of the two never decides.
            found.push((b.line, Code::ShadowedRule, cur));
        }
    }
    // First match: an earlier rule whose pattern is a prefix of a later one always decides
    // first. Quadratic, so only for groups of a size people write by hand.
    if d.precedence == Precedence::FirstMatch && rules.len() <= 512 {
        for (j, later) in rules.iter().enumerate() {
            let shadowed = rules[..j].iter().any(|earlier| {
                let p = pattern(earlier);
                let matches_all =
                    p.is_empty() && earlier.kind == RuleKind::Allow && d.empty_allow_matches_all;
                (matches_all || !p.is_empty())
                    && pattern(later).starts_with(p)
                    && pattern(earlier) != pattern(later)
            });
            if shadowed && !pattern(later).is_empty() {
                found.push((later.line, Code::ShadowedRule, j));
            }
        }
    }
    for (line, code, i) in found {
        let detail = rules.get(i).map(|rule| String::from(r.str(&rule.written)));
        out.push(Diagnostic {
            line,
            severity: code.severity(),
            code,
            detail,
        });
    }
}

/// For each of `n` rules, the previous one (index) with the same pattern, `None` for the first
/// of its pattern. A most-significant-first radix sort of the rules by pattern, seven octets at a
/// time (`chunk`), with the one radix sort of the crate: it is stable, so the rules of a run
/// stay in file order, and a run whose key says its patterns ended is one pattern, each rule
/// after its previous one. Every level reads each octet once: linear in the patterns' octets,
/// whatever they are. (A hash table keyed by the patterns' ends put every
/// `/catalogue/NNNNN/reviews.html` in one bucket, and a group of 32k rules took 122 ms;
/// `sort_unstable_by` added 3 KB gzip to the .wasm.)
fn previous_same<'p>(n: usize, pattern: impl Fn(usize) -> &'p [u8]) -> Vec<Option<usize>> {
    let mut previous = alloc::vec![None; n];
    let mut order: Vec<usize> = (0..n).collect();
    let (mut keys, mut scratch) = (Vec::new(), Vec::new());
    // Runs of `order` still to split (start, end, depth): alike in their first `depth` octets.
    let mut todo = alloc::vec![(0, n, 0)];
    while let Some((start, end, depth)) = todo.pop() {
        let Some(run) = order.get_mut(start..end) else {
            continue;
        };
        keys.clear();
        keys.extend(run.iter().map(|&i| (chunk(pattern(i), depth), i as u64)));
        radix_sort(&mut keys, &mut scratch);
        let mut at = start;
        for (slot, &(_, i)) in run.iter_mut().zip(&keys) {
            *slot = i as usize;
        }
        for same in keys.chunk_by(|a, b| a.0 == b.0) {
            let ended = same.first().is_some_and(|&(key, _)| key & 0xFF < 7);
            if ended {
                for pair in same.windows(2) {
                    if let (Some(slot), [(_, a), (_, _)]) =
                        (previous.get_mut(pair[1].1 as usize), pair)
                    {
                        *slot = Some(*a as usize);
                    }
                }
            } else if same.len() > 1 {
                todo.push((at, at + same.len(), depth + 7));
            }
            at += same.len();
        }
    }
    previous
}

/// The sort key of `pattern` at `depth`: its next seven octets (zeros past its end) and how many
/// of them it has, so that equal keys all the way mean equal patterns.
fn chunk(pattern: &[u8], depth: usize) -> u64 {
    let rest = pattern.get(depth..).unwrap_or_default();
    let present = rest.len().min(7);
    let mut key = 0u64;
    for k in 0..7 {
        key = key << 8 | u64::from(rest.get(k).copied().unwrap_or(0));
    }
    key << 8 | present as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The finder agrees with the plain reading (scan back for the nearest equal pattern) on
    /// random groups, drawn from few patterns so that most repeat, some many times.
    #[test]
    fn previous_same_agrees_with_a_naive_scan() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        // Short ones, and long ones alike over one, two and three chunks of seven octets,
        // differing in length at and around chunk ends, or only by a trailing zero octet.
        let words: [&[u8]; 14] = [
            b"/abcdef",
            b"",
            b"/",
            b"/a",
            b"/a*$",
            b"/abcdef\0",
            b"/abcdefg",
            b"/abcdefgh",
            b"/abcdefghijklm",
            b"/abcdefghijklmn",
            b"/abcdefghijklmno",
            b"/abcdefghijklm\0",
            b"/abcdefghijklmnopqrstu",
            b"/abcdefghijklmnopqrstv",
        ];
        for round in 0..2_000 {
            let n = next(if round % 10 == 0 { 300 } else { 24 }) as usize;
            let kinds = 1 + next(words.len() as u64) as usize;
            let patterns: Vec<&[u8]> = (0..n).map(|_| words[next(kinds as u64) as usize]).collect();
            let naive: Vec<Option<usize>> = (0..n)
                .map(|i| (0..i).rev().find(|&j| patterns[j] == patterns[i]))
                .collect();
            assert_eq!(previous_same(n, |i| patterns[i]), naive, "{patterns:?}");
        }
    }
}
