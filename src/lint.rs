//! Diagnostics: what the parser noticed, for site owners (the `lint` command, the playground).
//!
//! Parsing never fails (RFC 9309 §2.3.1.5): every line that cannot be used becomes a diagnostic.
//! Messages are static text plus an optional detail, so no formatting machinery is needed.
//!
//! The findings about a group's rules as a whole (duplicates, conflicts, shadowed rules) are
//! made when the diagnostics are first asked for (`Robots::diagnostics`), not at parse time: a
//! crawler parses and queries, and never asks.

use alloc::string::String;
use alloc::vec::Vec;

use crate::dialect::Precedence;
use crate::robots::{span, Robots, Rule, RuleKind};

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing; nothing is lost.
    Info,
    /// Accepted, but not standard or probably not what was meant.
    Warning,
    /// A line (or part of the file) is ignored, so the file does not say what its author meant.
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $severity:ident, $message:literal;)*) => {
        /// What a diagnostic is about. `as_str` is a stable kebab-case code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// Every code, for documentation and tests.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, e.g. `missing-colon`.
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The usual severity; a dialect that tolerates the problem lowers it.
            pub const fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// A sentence a person can act on.
            pub const fn message(self) -> &'static str {
                match self { $(Code::$variant => $message,)* }
            }
        }
    };
}

codes! {
    Bom = "bom", Info, "The file starts with a UTF-8 byte order mark; it is skipped.";
    Utf16 = "utf-16", Error, "The file is UTF-16 encoded; robots.txt must be UTF-8 (RFC 9309 §2.3). Save it as UTF-8.";
    InvalidUtf8 = "invalid-utf8", Warning, "This line is not valid UTF-8 (RFC 9309 §2.3 requires UTF-8); its bytes are compared as they are.";
    NulByte = "nul-byte", Warning, "This line contains a NUL byte; everything after it on the line is ignored.";
    Html = "html", Error, "This looks like an HTML page, not a robots.txt file: check what the server returns for /robots.txt.";
    LineTooLong = "line-too-long", Warning, "This line is longer than the dialect reads; the rest of it is ignored.";
    LongLine = "long-line", Warning, "This line is longer than 16,663 bytes: Google's parser ignores the rest of it, so Googlebot may read a different rule.";
    Truncated = "truncated", Error, "The file is larger than the size limit; everything from here on is ignored (RFC 9309 §2.5).";
    MissingColon = "missing-colon", Error, "This line has no ':' after its field name, so it is ignored. Write it as 'field: value'.";
    MissingColonAccepted = "missing-colon-accepted", Warning, "This line has no ':' after its field name; this dialect reads it anyway, others ignore it.";
    UnknownField = "unknown-field", Warning, "Unknown field; it is ignored.";
    Typo = "typo", Warning, "Misspelt field name, read as the field it resembles; other parsers may ignore it.";
    KeyPrefix = "key-prefix", Warning, "Field name only starts with a known name; this dialect reads it as that field, others ignore it.";
    RuleOutsideGroup = "rule-outside-group", Error, "This rule is not in any group (no User-agent line before it since the file or record started), so it is ignored.";
    BlankLineEndsGroup = "blank-line-ends-group", Warning, "A blank line ends the record in this dialect, so the rules after it belong to no group. Remove the blank line.";
    EmptyUserAgent = "empty-user-agent", Warning, "User-agent line with no product token; it matches no crawler.";
    InvalidProductToken = "invalid-product-token", Warning, "A product token may contain only letters, '-' and '_' (RFC 9309 §2.2.1); parsers disagree on how to read this one.";
    EmptyGroup = "empty-group", Info, "This group has no rules, so it allows everything for the crawlers it names.";
    PatternNoSlash = "pattern-no-slash", Warning, "A path pattern must start with '/' (or '*'); this one can never match.";
    EmptyRule = "empty-rule", Info, "An empty rule has no effect.";
    AllowIgnored = "allow-ignored", Warning, "Allow is not part of this dialect; the line is ignored. Crawlers of this dialect may be kept out of URLs you meant to allow.";
    WildcardLiteral = "wildcard-literal", Info, "'*' and '$' have no special meaning in this dialect; they are matched literally.";
    DollarNotAtEnd = "dollar-not-at-end", Info, "'$' only anchors the end of a pattern when it is the last character; here it is a literal '$'.";
    DuplicateRule = "duplicate-rule", Warning, "The same rule appears earlier in this group; this one never decides.";
    ShadowedRule = "shadowed-rule", Warning, "An earlier or more specific rule always decides first, so this rule can never decide.";
    ConflictingRules = "conflicting-rules", Warning, "Allow and Disallow with the same path: Allow wins (RFC 9309 §2.2.2), so the Disallow never decides.";
    MultipleDefaultGroups = "multiple-default-groups", Warning, "More than one 'User-agent: *' record; only the first one is used in this dialect.";
    RecordOutsideGroup = "record-outside-group", Info, "This record is not in any group; it applies to the whole file.";
    InvalidCrawlDelay = "invalid-crawl-delay", Warning, "Crawl-delay must be a number of seconds; this value is ignored.";
    SitemapNotAbsolute = "sitemap-not-absolute", Warning, "A Sitemap value must be a full URL (https://...).";
    Ignored = "ignored-line", Error, "This line has no field name; it is ignored.";
}

/// One finding, attached to a line (0 for the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub severity: Severity,
    pub code: Code,
    /// The text concerned (a field name, a token, a pattern), when there is one.
    pub detail: Option<String>,
}

impl Diagnostic {
    /// The message with its detail, for people: `message (detail)`.
    pub fn message(&self) -> String {
        let mut s = String::from(self.code.message());
        if let Some(detail) = &self.detail {
            s.push_str(" (");
            s.push_str(detail);
            s.push(')');
        }
        s
    }
}

/// Every diagnostic of a parsed file, in line order (each line's in the order found): what the
/// parser found, plus the findings about each group's rules.
pub(crate) fn diagnostics(r: &Robots) -> Vec<Diagnostic> {
    let mut all = r.found.clone();
    for g in 0..r.groups.len() {
        group_findings(r, g, &mut all);
    }
    // By line (the sort is stable).
    let mut keys: Vec<(u64, u64)> = (all.iter().enumerate())
        .map(|(i, d)| (u64::from(d.line), i as u64))
        .collect();
    crate::parse::radix_sort(&mut keys, &mut Vec::new());
    let mut found: Vec<Option<Diagnostic>> = all.into_iter().map(Some).collect();
    keys.iter()
        .filter_map(|&(_, i)| found.get_mut(i as usize)?.take())
        .collect()
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
