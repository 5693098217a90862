//! Lines -> groups, rules and records: the one place that knows the file's structure.
//!
//! Parsing never fails (RFC 9309 §2.3.1.5): every line that can be understood is used, and every
//! other line becomes a diagnostic. At the end the rule sets that queries run against are built,
//! so a query never re-reads the file.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent::value_token;
use crate::dialect::{Dialect, GroupBoundary, GroupMerge, Precedence, Values};
use crate::lines::{is_space, split, Content, Line, Lines};
use crate::lint::{Code, Diagnostic, Severity};
use crate::pattern::{needs_normalizing, normalize, Side};
use crate::robots::{
    Agent, Bucket, Entry, Group, Record, RecordKind, Robots, Rule, RuleKind, RuleSet, TokenEntry,
};
use crate::Options;

/// What a line's key names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    UserAgent,
    Rule(RuleKind),
    Record(RecordKind),
}

/// How the key was spelt.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Exact,
    Typo,
    Prefix,
}

/// Field names, most specific first where one is a prefix of another (google's order: user-agent,
/// allow, disallow, sitemap; then the other records, which match exactly).
const FIELDS: &[(&str, Field)] = &[
    ("user-agent", Field::UserAgent),
    ("allow", Field::Rule(RuleKind::Allow)),
    ("disallow", Field::Rule(RuleKind::Disallow)),
    ("sitemap", Field::Record(RecordKind::Sitemap)),
];

const RECORDS: &[(&str, RecordKind)] = &[
    ("crawl-delay", RecordKind::CrawlDelay),
    ("host", RecordKind::Host),
    ("clean-param", RecordKind::CleanParam),
    ("request-rate", RecordKind::RequestRate),
    ("visit-time", RecordKind::VisitTime),
    ("content-usage", RecordKind::ContentUsage),
    ("content-signal", RecordKind::ContentSignal),
    ("robot-version", RecordKind::RobotVersion),
    ("comment", RecordKind::Comment),
];

/// The frequent typos google/robotstxt accepts (semantics I.7), with the field they stand for.
const TYPOS: &[(&str, Field)] = &[
    ("useragent", Field::UserAgent),
    ("user agent", Field::UserAgent),
    ("dissallow", Field::Rule(RuleKind::Disallow)),
    ("dissalow", Field::Rule(RuleKind::Disallow)),
    ("disalow", Field::Rule(RuleKind::Disallow)),
    ("diasllow", Field::Rule(RuleKind::Disallow)),
    ("disallaw", Field::Rule(RuleKind::Disallow)),
    ("site-map", Field::Record(RecordKind::Sitemap)),
];

fn field_name(field: Field) -> &'static str {
    match field {
        Field::UserAgent => "user-agent",
        Field::Rule(kind) => kind.as_str(),
        Field::Record(kind) => kind.as_str(),
    }
}

fn starts_with_ci(key: &[u8], name: &str) -> bool {
    key.len() >= name.len() && key[..name.len()].eq_ignore_ascii_case(name.as_bytes())
}

fn field_of(key: &[u8], dialect: &Dialect) -> Option<(Field, Spelling)> {
    let lenient = dialect.leniency;
    if lenient.key_prefix {
        // google/robotstxt checks user-agent, allow, disallow, sitemap in that order, each by
        // case-insensitive prefix, typos included (semantics I.7).
        for &(name, field) in FIELDS {
            let typo = TYPOS
                .iter()
                .find(|&&(t, f)| f == field && starts_with_ci(key, t));
            if starts_with_ci(key, name) {
                let spelling = if key.len() == name.len() {
                    Spelling::Exact
                } else {
                    Spelling::Prefix
                };
                return Some((field, spelling));
            }
            if typo.is_some() && lenient.typos {
                return Some((field, Spelling::Typo));
            }
        }
    } else {
        if let Some(&(_, field)) = FIELDS
            .iter()
            .find(|(n, _)| key.eq_ignore_ascii_case(n.as_bytes()))
        {
            return Some((field, Spelling::Exact));
        }
        if lenient.typos {
            if let Some(&(_, field)) = TYPOS
                .iter()
                .find(|(n, _)| key.eq_ignore_ascii_case(n.as_bytes()))
            {
                return Some((field, Spelling::Typo));
            }
        }
    }
    RECORDS
        .iter()
        .find(|(n, _)| key.eq_ignore_ascii_case(n.as_bytes()))
        .map(|&(_, kind)| (Field::Record(kind), Spelling::Exact))
}

