//! The index queries run against, built once the lines are read: one rule set per distinct list
//! of groups a crawler obeys (RFC 9309 §2.2.1 merges them; first-record dialects take one), and
//! the hash index of product tokens.

use alloc::vec::Vec;

use super::builder::Builder;
use crate::diagnostic::Code;
use crate::dialect::GroupMerge;
use crate::model::{span, Scratch};
use crate::robots::{RuleSet, TokenEntry};
use crate::sort::radix_sort;

/// The rule sets of the tokens that name several groups (`Builder::merged_sets`): one per
/// distinct list of groups, found again by a hash of its groups (open addressing; slot = list +
/// 1, 0 is empty).
pub(super) struct SharedLists {
    /// (token, group) for each group of a token after its first: by token, then in file order.
    more: Vec<(u64, u64)>,
    /// The first of `more` not yet read.
    at: usize,
    lists: Vec<u32>,
    /// Each list's groups (in `flat`), and its set.
    seen: Vec<(core::ops::Range<usize>, u32)>,
    flat: Vec<u32>,
}

impl SharedLists {
    /// Whether token `id` (the next token) names several groups.
    fn names_several(&self, id: usize) -> bool {
        self.more.get(self.at).is_some_and(|m| m.0 == id as u64)
    }

    /// The set of token `id`, whose first group is `first`, of `tokens`. Out of line: rare, and
    /// compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn set(&mut self, b: &mut Builder<'_>, id: usize, first: u32, tokens: usize) -> u32 {
        if self.lists.is_empty() {
            self.lists = alloc::vec![0u32; (tokens * 2).next_power_of_two()];
        }
        let list_size = self.lists.len();
        let start = self.flat.len();
        self.flat.push(first);
        while let Some(&(_, g)) = self.more.get(self.at).filter(|m| m.0 == id as u64) {
            self.flat.push(g as u32);
            self.at += 1;
        }
        let hash = self.flat[start..]
            .iter()
            .fold(0x811c_9dc5_u32, |h, &g| (h ^ g).wrapping_mul(0x0100_0193));
        let mut slot = hash as usize & (list_size - 1);
        loop {
            match self.lists[slot] {
                0 => {
                    let set = b.push_set(&self.flat[start..]);
                    self.seen.push((start..self.flat.len(), set));
                    self.lists[slot] = self.seen.len() as u32;
                    return set;
                }
                i => {
                    let (range, set) = &self.seen[i as usize - 1];
                    if self.flat[range.clone()] == self.flat[start..] {
                        self.flat.truncate(start);
                        return *set;
                    }
                    slot = (slot + 1) & (list_size - 1);
                }
            }
        }
    }
}

