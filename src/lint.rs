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
    for g in &r.groups {
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
        for record in g.records.iter().filter_map(|&i| r.records.get(i as usize)) {
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
    // Each rule is paired with the previous rule of the same pattern, found in a hash table
    // of the group's patterns (open addressing; slot = rule + 1, 0 is empty).
    // The hash reads the length and at most the first and last 8 octets: constant time per
    // rule (equal hashes are settled by comparing the patterns).
    let hash = |p: &[u8]| {
        // (Not `copy_from_slice` into a buffer: that is a call to memcpy, twice per rule.)
        let word = |part: &[u8]| match <[u8; 8]>::try_from(part) {
            Ok(w) => u64::from_le_bytes(w),
            Err(_) => part.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b)),
        };
        let n = p.len();
        let mixed = (word(&p[..n.min(8)]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ word(&p[n.saturating_sub(8)..]))
        .wrapping_add(n as u64)
        .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (mixed >> 32) as u32
    };
    let size = (rules.len() * 2).next_power_of_two();
    let mut table = alloc::vec![0u32; size];
    let mut found: Vec<(u32, Code, usize)> = Vec::new();
    for (cur, b) in rules.iter().enumerate() {
        let mut slot = hash(pattern(b)) as usize & (size - 1);
        let prev = loop {
            match table[slot] {
                0 => break None,
                i if pattern(&rules[i as usize - 1]) == pattern(b) => break Some(i as usize - 1),
                _ => slot = (slot + 1) & (size - 1),
            }
        };
        table[slot] = cur as u32 + 1;
        let Some(prev) = prev else { continue };
        let a = &rules[prev];
        if pattern(a).is_empty() {
            continue;
        }
        if a.kind == b.kind {
            found.push((b.line, Code::DuplicateRule, cur));
        } else if d.precedence == Precedence::LongestMatch {
            let disallow = if a.kind == RuleKind::Disallow {
                prev
            } else {
                cur
            };
            found.push((rules[disallow].line, Code::ConflictingRules, disallow));
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
