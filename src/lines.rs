//! Floor 1 (a leaf): bytes -> lines -> (key, value): the lexical layer, shared by every dialect.
//!
//! Line breaks follow RFC 9309 §2.2 (`NL = CR / LF / CRLF`) exactly as google/robotstxt splits them
//! (semantics I.1): LF, CR and CRLF each end one line, so "\n\r" is two breaks. A NUL byte ends a
//! line's content (the reference library reads C strings). The last line is always produced, even
//! when empty, so line numbers agree with the reference library.

use crate::pattern::is_uri_excluded;

/// One physical line of the file.
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: u32,
    /// The line's bytes, without the line break, cut at a NUL and at the dialect's line cap.
    pub bytes: &'a [u8],
    /// The line was longer than the dialect keeps.
    pub too_long: bool,
    /// The line contained a NUL byte (its content ends there).
    pub has_nul: bool,
    /// The line split into key and value, as `split` would (found in the same pass).
    pub content: Content<'a>,
    /// The classes (`STAR`, `DOLLAR`, `SPECIAL`) of the value's octets OR-ed together: a
    /// superset (it may include whitespace trimmed off the value) that lets the parser skip
    /// checks a value cannot fail.
    pub value_classes: u8,
    /// The same for the value's octets but its last (a superset too): whether a `$` may stand
    /// before the end, without searching every value that ends with one.
    pub body_classes: u8,
    /// The key is `Disallow` (`RULE_DISALLOW`) or `Allow` (`RULE_ALLOW`) exactly, in any case,
    /// as the lexer recognised it; 0 for any other key.
    pub rule_key: u8,
}

pub(crate) const RULE_ALLOW: u8 = 1;
pub(crate) const RULE_DISALLOW: u8 = 2;

pub(crate) struct Lines<'a> {
    rest: &'a [u8],
    number: u32,
    max_line: usize,
    done: bool,
}

impl<'a> Lines<'a> {
    /// `max_line` of 0 keeps whole lines.
    pub fn new(bytes: &'a [u8], max_line: usize) -> Self {
        Lines {
            rest: bytes,
            number: 0,
            max_line,
            done: false,
        }
    }
}

/// Octet classes of the one-pass lexer (`CLASS`).
const END: u8 = 1; // LF, CR, NUL: the line's content ends
const HASH: u8 = 2; // a comment starts
const COLON: u8 = 4; // the key ends
pub(crate) const STAR: u8 = 8;
pub(crate) const DOLLAR: u8 = 16;
/// What percent-normalisation may change in some dialect: `%`, non-ASCII, controls, space, DEL,
/// and the other characters a URI excludes (`pattern::is_uri_excluded`).
pub(crate) const SPECIAL: u8 = 32;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b'\n' | b'\r' | 0 => END,
            b'#' => HASH,
            b':' => COLON,
            b'*' => STAR,
            b'$' => DOLLAR,
            b'%' | 0x7f.. | ..=b' ' => SPECIAL,
            _ if is_uri_excluded(b) => SPECIAL,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// OR-ed into eight ASCII letters, lower-cases them (only letters are compared after it).
