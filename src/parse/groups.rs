//! Groups: user-agent lines (a run of them starts a group) and the rules under them, each
//! pattern stored as the dialect matches it.

use super::builder::{joined, Builder};
use crate::agent::value_token;
use crate::diagnostic::Code;
use crate::dialect::Values;
use crate::lines::{is_space, DOLLAR, SPECIAL, STAR};
use crate::model::{span, Agent, Group, Rule, RuleKind};
use crate::pattern::{needs_normalizing, normalize, Side};

impl Builder<'_> {
    /// `continues_run`: the line before (of those with a field) was a user-agent line too.
    pub(super) fn user_agent(&mut self, n: u32, value: &[u8], continues_run: bool) {
        let starts_group = match self.current {
            None => true,
            Some(_) => self.seen_rule,
        };
        if starts_group || !continues_run {
            self.run_start = self.r.agents.len() as u32;
        }
        self.in_run = true;
        if starts_group {
            let at = self.r.agents.len() as u32;
            let rules = self.r.rules.len() as u32;
            let usage = self.r.usage.len() as u32;
            let signals = self.r.signals.len() as u32;
            self.r.groups.push(Group {
                line: n,
                agents: at..at,
                rules: rules..rules,
                records: 0..0,
                usage: usage..usage,
                signals: signals..signals,
            });
            self.current = Some(self.r.groups.len() as u32 - 1);
            self.seen_rule = false;
            self.ended_by_blank = false;
        }
        match self.r.dialect.agent_values {
            Values::One => self.add_agent(n, value),
            Values::WhitespaceSeparated => self.each_word(value, |b, v| b.add_agent(n, v)),
        }
        if let Some(g) = self.current {
            self.r.groups[g as usize].agents.end = self.r.agents.len() as u32;
        }
    }

    /// Each whitespace-separated word of a line's value, or one empty word when it has none:
    /// the dialects that read several agents or paths on a line (revisited). Out of line: rare,
    /// and compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn each_word(&mut self, value: &[u8], mut add: impl FnMut(&mut Self, &[u8])) {
        let mut any = false;
        for v in value.split(|&c| is_space(c)).filter(|v| !v.is_empty()) {
            add(self, v);
            any = true;
        }
        if !any {
            add(self, b"");
        }
    }

    /// One agent of a user-agent line.
    fn add_agent(&mut self, n: u32, v: &[u8]) {
        let how = self.r.dialect.agent_match;
        let t = value_token(v, how);
        if v.is_empty() {
            self.diag(n, Code::EmptyUserAgent, None);
        } else if !t.valid
            && matches!(
                how,
                crate::dialect::AgentMatch::Token | crate::dialect::AgentMatch::GoogleWhole
            )
        {
            self.invalid_token(n, v, t.token);
        }
        let written = self.push_text(v);
        let start = self.r.bytes.len() as u32;
        self.r
            .bytes
            .extend(t.token.iter().map(u8::to_ascii_lowercase));
        let token = start..self.r.bytes.len() as u32;
        self.r.agents.push(Agent {
            line: n,
            global: t.global,
            written,
            token,
        });
    }

    /// A user-agent value that is not a valid product token, and what was read of it.
    #[cold]
    #[inline(never)]
    fn invalid_token(&mut self, n: u32, value: &[u8], token: &[u8]) {
        let token = if token.is_empty() { b"no token" } else { token };
        let detail = joined(&[value, b" read as ", token]);
        self.diag(n, Code::InvalidProductToken, Some(detail));
    }

    pub(super) fn rule(
        &mut self,
        n: u32,
        kind: RuleKind,
        value: &[u8],
        classes: u8,
        body_classes: u8,
    ) {
        let Some(group) = self.current else {
            let code = if self.ended_by_blank {
                Code::BlankLineEndsGroup
            } else {
                Code::RuleOutsideGroup
            };
            self.diag(n, code, None);
            return;
        };
        // google/robotstxt: any allow/disallow line, even an empty one, closes the user-agent
        // run (semantics I.13).
        self.seen_rule = true;
        match self.r.dialect.rule_values {
            Values::One => self.add_rule(n, kind, group, value, classes, body_classes),
            Values::WhitespaceSeparated => self.each_word(value, |b, v| {
                // (The empty word has no octets.)
                let (classes, body_classes) = match v.is_empty() {
                    true => (0, 0),
                    false => (classes, body_classes),
                };
                b.add_rule(n, kind, group, v, classes, body_classes)
            }),
        }
        self.r.groups[group as usize].rules.end = self.r.rules.len() as u32;
    }

    /// `classes`, `body_classes`: the lexer's classes of the value's octets, and of all but its
    /// last (supersets), to skip the checks that cannot fail.
    fn add_rule(
        &mut self,
        n: u32,
        kind: RuleKind,
        group: u32,
        value: &[u8],
        classes: u8,
        body_classes: u8,
    ) {
        let d = self.r.dialect;
        if value.is_empty() {
            if !(kind == RuleKind::Allow && d.empty_allow_matches_all) {
                self.diag(n, Code::EmptyRule, None);
            }
        } else if !matches!(value.first(), Some(b'/' | b'*')) {
            let detail = Some(self.lossy(value));
            self.diag(n, Code::PatternNoSlash, detail);
        }
        // A `$` before the end: literal text (RFC 9309 percent-encodes it as %24).
        let dollar_inside = body_classes & DOLLAR != 0
            && value
                .split_last()
                .is_some_and(|(_, body)| body.contains(&b'$'));
        if d.wildcards {
            if dollar_inside {
                self.diag(n, Code::DollarNotAtEnd, None);
            }
        } else if classes & (STAR | DOLLAR) != 0 && (value.contains(&b'*') || value.ends_with(b"$"))
        {
            self.diag(n, Code::WildcardLiteral, None);
        }
        let written = self.push_text(value);
        // Most patterns are stored as written, in the copy of the file: normalisation only
        // changes `%`, controls, spaces, non-ASCII (the SPECIAL class) and a `$` inside.
        let changed = (classes & SPECIAL != 0 || dollar_inside)
            && needs_normalizing(value, d.percent, Side::Rule);
        let pattern = self.store_pattern(value, changed);
        // google/robotstxt's index.htm leniency: the kind is looked at only in that dialect, as
        // in `key_value`.
        if d.leniency.index_html {
            self.index_alternate(kind, pattern.clone());
        }
        self.r.rules.push(Rule {
            line: n,
            kind,
            group,
            written,
            pattern,
        });
    }

    /// A rule path's normalised form: where it stands in the copy of the file when normalising
    /// leaves it as it is (`changed` false), else appended to the bytes.
    /// Inlined: every Allow/Disallow rule comes through here.
    #[inline(always)]
    pub(super) fn store_pattern(&mut self, value: &[u8], changed: bool) -> core::ops::Range<u32> {
        match self.offset(value) {
            Some(at) if !changed => at,
            _ => {
                let start = self.r.bytes.len() as u32;
                if changed {
                    normalize(value, self.r.dialect.percent, Side::Rule, &mut self.r.bytes);
                } else {
                    self.r.bytes.extend_from_slice(value);
                }
                start..self.r.bytes.len() as u32
            }
        }
    }

    /// google/robotstxt: `Allow: /d/index.htm...` also allows `/d/` exactly, with the priority
    /// of the pattern `/d/$` (semantics I.17). Stores that pattern for the rule about to be
    /// added (`Robots::alternates`).
    #[inline(never)]
    fn index_alternate(&mut self, kind: RuleKind, pattern: core::ops::Range<u32>) {
        if kind != RuleKind::Allow {
            return;
        }
        let bytes = &mut self.r.bytes;
        let Some(p) = bytes.get(span(&pattern)) else {
            return;
        };
        let Some(slash) = p.iter().rposition(|&b| b == b'/') else {
            return;
        };
        if !p[slash..].starts_with(b"/index.htm") {
            return;
        }
        let start = bytes.len() as u32;
        bytes.extend_from_within(pattern.start as usize..pattern.start as usize + slash + 1);
        bytes.push(b'$');
        let at = start..bytes.len() as u32;
        self.r.alternates.push((self.r.rules.len() as u32, at));
    }
}
