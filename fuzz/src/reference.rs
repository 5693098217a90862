//! The naive reference: path-pattern matching and longest-match decision, written to be
//! obviously correct rather than fast. The ONE copy, used by the `differential` fuzz target and
//! by `tests/reference.rs` (through `#[path = "../fuzz/src/reference.rs"]`).
//!
//! - `matches` is google/robotstxt's `RobotsMatchStrategy::Matches`, position set for position
//!   set: `*` expands the set to every later position, `$` is special only as the last pattern
//!   octet, every other octet is literal. Quadratic; fine for test-sized inputs.
//! - `decide` is RFC 9309 §2.2.2 as google/robotstxt reads it: the matching rule with the longest
//!   pattern (octets, after normalisation) wins, Allow wins ties, the first in file order wins
//!   among equals, an empty pattern never decides (but its line is reported, as the reference
//!   library's `matching_line` does: an empty Allow before an empty Disallow).
//! - `google_rule`, `rfc9309_rule` and `rfc9309_url` are the normalisations the two dialects
//!   apply before comparing (google leaves URLs as given).
#![allow(dead_code)]

/// Whether `pattern` matches `path` from its first octet (RFC 9309 §2.2.2, §2.2.3).
pub fn matches(pattern: &[u8], path: &[u8]) -> bool {
    // Positions of `path` reachable after the pattern read so far, ascending.
    let mut pos: Vec<usize> = vec![0];
    for (i, &c) in pattern.iter().enumerate() {
        if c == b'$' && i + 1 == pattern.len() {
            return pos.contains(&path.len());
        }
        if c == b'*' {
            pos = (pos[0]..=path.len()).collect();
        } else {
            pos = pos
                .into_iter()
                .filter(|&p| path.get(p) == Some(&c))
                .map(|p| p + 1)
                .collect();
            if pos.is_empty() {
                return false;
            }
        }
    }
    true
}

/// One rule as the reference sees it: the pattern is already normalised for its dialect.
#[derive(Clone, Debug)]
pub struct Rule {
    pub allow: bool,
    pub pattern: Vec<u8>,
    pub line: u32,
}

/// The reference verdict: allowed, and the line of the deciding rule (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub line: u32,
}

/// Longest match over `rules` (in file order) for `path`.
pub fn decide(rules: &[Rule], path: &[u8]) -> Decision {
    let mut best: Option<&Rule> = None;
    for r in rules
        .iter()
        .filter(|r| !r.pattern.is_empty() && matches(&r.pattern, path))
    {
        let better = match best {
            None => true,
            Some(b) => {
                r.pattern.len() > b.pattern.len()
                    || (r.pattern.len() == b.pattern.len() && r.allow && !b.allow)
            }
        };
        if better {
            best = Some(r);
        }
    }
    if let Some(b) = best {
        return Decision {
            allowed: b.allow,
            line: b.line,
        };
    }
    let empty = |allow: bool| {
        rules
            .iter()
            .find(|r| r.pattern.is_empty() && r.allow == allow)
    };
    Decision {
        allowed: true,
        line: empty(true).or_else(|| empty(false)).map_or(0, |r| r.line),
    }
}

fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(format!("%{b:02X}").as_bytes());
}

/// google/robotstxt's `MaybeEscapePattern`: `%xx` gets upper-case hex, octets >= 0x80 are escaped.
pub fn google_rule(p: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        if p[i] == b'%' && i + 2 < p.len() && hex(p[i + 1]) && hex(p[i + 2]) {
            out.extend_from_slice(&[
                b'%',
                p[i + 1].to_ascii_uppercase(),
                p[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
            continue;
        }
        if p[i] >= 0x80 {
            escape(&mut out, p[i]);
        } else {
            out.push(p[i]);
        }
        i += 1;
    }
    out
}

/// RFC 9309 §2.2.2 / RFC 3986 §2.1, §2.3, §6.2.2: `%XX` of an unreserved character is decoded,
/// other escapes get upper-case hex; a `%` that starts no escape, non-ASCII, controls and space
/// are escaped. `special` says which literal octets must be escaped so that they compare as
/// their escapes rather than as operators.
fn rfc9309(s: &[u8], special: impl Fn(usize, u8) -> bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() && hex(s[i + 1]) && hex(s[i + 2]) {
            let v =
                u8::from_str_radix(core::str::from_utf8(&s[i + 1..i + 3]).unwrap(), 16).unwrap();
            if v.is_ascii_alphanumeric() || b"-._~".contains(&v) {
                out.push(v);
            } else {
                escape(&mut out, v);
            }
            i += 3;
            continue;
        }
        let b = s[i];
        if b >= 0x80 || b <= b' ' || b == 0x7f || b == b'%' || special(i, b) {
            escape(&mut out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// A rule path: `*` stays a wildcard and a final `$` an anchor; any other `$` is literal.
pub fn rfc9309_rule(p: &[u8]) -> Vec<u8> {
    rfc9309(p, |i, b| b == b'$' && i + 1 != p.len())
}

/// A URL path: a literal `*` or `$` compares as `%2A` / `%24`.
pub fn rfc9309_url(u: &[u8]) -> Vec<u8> {
    rfc9309(u, |_, b| b == b'*' || b == b'$')
}