const LOWER: u64 = 0x2020_2020_2020_2020;

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.done {
            return None;
        }
        self.number = self.number.saturating_add(1);
        let rest = self.rest;
        let n = rest.len();
        let limit = if self.max_line != 0 {
            n.min(self.max_line)
        } else {
            n
        };
        // One pass over the line: the key up to the first `:`, then the value up to a `#`, then
        // the comment, each loop testing one table entry per octet.
        let capped = &rest[..limit];
        let find = |from: usize, stop: u8| {
            capped[from..]
                .iter()
                .position(|&b| CLASS[usize::from(b)] & stop != 0)
                .map_or(limit, |j| from + j)
        };
        // `Disallow:` and `Allow:` (in any case), most of a file, are recognised without the
        // loop below, whose exit depends on the key's length: Allow and Disallow lines come in
        // no predictable order, and each such exit was a mispredicted branch.
        let lower = capped
            .first_chunk::<8>()
            .map_or(0, |w| u64::from_le_bytes(*w) | LOWER);
        // (`&`, not `&&`: no branch here either.)
        let disallow = (lower == u64::from_le_bytes(*b"disallow")) & (capped.get(8) == Some(&b':'));
        let allow = (lower & 0xFF_FFFF_FFFF == u64::from_le_bytes(*b"allow\0\0\0"))
            & (capped.get(5) == Some(&b':'));
        let known = usize::from(disallow) * 8 + usize::from(allow) * 5;
        let mut i = if known != 0 {
            known
        } else {
            find(0, END | HASH | COLON)
        };
        let mut colon = None;
        let mut value_start = 0;
        let (mut value_classes, mut body_classes) = (0u8, 0u8);
        if capped.get(i) == Some(&b':') {
            colon = Some(i);
            i += 1;
            // The blanks after the colon are not the value's (its classes would say SPECIAL).
            while capped.get(i).is_some_and(|&b| b == b' ' || b == b'\t') {
                i += 1;
            }
            value_start = i;
            for &b in &capped[i..] {
                let c = CLASS[usize::from(b)];
                if c & (END | HASH) != 0 {
                    break;
                }
                body_classes = value_classes;
                value_classes |= c;
                i += 1;
            }
        }
        let text_end = i; // where the comment (or the content) starts
        if capped.get(i) == Some(&b'#') {
            i = find(i, END);
        }
        // `i` is the first line-ending octet, or the cap, or the end of the file.
        let (content_end, stop, too_long) = if i < limit {
            (i, Some(i), false)
        } else if limit < n {
            // At the cap: the content is cut there when it goes on.
            let stop = rest[limit..]
                .iter()
                .position(|&b| CLASS[usize::from(b)] & END != 0)
                .map(|j| j + limit);
            (limit, stop, stop != Some(limit))
        } else {
            (n, None, false)
        };
        let has_nul = stop.is_some_and(|s| rest[s] == 0);
        let end = if has_nul {
            rest[content_end..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map(|j| j + content_end)
        } else {
            stop
        };
        self.rest = match end {
            Some(e) => {
                let skip = if rest[e] == b'\r' && rest.get(e + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                &rest[e + skip..]
            }
            None => {
                self.done = true;
                &rest[n..]
            }
        };
        let bytes = &rest[..content_end];
        let content = match colon {
            // Nothing to trim off a key the lexer recognised, nor off a value without SPECIAL
            // octets (every `is_space` octet is one): most lines.
            Some(c) => Content::KeyValue {
                key: if known != 0 {
                    &rest[..known]
                } else {
                    trim(&rest[..c])
                },
                value: if value_classes & SPECIAL == 0 {
                    &rest[value_start..text_end]
                } else {
                    trim(&rest[c + 1..text_end.min(content_end)])
                },
                missing_colon: false,
            },
            None => {
                let content = split(bytes);
                if let Content::KeyValue { value, .. } = content {
                    let classes = |v: &[u8]| v.iter().fold(0, |c, &b| c | CLASS[usize::from(b)]);
                    value_classes = classes(value);
                    body_classes = classes(value.split_last().map_or(&[], |(_, body)| body));
                }
                content
            }
        };
        Some(Line {
            number: self.number,
            bytes,
            too_long,
            has_nul,
            content,
            value_classes,
            body_classes,
            rule_key: u8::from(disallow) * RULE_DISALLOW + u8::from(allow) * RULE_ALLOW,
        })
    }
}

/// What a line holds once its comment is removed (RFC 9309 §2.2; semantics I.4-I.6).
pub(crate) enum Content<'a> {
    /// Nothing but whitespace: a blank line (a record boundary in the 1994/1996 texts).
    Blank,
    /// Only a comment (never a record boundary, 1994 standard).
    Comment,
    /// `key: value` (or `key value` without a colon, see `missing_colon`).
    KeyValue {
        key: &'a [u8],
        value: &'a [u8],
        missing_colon: bool,
    },
    /// Text without a separator that cannot be read as `key value`.
    NoSeparator,
}

/// ASCII whitespace as `absl::StripAsciiWhitespace` sees it: space, \t, \n, \v, \f, \r.
pub(crate) const fn is_space(b: u8) -> bool {
    // \t, \n, \v, \f and \r are 9 to 13.
    b == b' ' || b.wrapping_sub(b'\t') < 5
}

