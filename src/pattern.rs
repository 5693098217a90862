//! Floor 1 (a leaf; uses `dialect`): path patterns: normalisation (per dialect) and matching.
//!
//! Matching is linear in (path length + pattern length) for every pattern, hostile ones included:
//! a pattern `S0*S1*...*Sn[$]` matches when `S0` is a prefix, each middle segment is found at its
//! leftmost position after the previous one (leftmost is always safe for `*`-only globs), and the
//! last segment is found after them (or ends the path, with `$`). Substring search compares
//! short needles directly and finds long ones by Knuth-Morris-Pratt (`find_bytes`), linear, with
//! its prefix table on the stack for needles up to `STACK_TABLE` octets.

use alloc::vec::Vec;

use crate::dialect::PercentEncoding;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The printable ASCII characters that may not appear in a URI (RFC 3986 §2: `<`, `>`, `"`,
/// `^`, `` ` ``, `{`, `|`, `}`): RFC 9309 normalisation compares them percent-encoded on both
/// sides, as it does space, controls and non-ASCII (docs/records.md). (The backslash, which
/// browsers read as `/`, is left as written.)
pub(crate) const fn is_uri_excluded(b: u8) -> bool {
    matches!(b, b'<' | b'>' | b'"' | b'^' | b'`' | b'{' | b'|' | b'}')
}

/// RFC 3986 §2.3 unreserved characters.
const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn push_escaped(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

/// Which side of the comparison a string is: rules keep `*` and a final `$` special.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Rule,
    Url,
}

/// The bit of an octet in a 64-bit octet set (see `CompiledSet::filters`).
pub(crate) const fn octet_bit(b: u8) -> u64 {
    1 << (b & 63)
}

/// Octets that RFC 9309 normalisation may change: non-ASCII, controls, space, the other
/// characters a URI excludes, `%`, `$`, `*`.
const RFC_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b >= 0x80
            || b <= b' '
            || b == 0x7f
            || is_uri_excluded(b)
            || b == b'%'
            || b == b'$'
            || b == b'*';
        i += 1;
    }
    t
};

/// The bit of a pair of adjacent octets in a 64-bit set (see `Entry::pairs`).
pub(crate) const fn pair_bit(a: u8, b: u8) -> u64 {
    1 << (((a as u32) << 8 | b as u32).wrapping_mul(0x9E37_79B1) >> 26)
}

/// The octet set of `s` (see `CompiledSet::filters`).
pub(crate) fn octets(s: &[u8]) -> u64 {
    s.iter().fold(0, |m, &b| m | octet_bit(b))
}

/// The adjacent-pair set of `s` (see `Entry::pairs`).
pub(crate) fn pairs(s: &[u8]) -> u64 {
    s.windows(2).fold(0, |m, w| m | pair_bit(w[0], w[1]))
}

/// Classes of a URL's octets for `scan_path` and `url::path_start` (a table lookup per octet:
/// in WebAssembly, the five comparisons that end an authority cost twice as much).
pub(crate) const URL_END: u8 = 1; // `#` (the fragment) or NUL (the reference library's C string)
pub(crate) const URL_RFC_SPECIAL: u8 = 2; // `RFC_SPECIAL`
pub(crate) const URL_PERCENT: u8 = 4; // `%`
pub(crate) const URL_AUTHORITY_END: u8 = 8; // `/`, `?`, `;`, `#` or NUL (`url::path_start`)
pub(crate) const URL_NON_ASCII: u8 = 16; // 0x80 and over

pub(crate) const URL_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b == b'#' || b == 0 {
            URL_END
        } else if RFC_SPECIAL[i] {
            URL_RFC_SPECIAL | if b == b'%' { URL_PERCENT } else { 0 }
        } else {
            0
        } | if matches!(b, b'/' | b'?' | b';' | b'#' | 0) {
            URL_AUTHORITY_END
        } else {
            0
        } | if b >= 0x80 { URL_NON_ASCII } else { 0 };
        i += 1;
    }
    t
};