/// The field a strict dialect would have accepted had the key been spelt right (for hints).
fn meant(key: &[u8]) -> Option<&'static str> {
    TYPOS
        .iter()
        .find(|(n, _)| key.eq_ignore_ascii_case(n.as_bytes()))
        .map(|&(_, f)| field_name(f))
        .or_else(|| {
            FIELDS
                .iter()
                .find(|(n, _)| starts_with_ci(key, n))
                .map(|&(n, _)| n)
        })
}

struct Builder<'s> {
    r: Robots,
    /// The file as text when it is valid UTF-8: values are sliced from it, not re-validated.
    source: Option<&'s str>,
    /// The group rules and agents are being added to.
    current: Option<u32>,
    /// A rule has been seen in the current group (a user-agent line then starts a new one).
    seen_rule: bool,
    /// A blank line ended the last record (for the hint on the rules that follow it).
    ended_by_blank: bool,
    scratch_entries: Vec<Entry>,
    scratch_keys: Vec<u64>,
    /// Each rule compiled once (`compile_rules`); rule sets copy them.
    templates: Vec<Entry>,
    alternates: Vec<Option<Entry>>,
}

/// Parses `input` as `options` say. Never fails, never panics.
pub(crate) fn parse(input: &[u8], options: &Options) -> Robots {
    let dialect = options.dialect.dialect();
    let transcoded: Vec<u8>;
    let mut b = Builder {
        source: None,
        r: Robots {
            dialect,
            groups: Vec::new(),
            agents: Vec::new(),
            // A typical rule line is about 25 bytes: reserve once instead of growing.
            rules: Vec::with_capacity(input.len().min(options.max_bytes) / 32),
            records: Vec::new(),
            diagnostics: Vec::new(),
            text: String::with_capacity(input.len().min(options.max_bytes) / 2),
            bytes: Vec::with_capacity(input.len().min(options.max_bytes) / 2),
            entries: Vec::with_capacity(input.len().min(options.max_bytes) / 16),
            sets: Vec::new(),
            buckets: Vec::new(),
            set_groups: Vec::new(),
            tokens: Vec::new(),
            token_index: Vec::new(),
            global: None,
            bytes_read: 0,
            truncated: false,
            lines: 0,
        },
        current: None,
        seen_rule: false,
        ended_by_blank: false,
        scratch_entries: Vec::new(),
        scratch_keys: Vec::new(),
        templates: Vec::new(),
        alternates: Vec::new(),
    };

    let mut bytes = input;
    if bytes.len() > options.max_bytes {
        bytes = &bytes[..options.max_bytes];
        b.r.truncated = true;
    }
    b.r.bytes_read = bytes.len();

    // UTF-16 is not robots.txt's encoding, but RFC 9309 §2.3 lets crawlers bridge encoding
    // mismatches; google/robotstxt reads bytes as they are.
    if let Some(big_endian) = utf16_bom(bytes) {
        let severity = if dialect.id == crate::DialectId::Google {
            Severity::Error
        } else {
            Severity::Warning
        };
        b.diag_with(0, severity, Code::Utf16, None);
        if dialect.id != crate::DialectId::Google {
            transcoded = utf16_to_utf8(&bytes[2..], big_endian);
            bytes = &transcoded;
        }
    }
    // A UTF-8 byte order mark, or any prefix of it, is skipped at the start (semantics I.2).
    for bom in [&b"\xEF\xBB\xBF"[..], b"\xEF\xBB", b"\xEF"] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            b.diag(1, Code::Bom, None);
            bytes = rest;
            break;
        }
    }
    if bytes.iter().find(|&&c| !is_space(c)) == Some(&b'<') {
        b.diag(1, Code::Html, None);
    }
    b.source = core::str::from_utf8(bytes).ok();
    let valid_utf8 = b.source.is_some();

    let mut last = 0;
    for line in Lines::new(bytes, dialect.max_line_bytes) {
        last = line.number;
        if !valid_utf8 && core::str::from_utf8(line.bytes).is_err() {
            b.diag(line.number, Code::InvalidUtf8, None);
        }
        b.line(&line);
    }
    b.r.lines = last;
    if b.r.truncated {
        b.diag(last, Code::Truncated, None);
    }
    b.finish()
}

