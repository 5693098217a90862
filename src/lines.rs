//! Bytes -> lines -> (key, value): the lexical layer, shared by every dialect.
//!
//! Line breaks follow RFC 9309 §2.2 (`NL = CR / LF / CRLF`) exactly as google/robotstxt splits them
//! (semantics I.1): LF, CR and CRLF each end one line, so "\n\r" is two breaks. A NUL byte ends a
//! line's content (the reference library reads C strings). The last line is always produced, even
//! when empty, so line numbers agree with the reference library.

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
}

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

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.done {
            return None;
        }
        self.number = self.number.saturating_add(1);
        let rest = self.rest;
        // One pass for the line's end and a NUL in it (the common line has neither CR nor NUL).
        let stop = rest.iter().position(|&b| STOP[usize::from(b)]);
        let (content_end, has_nul) = match stop {
            Some(i) if rest[i] == 0 => (i, true),
            _ => (stop.unwrap_or(rest.len()), false),
        };
        let end = if has_nul {
            rest[content_end..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map(|i| i + content_end)
        } else {
            stop
        };
        let next = match end {
            Some(i) => {
                let skip = if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                &rest[i + skip..]
            }
            None => {
                self.done = true;
                &rest[rest.len()..]
            }
        };
        self.rest = next;
        let mut bytes = &rest[..content_end];
        let mut too_long = false;
        if self.max_line != 0 && bytes.len() > self.max_line {
            bytes = &bytes[..self.max_line];
            too_long = true;
        }
        Some(Line {
            number: self.number,
            bytes,
            too_long,
            has_nul,
        })
    }
}

/// Octets that end a line's content: LF, CR and NUL.
const STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[0] = true;
    t
};

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
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
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