/// One pass over a URL's path (`/...`, or the part of a URL a dialect matches): where it ends
/// (at `#` or NUL), its octet set, and the classes of its octets (`URL_RFC_SPECIAL`,
/// `URL_PERCENT`, `URL_NON_ASCII`) OR-ed together.
pub(crate) fn scan_path(s: &[u8]) -> (usize, u64, u8) {
    let (mut mask, mut classes) = (0u64, 0u8);
    // Four octets per iteration while none ends the path: in WebAssembly a loop's own cost,
    // which includes a stack-limit test per iteration, is most of an octet's (small.txt's
    // queries, one at a time 415 instructions in this function, two at a time 305; four at a
    // time, about 40-60 fewer per query than two, for 23 B of gzip'd .wasm).
    let mut at = 0;
    while let Some(&[a, b, c, d]) = s.get(at..at + 4) {
        let k = URL_CLASS[usize::from(a)]
            | URL_CLASS[usize::from(b)]
            | URL_CLASS[usize::from(c)]
            | URL_CLASS[usize::from(d)];
        if k & URL_END != 0 {
            break;
        }
        classes |= k;
        mask |= octet_bit(a) | octet_bit(b) | octet_bit(c) | octet_bit(d);
        at += 4;
    }
    while let Some(&b) = s.get(at) {
        let c = URL_CLASS[usize::from(b)];
        if c & URL_END != 0 {
            break;
        }
        classes |= c;
        mask |= octet_bit(b);
        at += 1;
    }
    (at, mask, classes)
}

/// Whether `normalize` would change `s` (so the common case borrows instead of allocating).
pub(crate) fn needs_normalizing(s: &[u8], pct: PercentEncoding, side: Side) -> bool {
    match pct {
        PercentEncoding::None => false,
        PercentEncoding::Google => side == Side::Rule && s.iter().any(|&b| b >= 0x80 || b == b'%'),
        PercentEncoding::DecodeExceptSlash => s.contains(&b'%'),
        // A rule's `*` and final `$` stay as they are.
        PercentEncoding::Rfc9309 if side == Side::Rule => match s.split_last() {
            Some((&last, body)) => {
                body.iter()
                    .any(|&b| b != b'*' && RFC_SPECIAL[usize::from(b)])
                    || (last != b'*' && last != b'$' && RFC_SPECIAL[usize::from(last)])
            }
            None => false,
        },
        PercentEncoding::Rfc9309 => s.iter().any(|&b| RFC_SPECIAL[usize::from(b)]),
    }
}

/// Normalises a rule path or a URL path for comparison, appending to `out`.
///
/// - `Rfc9309` (§2.2.2): `%XX` of an unreserved character is decoded, other escapes get upper-case
///   hex, non-ASCII octets, controls and space are escaped. In URLs a literal `*` or `$` becomes
///   `%2A`/`%24` so that rules written with those escapes match them; in rules a `$` that is not
///   the last character is literal and escaped the same way.
/// - `Google` (semantics I.8): rules only; octets >= 0x80 escaped, hex of `%xx` upper-cased.
/// - `DecodeExceptSlash` (1996 §3.2.2): every `%xx` decoded except `%2F`.
#[inline(never)]
pub(crate) fn normalize(s: &[u8], pct: PercentEncoding, side: Side, out: &mut Vec<u8>) {
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        // (The hex digits are read only after a `%`: most octets are plain.)
        let escape = match b {
            b'%' => match (
                s.get(i + 1).copied().and_then(hex_value),
                s.get(i + 2).copied().and_then(hex_value),
            ) {
                (Some(h), Some(l)) => Some((h << 4) | l),
                _ => None,
            },
            _ => None,
        };
        match pct {
            PercentEncoding::None => out.push(b),
            PercentEncoding::Google => {
                if side == Side::Url {
                    out.push(b);
                } else if let Some(v) = escape {
                    push_escaped(out, v);
                    i += 2;
                } else if b >= 0x80 {
                    push_escaped(out, b);
                } else {
                    out.push(b);
                }
            }
            PercentEncoding::DecodeExceptSlash => match escape {
                Some(b'/') => {
                    out.extend_from_slice(b"%2F");
                    i += 2;
                }
                Some(v) => {
                    out.push(v);
                    i += 2;
                }
                None => out.push(b),
            },
            PercentEncoding::Rfc9309 => match escape {
                Some(v) if is_unreserved(v) => {
                    out.push(v);
                    i += 2;
                }
                Some(v) => {
                    push_escaped(out, v);
                    i += 2;
                }
                None => {
                    let last = i + 1 == s.len();
                    let literal_special = match side {
                        Side::Url => b == b'*' || b == b'$',
                        Side::Rule => b == b'$' && !last,
                    };
                    // RFC_SPECIAL but `*` and `$`, which only `literal_special` escapes. (A
                    // table, not a chain of comparisons: parsing large.txt was 10% slower.)
                    if literal_special || (RFC_SPECIAL[usize::from(b)] && b != b'*' && b != b'$') {
                        push_escaped(out, b);
                    } else {
                        out.push(b);
                    }
                }
            },
        }
        i += 1;
    }
}

/// A compiled rule path, as the matcher sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compiled<'a> {
    /// The pattern without a final `$`.
    pub body: &'a [u8],
    /// The pattern ended with `$` (wildcard dialects only).
    pub anchored: bool,
    /// The body has a `*` wildcard (wildcard dialects only).
    pub star: bool,
}