pub(crate) fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_space(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_space(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// Splits a line into key and value. Everything from the first `#` is a comment. The first `:`
/// separates key from value; without one, a line of exactly two whitespace-separated words is
/// `key value` (google/robotstxt's tolerance, reported as `missing_colon`).
pub(crate) fn split(line: &[u8]) -> Content<'_> {
    let (text, has_comment) = match line.iter().position(|&b| b == b'#') {
        Some(i) => (&line[..i], true),
        None => (line, false),
    };
    let text = trim(text);
    if text.is_empty() {
        return if has_comment {
            Content::Comment
        } else {
            Content::Blank
        };
    }
    if let Some(colon) = text.iter().position(|&b| b == b':') {
        return Content::KeyValue {
            key: trim(&text[..colon]),
            value: trim(&text[colon + 1..]),
            missing_colon: false,
        };
    }
    // No colon: accept `key value` only when there are exactly two words (space or tab between).
    if let Some(sep) = text.iter().position(|&b| b == b' ' || b == b'\t') {
        let value = trim(&text[sep..]);
        if !value.iter().any(|&b| b == b' ' || b == b'\t') {
            return Content::KeyValue {
                key: trim(&text[..sep]),
                value,
                missing_colon: true,
            };
        }
    }
    Content::NoSeparator
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn numbers(input: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(input, 0).map(|l| (l.number, l.bytes)).collect()
    }

    #[test]
    fn line_breaks() {
        assert_eq!(
            numbers(b"a\nb\r\nc\rd"),
            [(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b"d")]
        );
        assert_eq!(numbers(b"a\n\rb"), [(1, &b"a"[..]), (2, b""), (3, b"b")]);
        assert_eq!(numbers(b"a\n"), [(1, &b"a"[..]), (2, b"")]);
        assert_eq!(numbers(b""), [(1, &b""[..])]);
    }

    /// What `split` makes of a line, as comparable values (slices as their offsets in `input`;
    /// where an empty one stands does not matter).
    fn parts(input: &[u8], content: &Content<'_>) -> (u8, usize, usize, usize, usize, bool) {
        let at = |s: &[u8]| match s.is_empty() {
            true => 0,
            false => s.as_ptr() as usize - input.as_ptr() as usize,
        };
        match *content {
            Content::Blank => (0, 0, 0, 0, 0, false),
            Content::Comment => (1, 0, 0, 0, 0, false),
            Content::NoSeparator => (2, 0, 0, 0, 0, false),
            Content::KeyValue {
                key,
                value,
                missing_colon,
            } => (3, at(key), key.len(), at(value), value.len(), missing_colon),
        }
    }

    /// The one-pass lexer (its shortcuts: recognised keys, values not trimmed, classes) against
    /// `split`, the plain reading of a line, on random lines over the octets that matter.
    #[test]
    fn lexer_agrees_with_split() {
        const ALPHABET: &[u8] = b"aAlLowWdDisS: \t#\n\r\0*$%/\x0b\x0c\x7f\xc3-";
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let words: [&[u8]; 6] = [
            b"Disallow:",
            b"allow:",
            b"DISALLOW: /x",
            b"Allow :",
            b"disallowed:",
            b"allo:",
        ];
        for _ in 0..30_000 {
            let mut input = Vec::new();
            while input.len() < (next() % 100) as usize {
                if next() % 3 == 0 {
                    input.extend_from_slice(words[(next() % 6) as usize]);
                } else {
                    input.push(ALPHABET[(next() % ALPHABET.len() as u64) as usize]);
                }
            }
            for max_line in [0, 7, 16] {
                for line in Lines::new(&input, max_line) {
                    let expected = split(line.bytes);
                    assert_eq!(
                        parts(&input, &line.content),
                        parts(&input, &expected),
                        "{input:?}"
                    );
                    let classes = |v: &[u8]| {
                        v.iter().fold(0, |c, &o| c | CLASS[usize::from(o)])
                            & (STAR | DOLLAR | SPECIAL)
                    };
                    if let Content::KeyValue { key, value, .. } = line.content {
                        let own = classes(value);
                        let body = classes(value.split_last().map_or(&[], |(_, b)| b));
                        assert_eq!(line.value_classes & own, own, "{input:?}");
                        assert_eq!(line.body_classes & body, body, "{input:?}");
                        match line.rule_key {
                            RULE_DISALLOW => assert!(key.eq_ignore_ascii_case(b"disallow")),
                            RULE_ALLOW => assert!(key.eq_ignore_ascii_case(b"allow")),
                            _ => {}
                        }
                    } else {
                        assert_eq!(line.rule_key, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn nul_and_cap() {
        let l: Vec<_> = Lines::new(b"abc\0def\nxyz", 2).collect();
        assert_eq!(l[0].bytes, b"ab");
        assert!(l[0].has_nul && l[0].too_long);
        assert_eq!(l[1].bytes, b"xy");
    }

    #[test]
    fn key_value() {
        match split(b"  Disallow : /a # c") {
            Content::KeyValue {
                key,
                value,
                missing_colon,
            } => {
                assert_eq!(
                    (key, value, missing_colon),
                    (&b"Disallow"[..], &b"/a"[..], false)
                );
            }
            _ => panic!(),
        }
        assert!(matches!(
            split(b"disallow /a"),
            Content::KeyValue {
                missing_colon: true,
                ..
            }
        ));
        assert!(matches!(split(b"disallow /a /b"), Content::NoSeparator));
        assert!(matches!(split(b"   # x"), Content::Comment));
        assert!(matches!(split(b" \t "), Content::Blank));
    }
}