impl Builder<'_> {
    pub(super) fn finish(mut self) {
        for g in 0..self.r.groups.len() {
            let group = &self.r.groups[g];
            // A group of only AI preferences says something: not an empty group.
            if group.rules.is_empty() && group.usage.is_empty() && group.signals.is_empty() {
                let line = group.line;
                self.diag(line, Code::EmptyGroup, None);
            }
        }
        self.build_sets();
    }

    /// Builds the rule set of every product token and of `*` (RFC 9309 §2.2.1: the rules of all
    /// groups naming the token are combined), or of every record (first-record dialects).
    fn build_sets(&mut self) {
        match self.r.dialect.group_merge {
            GroupMerge::All => self.merged_sets(),
            GroupMerge::FirstOnly => self.first_record_sets(),
        }
    }

    /// Merging dialects (RFC 9309 §2.2.1): one rule set per distinct list of groups.
    #[inline(never)]
    fn merged_sets(&mut self) {
        let d = self.r.dialect;
        // Every distinct non-global token (in order of first appearance) and the groups naming
        // it; empty tokens only where the dialect lets an empty caller match them
        // (google/robotstxt). Tokens are found through the hash index queries use, built here.
        let size = (self.r.agents.len() * 2).next_power_of_two().max(8);
        // Both empty, and with the capacity of a file parsed before when reparsing.
        let mut index = core::mem::take(&mut self.r.token_index);
        index.resize(size, 0);
        let mut tokens = core::mem::take(&mut self.r.tokens);
        // Each token's first and last group; its further groups (rare) as (token, group), in
        // file order.
        // Working arrays kept with the file's (`Scratch`), empty, so that reparsing allocates none.
        let mut scratch = core::mem::take(&mut self.r.scratch);
        let Scratch {
            spans,
            global,
            group_sets,
        } = &mut scratch;
        let mut more: Vec<(u64, u64)> = Vec::new();
        for (g, group) in self.r.groups.iter().enumerate() {
            let g = g as u32;
            for a in &self.r.agents[span(&group.agents)] {
                if a.global {
                    if global.last() != Some(&g) {
                        global.push(g);
                    }
                    continue;
                }
                if a.token.is_empty() && d.agent_match != crate::dialect::AgentMatch::GoogleWhole {
                    continue;
                }
                let token = self.r.token(&a.token);
                let mut slot = crate::agent::hash_lower(token) as usize & (size - 1);
                loop {
                    match index[slot] {
                        0 => {
                            tokens.push(TokenEntry {
                                token: a.token.clone(),
                                set: 0,
                            });
                            spans.push((g, g));
                            index[slot] = tokens.len() as u32;
                            break;
                        }
                        i if self.r.token(&tokens[i as usize - 1].token) == token => {
                            let id = i as usize - 1;
                            if spans[id].1 != g {
                                spans[id].1 = g;
                                more.push((id as u64, u64::from(g)));
                            }
                            break;
                        }
                        _ => slot = (slot + 1) & (size - 1),
                    }
                }
            }
        }
        // Each token's further groups together, in file order (the sort is stable).
        radix_sort(&mut more, &mut Vec::new());
        // Tokens naming the same groups share one rule set. A token of one group (most) takes
        // that group's set; a token of several groups, the set of its list (`SharedLists`).
        group_sets.resize(self.r.groups.len(), u32::MAX);
        let mut shared = SharedLists {
            more,
            at: 0,
            lists: Vec::new(),
            seen: Vec::new(),
            flat: Vec::new(),
        };
        let count = tokens.len();
        for (id, &(first, _)) in spans.iter().enumerate() {
            tokens[id].set = if shared.names_several(id) {
                shared.set(self, id, first, count)
            } else {
                match group_sets[first as usize] {
                    u32::MAX => {
                        let set = self.push_set(&[first]);
                        group_sets[first as usize] = set;
                        set
                    }
                    set => set,
                }
            };
        }
        if !global.is_empty() {
            self.r.global = Some(self.push_set(global));
        }
        spans.clear();
        global.clear();
        group_sets.clear();
        self.r.scratch = scratch;
        self.r.tokens = tokens;
        self.r.token_index = index;
    }

    /// First-record dialects (1994, 1996): one rule set per record.
    #[inline(never)]
    fn first_record_sets(&mut self) {
        // One rule set per record; tokens in file order, the first match wins.
        let mut tokens = core::mem::take(&mut self.r.tokens);
        for g in 0..self.r.groups.len() as u32 {
            let set = self.push_set(&[g]);
            let group = &self.r.groups[g as usize];
            let mut is_default = false;
            for a in &self.r.agents[span(&group.agents)] {
                if a.global {
                    is_default = true;
                } else if !a.token.is_empty() {
                    tokens.push(TokenEntry {
                        token: a.token.clone(),
                        set,
                    });
                }
            }
            if is_default {
                if self.r.global.is_none() {
                    self.r.global = Some(set);
                } else {
                    let line = self.r.groups[g as usize].line;
                    self.diag(line, Code::MultipleDefaultGroups, None);
                }
            }
        }
        self.r.tokens = tokens;
    }

    /// A new rule set of `groups` (compiled on first use, `compile`); returns its index.
    fn push_set(&mut self, groups: &[u32]) -> u32 {
        let start = self.r.set_groups.len() as u32;
        self.r.set_groups.extend_from_slice(groups);
        self.r.sets.push(RuleSet {
            groups: start..self.r.set_groups.len() as u32,
            compiled: Default::default(),
        });
        self.r.sets.len() as u32 - 1
    }
}