impl<'a> Compiled<'a> {
    /// Reads a normalised rule path (Allow/Disallow rules are compiled with their flags stored;
    /// Content-Usage paths, matched only when preferences are asked for, are read here).
    #[cfg(any(test, feature = "aipref"))]
    pub fn new(pattern: &'a [u8], wildcards: bool) -> Self {
        let (body, anchored) = match pattern.split_last() {
            Some((b'$', body)) if wildcards => (body, true),
            _ => (pattern, false),
        };
        Compiled {
            body,
            anchored,
            star: wildcards && body.contains(&b'*'),
        }
    }

    /// Whether the pattern matches `path` from its first octet (RFC 9309 §2.2.2).
    ///
    /// Always inlined: it is the body of the hot loop of every query (`first_match` in decide.rs).
    /// With a second caller (AI preferences' Content-Usage rules) the optimiser kept it out of
    /// line at opt-level "s", and every `isAllowed` on medium and large files was 4% slower
    /// through the npm package (`npm run bench -- --baseline DIR`).
    #[inline(always)]
    pub fn matches(&self, subject: &Subject<'_>) -> bool {
        let path = subject.bytes;
        if !self.star {
            return if self.anchored {
                path == self.body
            } else {
                path.starts_with(self.body)
            };
        }
        if self.anchored {
            // Cheap rejection first: an anchored pattern's last segment must end the path.
            let tail = self.body.rsplit(|&b| b == b'*').next().unwrap_or_default();
            if !path.ends_with(tail) {
                return false;
            }
        }
        let mut segments = self.body.split(|&b| b == b'*');
        let first = segments.next().unwrap_or_default();
        if !path.starts_with(first) {
            return false;
        }
        let mut at = first.len();
        let mut last = None;
        for segment in segments {
            if let Some(previous) = last.replace(segment) {
                match find(subject, at, previous) {
                    Some(i) => at += i + previous.len(),
                    None => return false,
                }
            }
        }
        let last = last.unwrap_or_default();
        if self.anchored {
            path.get(at..).unwrap_or_default().ends_with(last)
        } else {
            find(subject, at, last).is_some()
        }
    }
}

/// Offset, relative to `from`, of the leftmost occurrence of `needle` in `path[from..]`, in time
/// linear in the rest of the path: short needles by direct comparison (at most 32 octets compared
/// per position), longer ones by Knuth-Morris-Pratt (`find_long`).
pub(crate) fn find(path: &Subject<'_>, from: usize, needle: &[u8]) -> Option<usize> {
    let haystack = path.bytes.get(from..)?;
    match needle {
        [] => Some(0),
        [single] => haystack.iter().position(|b| b == single),
        [first, rest @ ..] if needle.len() <= 32 => {
            // Candidates by their first octet, then at most 7 more octets compared in place
            // (a `memcmp` call or a Two-Way searcher's setup would cost more than the search).
            let last_start = haystack.len().checked_sub(needle.len())?;
            let mut i = 0;
            while i <= last_start {
                i += haystack[i..=last_start].iter().position(|b| b == first)?;
                if haystack[i + 1..].iter().zip(rest).all(|(a, b)| a == b) {
                    return Some(i);
                }
                i += 1;
            }
            None
        }
        _ => find_long(path, from, needle),
    }
}

/// `find` for a needle over 32 octets: Knuth-Morris-Pratt, linear in the path and the needle
/// whatever they hold (hostile patterns stay linear: tests/reference.rs). Out of line: rare.
/// core's `str::find` (Two-Way) was 2.4 KB more of the verdict module's code (1 KB of its gzip),
/// and needed the path validated as UTF-8 first.
#[cold]
#[inline(never)]
fn find_long(path: &Subject<'_>, from: usize, needle: &[u8]) -> Option<usize> {
    find_bytes(path.bytes.get(from..)?, needle)
}

/// A path to match (`Compiled::matches`).
pub(crate) struct Subject<'p> {
    pub bytes: &'p [u8],
}

impl<'p> Subject<'p> {
    pub fn new(bytes: &'p [u8]) -> Self {
        Subject { bytes }
    }
}

/// The prefix table of needles up to this many octets is kept on the stack: no allocation on a
/// query unless a literal run of a rule is longer than that.
const STACK_TABLE: usize = 128;