fn utf16_bom(bytes: &[u8]) -> Option<bool> {
    match bytes {
        [0xFE, 0xFF, ..] => Some(true),
        [0xFF, 0xFE, ..] => Some(false),
        _ => None,
    }
}

fn utf16_to_utf8(bytes: &[u8], big_endian: bool) -> Vec<u8> {
    let units = bytes.chunks_exact(2).map(|c| {
        if big_endian {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut out = String::with_capacity(bytes.len());
    for c in char::decode_utf16(units) {
        out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    out.into_bytes()
}

impl Builder<'_> {
    fn diag(&mut self, line: u32, code: Code, detail: Option<String>) {
        self.diag_with(line, code.severity(), code, detail);
    }

    fn diag_with(&mut self, line: u32, severity: Severity, code: Code, detail: Option<String>) {
        self.r.diagnostics.push(Diagnostic {
            line,
            severity,
            code,
            detail,
        });
    }

    fn push_text(&mut self, bytes: &[u8]) -> core::ops::Range<u32> {
        let start = self.r.text.len() as u32;
        // Values are split at ASCII octets, so in a valid file they are slices of its text.
        let offset =
            (bytes.as_ptr() as usize).wrapping_sub(self.source.map_or(0, |s| s.as_ptr() as usize));
        if let Some(text) = self
            .source
            .and_then(|s| s.get(offset..offset.wrapping_add(bytes.len())))
        {
            self.r.text.push_str(text);
            return start..self.r.text.len() as u32;
        }
        match core::str::from_utf8(bytes) {
            Ok(s) => self.r.text.push_str(s),
            Err(_) => match String::from_utf8_lossy(bytes) {
                Cow::Borrowed(s) => self.r.text.push_str(s),
                Cow::Owned(s) => self.r.text.push_str(&s),
            },
        }
        start..self.r.text.len() as u32
    }

    fn line(&mut self, line: &Line<'_>) {
        let n = line.number;
        if line.too_long {
            self.diag(n, Code::LineTooLong, None);
        } else if line.bytes.len() > crate::dialect::GOOGLE.max_line_bytes
            && self.r.dialect.max_line_bytes == 0
        {
            self.diag(n, Code::LongLine, None);
        }
        if line.has_nul {
            self.diag(n, Code::NulByte, None);
        }
        match split(line.bytes) {
            Content::Blank => {
                // 1994 §"format", 1996 §3.2: records are separated by blank lines.
                if self.r.dialect.group_boundary == GroupBoundary::BlankLine
                    && self.current.is_some()
                {
                    self.current = None;
                    self.ended_by_blank = true;
                }
            }
            Content::Comment => {}
            Content::NoSeparator => {
                let code = if line.bytes.contains(&b' ') || line.bytes.contains(&b'\t') {
                    Code::MissingColon
                } else {
                    Code::Ignored
                };
                let detail = Some(self.lossy(trim_comment(line.bytes)));
                self.diag(n, code, detail);
            }
            Content::KeyValue {
                key,
                value,
                missing_colon,
            } => {
                if key.is_empty() {
                    let detail = Some(self.lossy(line.bytes));
                    self.diag(n, Code::Ignored, detail);
                    return;
                }
                if missing_colon {
                    if !self.r.dialect.leniency.missing_colon {
                        let detail = Some(self.lossy(trim_comment(line.bytes)));
                        self.diag(n, Code::MissingColon, detail);
                        return;
                    }
                    self.diag(n, Code::MissingColonAccepted, None);
                }
                self.key_value(n, key, value);
            }
        }
    }

    fn lossy(&self, bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    fn key_value(&mut self, n: u32, key: &[u8], value: &[u8]) {
        let Some((field, spelling)) = field_of(key, &self.r.dialect) else {
            let mut detail = self.lossy(key);
            if let Some(m) = meant(key) {
                detail.push_str(": did you mean '");
                detail.push_str(m);
                detail.push_str("'?");
            }
            self.diag(n, Code::UnknownField, Some(detail));
            self.record(n, RecordKind::Unknown, key, value);
            return;
        };
        if spelling != Spelling::Exact {
            let mut detail = self.lossy(key);
            detail.push_str(" read as ");
            detail.push_str(field_name(field));
            let code = if spelling == Spelling::Typo {
                Code::Typo
            } else {
                Code::KeyPrefix
            };
            self.diag(n, code, Some(detail));
        }
        match field {
            Field::UserAgent => self.user_agent(n, value),
            Field::Rule(RuleKind::Allow) if !self.r.dialect.allow_lines => {
                self.diag(n, Code::AllowIgnored, None);
                self.record(n, RecordKind::Unknown, key, value);
            }
            Field::Rule(kind) => self.rule(n, kind, value),
            Field::Record(kind) => self.record(n, kind, key, value),
        }
    }

    fn user_agent(&mut self, n: u32, value: &[u8]) {
        let starts_group = match self.current {
            None => true,
            Some(_) => self.seen_rule,
        };
        if starts_group {
            let at = self.r.agents.len() as u32;
            let rules = self.r.rules.len() as u32;
            self.r.groups.push(Group {
                line: n,
                agents: at..at,
                rules: rules..rules,
                records: Vec::new(),
            });
            self.current = Some(self.r.groups.len() as u32 - 1);
            self.seen_rule = false;
            self.ended_by_blank = false;
        }
        let how = self.r.dialect.agent_match;
        let add = |b: &mut Builder, v: &[u8]| {
            let t = value_token(v, how);
            if v.is_empty() {
                b.diag(n, Code::EmptyUserAgent, None);
            } else if !t.valid
                && matches!(
                    how,
                    crate::dialect::AgentMatch::Token | crate::dialect::AgentMatch::GoogleWhole
                )
            {
                let mut detail = b.lossy(v);
                detail.push_str(" read as ");
                if t.token.is_empty() {
                    detail.push_str("no token");
                } else {
                    detail.push_str(&String::from_utf8_lossy(t.token));
                }
                b.diag(n, Code::InvalidProductToken, Some(detail));
            }
            let written = b.push_text(v);
            let start = b.r.bytes.len() as u32;
            b.r.bytes.extend(t.token.iter().map(u8::to_ascii_lowercase));
            let token = start..b.r.bytes.len() as u32;
            b.r.agents.push(Agent {
                line: n,
                global: t.global,
                written,
                token,
            });
        };
        match self.r.dialect.agent_values {
            Values::One => add(self, value),
            Values::WhitespaceSeparated => {
                let mut any = false;
                for v in value.split(|&c| is_space(c)).filter(|v| !v.is_empty()) {
                    add(self, v);
                    any = true;
                }
                if !any {
                    add(self, b"");
                }
            }
        }
        if let Some(g) = self.current {
            self.r.groups[g as usize].agents.end = self.r.agents.len() as u32;
        }
    }

    fn rule(&mut self, n: u32, kind: RuleKind, value: &[u8]) {
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
            Values::One => self.add_rule(n, kind, group, value),
            Values::WhitespaceSeparated => {
                let mut any = false;
                for v in value.split(|&c| is_space(c)).filter(|v| !v.is_empty()) {
                    self.add_rule(n, kind, group, v);
                    any = true;
                }
                if !any {
                    self.add_rule(n, kind, group, b"");
                }
            }
        }
        self.r.groups[group as usize].rules.end = self.r.rules.len() as u32;
    }

    fn add_rule(&mut self, n: u32, kind: RuleKind, group: u32, value: &[u8]) {
        let d = self.r.dialect;
        if value.is_empty() {
            if !(kind == RuleKind::Allow && d.empty_allow_matches_all) {
                self.diag(n, Code::EmptyRule, None);
            }
        } else if !matches!(value.first(), Some(b'/' | b'*')) {
            let detail = Some(self.lossy(value));
            self.diag(n, Code::PatternNoSlash, detail);
        }
        if d.wildcards {
            if value
                .split_last()
                .is_some_and(|(_, body)| body.contains(&b'$'))
            {
                self.diag(n, Code::DollarNotAtEnd, None);
            }
        } else if value.contains(&b'*') || value.ends_with(b"$") {
            self.diag(n, Code::WildcardLiteral, None);
        }
        let written = self.push_text(value);
        let start = self.r.bytes.len() as u32;
        if needs_normalizing(value, d.percent, Side::Rule) {
            normalize(value, d.percent, Side::Rule, &mut self.r.bytes);
        } else {
            self.r.bytes.extend_from_slice(value);
        }
        let pattern = start..self.r.bytes.len() as u32;
        self.r.rules.push(Rule {
            line: n,
            kind,
            group,
            written,
            pattern,
        });
    }

    fn record(&mut self, n: u32, kind: RecordKind, key: &[u8], value: &[u8]) {
        // RFC 9309 §2.2.4: other records never end a group. Sitemap belongs to the file.
        let group = if kind == RecordKind::Sitemap {
            None
        } else {
            self.current
        };
        match kind {
            RecordKind::Sitemap => {
                let lower = value.get(..8).map(|p| p.to_ascii_lowercase());
                if !lower.is_some_and(|p| p.starts_with(b"http://") || p.starts_with(b"https://")) {
                    let detail = Some(self.lossy(value));
                    self.diag(n, Code::SitemapNotAbsolute, detail);
                }
            }
            RecordKind::CrawlDelay => {
                if crate::decide::parse_seconds(value).is_none() {
                    let detail = Some(self.lossy(value));
                    self.diag(n, Code::InvalidCrawlDelay, detail);
                }
                if group.is_none() {
                    self.diag(n, Code::RecordOutsideGroup, None);
                }
            }
            _ => {}
        }
        let field = self.push_text(key);
        let value = self.push_text(value);
        let index = self.r.records.len() as u32;
        self.r.records.push(Record {
            line: n,
            kind,
            group,
            field,
            value,
        });
        if let Some(g) = group {
            self.r.groups[g as usize].records.push(index);
        }
    }

    fn finish(mut self) -> Robots {
        for g in 0..self.r.groups.len() {
            let group = &self.r.groups[g];
            if group.rules.is_empty() {
                let line = group.line;
                self.diag(line, Code::EmptyGroup, None);
            }
            self.lint_rules(g);
        }
        self.compile_rules();
        self.build_sets();
        // By line, each line's findings in the order found.
        let mut keys: Vec<u64> = self
            .r
            .diagnostics
            .iter()
            .enumerate()
            .map(|(i, d)| (u64::from(d.line) << 32) | i as u64)
            .collect();
        radix_sort(&mut keys, &mut self.scratch_keys);
        let mut found: Vec<Option<Diagnostic>> = self.r.diagnostics.drain(..).map(Some).collect();
        self.r.diagnostics = keys
            .iter()
            .filter_map(|k| found.get_mut((k & 0xFFFF_FFFF) as usize)?.take())
            .collect();
        self.r
    }

    /// Rules of one group that can never decide: exact duplicates; a Disallow with the same
    /// pattern as an Allow (Allow wins the tie, RFC 9309 §2.2.2); in first-match dialects, a rule
    /// whose every path an earlier rule already matches (its pattern starts with the earlier one's).
    fn lint_rules(&mut self, g: usize) {
        let d = self.r.dialect;
        let range = self.r.groups[g].rules.clone();
        let rules = &self.r.rules[range.start as usize..range.end as usize];
        let pattern = |r: &Rule| {
            self.r
                .bytes
                .get(r.pattern.start as usize..r.pattern.end as usize)
                .unwrap_or_default()
        };
        // Each rule is paired with the previous rule of the same pattern, found in a hash table
        // of the group's patterns (open addressing; slot = rule + 1, 0 is empty).
        let fnv = |p: &[u8]| {
            p.iter().fold(0x811c_9dc5_u32, |h, &b| {
                (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
            })
        };
        let size = (rules.len() * 2).next_power_of_two();
        let mut table = alloc::vec![0u32; size];
        let mut found: Vec<(u32, Code, usize)> = Vec::new();
        for (cur, b) in rules.iter().enumerate() {
            let mut slot = fnv(pattern(b)) as usize & (size - 1);
            let prev = loop {
                match table[slot] {
                    0 => break None,
                    i if pattern(&rules[i as usize - 1]) == pattern(b) => {
                        break Some(i as usize - 1)
                    }
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
                    let matches_all = p.is_empty()
                        && earlier.kind == RuleKind::Allow
                        && d.empty_allow_matches_all;
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
            let detail = Some(String::from(
                self.r.str(&self.r.rules[range.start as usize + i].written),
            ));
            self.diag(line, code, detail);
        }
    }

    /// Builds the rule set of every product token and of `*` (RFC 9309 §2.2.1: the rules of all
    /// groups naming the token are combined), or of every record (first-record dialects).
    fn build_sets(&mut self) {
        let d = self.r.dialect;
        match d.group_merge {
            GroupMerge::All => {
                // Every non-global token and the groups naming it, in file order; empty tokens
                // only where the dialect lets an empty caller match them (google/robotstxt).
                let mut by_token: BTreeMap<Vec<u8>, (core::ops::Range<u32>, Vec<u32>)> =
                    BTreeMap::new();
                let mut global = Vec::new();
                for (g, group) in self.r.groups.iter().enumerate() {
                    let g = g as u32;
                    for a in &self.r.agents[crate::robots::span(&group.agents)] {
                        if a.global {
                            if global.last() != Some(&g) {
                                global.push(g);
                            }
                        } else if !a.token.is_empty()
                            || d.agent_match == crate::dialect::AgentMatch::GoogleWhole
                        {
                            let token = self
                                .r
                                .bytes
                                .get(crate::robots::span(&a.token))
                                .unwrap_or_default();
                            let (_, groups) = by_token
                                .entry(token.to_vec())
                                .or_insert_with(|| (a.token.clone(), Vec::new()));
                            if groups.last() != Some(&g) {
                                groups.push(g);
                            }
                        }
                    }
                }
                // Tokens naming the same groups share one rule set.
                let mut by_groups: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
                let mut lists: Vec<Vec<u32>> = Vec::new();
                let mut tokens = Vec::with_capacity(by_token.len());
                for (_, (token, groups)) in by_token {
                    let next = lists.len() as u32;
                    let set = *by_groups.entry(groups.clone()).or_insert_with(|| {
                        lists.push(groups);
                        next
                    });
                    tokens.push(TokenEntry { token, set });
                }
                for groups in &lists {
                    self.push_set(groups);
                }
                if !global.is_empty() {
                    self.r.global = Some(self.push_set(&global));
                }
                self.r.tokens = tokens;
                self.index_tokens();
            }
            GroupMerge::FirstOnly => {
                // One rule set per record; tokens in file order, the first match wins.
                let mut tokens = Vec::new();
                for g in 0..self.r.groups.len() as u32 {
                    let set = self.push_set(&[g]);
                    let group = &self.r.groups[g as usize];
                    let mut is_default = false;
                    for a in &self.r.agents[crate::robots::span(&group.agents)] {
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
        }
    }

    /// Builds the hash index of the product tokens (one probe per query instead of a search).
    fn index_tokens(&mut self) {
        let size = (self.r.tokens.len() * 2).next_power_of_two().max(8);
        let mut index = alloc::vec![0u32; size];
        for (i, t) in self.r.tokens.iter().enumerate() {
            let token = self
                .r
                .bytes
                .get(crate::robots::span(&t.token))
                .unwrap_or_default();
            let mut slot = crate::agent::hash_lower(token) as usize & (size - 1);
            while index[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            index[slot] = i as u32 + 1;
        }
        self.r.token_index = index;
    }

    /// Compiles the rules of `groups` into one rule set, in decision order, and returns its index.
    fn push_set(&mut self, groups: &[u32]) -> u32 {
        let d = self.r.dialect;
        let first = self.r.entries.len();
        for &g in groups {
            let range = self.r.groups[g as usize].rules.clone();
            for ri in range {
                if let Some(&e) = self.templates.get(ri as usize) {
                    self.r.entries.push(e);
                }
                if let Some(&Some(alt)) = self.alternates.get(ri as usize) {
                    self.r.entries.push(alt);
                }
            }
        }
        let entries = &mut self.r.entries[first..];
        // Entries arrive in file order. Most specific first; on a tie Allow first (RFC 9309
        // §2.2.2), then file order, so the first entry that matches is the decision. The sort
        // is stable, so file order is kept within ties.
        if d.precedence == Precedence::LongestMatch {
            let max = entries.iter().map(|e| e.priority).max().unwrap_or(0);
            sort_entries(
                entries,
                |e| u64::from(max - e.priority) * 2 + u64::from(!e.allow),
                &mut self.scratch_keys,
                &mut self.scratch_entries,
            );
        }
        for (rank, e) in entries.iter_mut().enumerate() {
            e.rank = rank as u32;
        }
        // Unkeyed entries first (in decision order), then keyed ones by key.
        sort_entries(
            entries,
            |e| e.key.map_or(0, |k| u64::from(k) + 1),
            &mut self.scratch_keys,
            &mut self.scratch_entries,
        );
        let wild_len = entries.iter().take_while(|e| e.key.is_none()).count();
        let keyed_start = first + wild_len;
        let bucket_start = self.r.buckets.len() as u32;
        let mut i = keyed_start;
        while i < self.r.entries.len() {
            let key = self.r.entries[i].key.unwrap_or(0);
            let mut j = i;
            while j < self.r.entries.len() && self.r.entries[j].key == Some(key) {
                j += 1;
            }
            self.r.buckets.push(Bucket {
                key,
                entries: i as u32..j as u32,
            });
            i = j;
        }
        let group_start = self.r.set_groups.len() as u32;
        self.r.set_groups.extend_from_slice(groups);
        self.r.sets.push(RuleSet {
            groups: group_start..self.r.set_groups.len() as u32,
            wild: first as u32..keyed_start as u32,
            buckets: bucket_start..self.r.buckets.len() as u32,
        });
        self.r.sets.len() as u32 - 1
    }

    /// Compiles every rule once into the entry that rule sets copy, and, for google/robotstxt,
    /// the `index.htm` alternate of each Allow rule.
    fn compile_rules(&mut self) {
        let d = self.r.dialect;
        let mut templates = Vec::with_capacity(self.r.rules.len());
        let mut alternates = Vec::new();
        for (i, rule) in self.r.rules.iter().enumerate() {
            let allow = rule.kind == RuleKind::Allow;
            templates.push(entry(
                &self.r.bytes,
                d.wildcards,
                i as u32,
                rule.pattern.clone(),
                allow,
            ));
            if allow && d.leniency.index_html {
                alternates.resize(i + 1, None);
                alternates[i] = index_alternate(&mut self.r.bytes, rule.pattern.clone())
                    .map(|alt| entry(&self.r.bytes, d.wildcards, i as u32, alt, true));
            }
        }
        self.templates = templates;
        self.alternates = alternates;
    }
}

/// google/robotstxt: `Allow: /d/index.htm...` also allows `/d/` exactly, with the priority of
/// the pattern `/d/$` (semantics I.17). Stores that pattern and returns where.
fn index_alternate(
    bytes: &mut Vec<u8>,
    pattern: core::ops::Range<u32>,
) -> Option<core::ops::Range<u32>> {
    let p = bytes.get(crate::robots::span(&pattern))?;
    let slash = p.iter().rposition(|&b| b == b'/')?;
    if !p[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let start = bytes.len();
    bytes.extend_from_within(pattern.start as usize..pattern.start as usize + slash + 1);
    bytes.push(b'$');
    Some(start as u32..bytes.len() as u32)
}

/// The entry of one pattern: its priority, and what lets a query skip it cheaply.
fn entry(
    bytes: &[u8],
    wildcards: bool,
    rule: u32,
    at: core::ops::Range<u32>,
    allow: bool,
) -> Entry {
    let pattern = bytes.get(crate::robots::span(&at)).unwrap_or_default();
    let literal = match pattern.split_last() {
        Some((b'$', body)) if wildcards => body,
        _ => pattern,
    };
    // The octets and adjacent pairs of the literal runs (a `*` separates runs).
    let (mut mask, mut pairs) = (0u64, 0u64);
    let mut previous: Option<u8> = None;
    for &b in literal {
        if wildcards && b == b'*' {
            previous = None;
            continue;
        }
        mask |= crate::pattern::octet_bit(b);
        if let Some(a) = previous {
            pairs |= crate::pattern::pair_bit(a, b);
        }
        previous = Some(b);
    }
    let len = at.end - at.start;
    Entry {
        rule,
        start: at.start,
        len,
        priority: len,
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
        mask,
        pairs,
        anchored: literal.len() < pattern.len(),
        star: wildcards && literal.contains(&b'*'),
    }
}

/// Sorts `keys` by their high 32 bits, stably: each key is `sort key << 32 | position`, given
/// in position order. Least-significant-digit radix sort on octets, linear, with only as many
/// passes as the largest sort key has octets. The one sort of the parser (one copy of sorting
/// code in the wasm build, and no comparison-sort worst case).
fn radix_sort(keys: &mut [u64], scratch: &mut Vec<u64>) {
    if keys.len() <= 48 {
        // Few keys: insertion sort (the positions in the low half make whole keys distinct
        // and keep it stable) costs less than clearing the radix sort's counters.
        for i in 1..keys.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                keys.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let max = keys.iter().map(|k| k >> 32).max().unwrap_or(0);
    let passes = (u64::BITS - max.leading_zeros()).div_ceil(8);
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for pass in 0..passes {
        let shift = 32 + pass * 8;
        let mut starts = [0usize; 257];
        for &k in keys.iter() {
            starts[((k >> shift) & 0xFF) as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        for &k in keys.iter() {
            let digit = ((k >> shift) & 0xFF) as usize;
            if let Some(slot) = scratch.get_mut(starts[digit]) {
                *slot = k;
            }
            starts[digit] += 1;
        }
        keys.copy_from_slice(scratch);
    }
}

/// Stable sort of `entries` by `key` (which must fit in 32 bits), through `radix_sort`.
fn sort_entries(
    entries: &mut [Entry],
    key: impl Fn(&Entry) -> u64,
    keys: &mut Vec<u64>,
    scratch: &mut Vec<Entry>,
) {
    let mut order: Vec<u64> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (key(e) << 32) | i as u64)
        .collect();
    radix_sort(&mut order, keys);
    scratch.clear();
    scratch.extend_from_slice(entries);
    for (slot, k) in entries.iter_mut().zip(&order) {
        if let Some(&e) = scratch.get((k & 0xFFFF_FFFF) as usize) {
            *slot = e;
        }
    }
}

fn trim_comment(line: &[u8]) -> &[u8] {
    let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
    crate::lines::trim(&line[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_is_stable_by_the_high_half() {
        let input = [
            (3u64, 0u64),
            (1, 1),
            (3, 2),
            (0, 3),
            (256, 4),
            (1, 5),
            (70_000, 6),
        ];
        let mut keys: Vec<u64> = input.iter().map(|&(k, i)| (k << 32) | i).collect();
        radix_sort(&mut keys, &mut Vec::new());
        let positions: Vec<u64> = keys.iter().map(|k| k & 0xFFFF_FFFF).collect();
        assert_eq!(positions, [3, 1, 5, 0, 2, 4, 6]);
    }
}