/// Knuth-Morris-Pratt over a prefix table: where `needle` first occurs in `haystack`.
fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let mut stack = [0u32; STACK_TABLE];
    let mut heap = alloc::vec::Vec::new();
    let table: &mut [u32] = if needle.len() <= STACK_TABLE {
        stack.get_mut(..needle.len())?
    } else {
        heap.resize(needle.len(), 0);
        &mut heap
    };
    let at = |i: usize| needle.get(i).copied();
    let mut k = 0usize;
    for i in 1..needle.len() {
        while k > 0 && at(i) != at(k) {
            k = table.get(k - 1).map_or(0, |&t| t as usize);
        }
        if at(i) == at(k) {
            k += 1;
        }
        if let Some(t) = table.get_mut(i) {
            *t = k as u32;
        }
    }
    let mut k = 0usize;
    for (i, &b) in haystack.iter().enumerate() {
        while k > 0 && Some(b) != at(k) {
            k = table.get(k - 1).map_or(0, |&t| t as usize);
        }
        if Some(b) == at(k) {
            k += 1;
            if k == needle.len() {
                return Some(i + 1 - k);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, path: &str) -> bool {
        Compiled::new(p.as_bytes(), true).matches(&Subject::new(path.as_bytes()))
    }

    #[test]
    fn wildcards() {
        assert!(m("/", "/anything"));
        assert!(m("/*.php$", "/a/b.php"));
        assert!(!m("/*.php$", "/a/b.php5"));
        assert!(m("/a*b*c", "/aXbYc"));
        assert!(!m("/a*b*c", "/aXcYb"));
        assert!(m("/fish*", "/fish"));
        assert!(m("*", "/"));
        assert!(m("/a$b", "/a$b"));
        assert!(!m("/$", "/a"));
        assert!(m("/$", "/"));
        assert!(m("/**/x$", "/y/x"));
    }

    /// `scan_path` (four octets at a time) agrees with the plain reading of one octet at a time:
    /// every length, every position of the end, and every octet before it.
    #[test]
    fn scan_path_agrees_with_one_octet_at_a_time() {
        let plain = |s: &[u8]| {
            let end = s
                .iter()
                .position(|&b| b == b'#' || b == 0)
                .unwrap_or(s.len());
            let classes = s[..end]
                .iter()
                .fold(0, |c, &b| c | URL_CLASS[usize::from(b)]);
            (end, octets(&s[..end]), classes)
        };
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for len in 0..12 {
            let base: Vec<u8> = (0..len).map(|i| b"/a%b*c d~"[i % 9]).collect();
            cases.push(base.clone());
            for at in 0..len {
                for end in [b'#', 0] {
                    let mut s = base.clone();
                    s[at] = end;
                    cases.push(s);
                }
            }
        }
        for b in 0..=255u8 {
            cases.push([b'/', b].to_vec());
            cases.push([b'/', b'x', b].to_vec());
        }
        for s in cases {
            assert_eq!(scan_path(&s), plain(&s), "{s:?}");
        }
    }

    #[test]
    fn kmp_fallback() {
        assert_eq!(find_bytes(b"\xffaab\xff", b"ab"), Some(2));
        assert_eq!(find_bytes(b"aaaa", b"aab"), None);
        assert_eq!(find_bytes(b"abababc", b"ababc"), Some(2));
    }

    /// Every needle and haystack over a two-letter alphabet up to 10 octets, and needles past the
    /// stack table, against the obvious search.
    #[test]
    fn kmp_agrees_with_a_plain_search() {
        use alloc::vec;
        use alloc::vec::Vec;
        fn plain(h: &[u8], n: &[u8]) -> Option<usize> {
            (0..=h.len().checked_sub(n.len())?).find(|&i| &h[i..i + n.len()] == n)
        }
        let words = |len: usize| {
            (0u32..1 << len).map(move |bits| {
                (0..len)
                    .map(|i| b'a' + ((bits >> i) & 1) as u8)
                    .collect::<Vec<u8>>()
            })
        };
        for hl in 0..=10 {
            for h in words(hl) {
                for nl in 1..=5.min(hl + 1) {
                    for n in words(nl) {
                        assert_eq!(find_bytes(&h, &n), plain(&h, &n), "{h:?} {n:?}");
                    }
                }
            }
        }
        for len in [
            STACK_TABLE - 1,
            STACK_TABLE,
            STACK_TABLE + 1,
            3 * STACK_TABLE,
        ] {
            let mut needle = vec![b'a'; len];
            needle[len - 1] = b'b';
            let mut hay = vec![b'a'; 2 * len];
            hay.extend_from_slice(&needle);
            assert_eq!(find_bytes(&hay, &needle), plain(&hay, &needle), "{len}");
            assert_eq!(find_bytes(&hay[..hay.len() - 1], &needle), None, "{len}");
        }
    }

    #[test]
    fn rfc_normalization() {
        let mut out = Vec::new();
        normalize(
            "/a%62%2f%7e/ツ $x".as_bytes(),
            PercentEncoding::Rfc9309,
            Side::Rule,
            &mut out,
        );
        assert_eq!(out, b"/ab%2F~/%E3%83%84%20%24x");
    }
}
