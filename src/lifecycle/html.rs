//! Lifecycle, floor 6: the tolerant scanner of an HTML document's head that `meta` reads robots
//! META tags with. Not a DOM: one linear pass finds the `<meta ...>` tags, skipping comments and
//! the contents of `<script>`, `<style>` and the other raw-text elements, and stops at `</head>`
//! or `<body`; attribute values are decoded as HTML does (character references, lossy UTF-8).

use alloc::string::String;
use alloc::vec::Vec;

/// Why scanning stopped.
pub(crate) enum End {
    /// `</head>`, `</body>`, `</html>` or `<body`.
    Head,
    /// The end of the (possibly capped) input, or a tag left open at the end.
    Eof,
}

/// Elements whose content is text, not markup: a `<meta` inside them is not a tag.
const RAW_TEXT: [&[u8]; 9] = [
    b"script",
    b"style",
    b"title",
    b"textarea",
    b"template",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

const fn is_html_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0C)
}

/// One pass over the head; `on_meta(name, content)` for each complete `<meta>` tag, with the
/// raw (still entity-encoded) attribute values.
pub(crate) fn scan<'a>(b: &'a [u8], mut on_meta: impl FnMut(&'a [u8], Option<&'a [u8]>)) -> End {
    walk(b, true, |tag, attrs| {
        if !tag.eq_ignore_ascii_case(b"meta") {
            return;
        }
        // Of a repeated attribute the first counts (as in HTML).
        let first = |key: &[u8]| {
            attrs
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|&(_, v)| v)
        };
        if let Some(n) = first(b"name") {
            on_meta(n, first(b"content"));
        }
    })
}

/// Whether an element named in `elements` carries the attribute `attr`, anywhere in the
/// document (head and body), as the same tokenizer reads it: Google's `data-nosnippet` on
/// `span`, `div` and `section`.
pub(crate) fn has_attribute(b: &[u8], elements: &[&[u8]], attr: &[u8]) -> bool {
    let mut found = false;
    walk(b, false, |tag, attrs| {
        found |= elements.iter().any(|e| tag.eq_ignore_ascii_case(e))
            && attrs.iter().any(|(k, _)| k.eq_ignore_ascii_case(attr));
    });
    found
}

/// One linear pass over the tags of a document: `on_tag(name, attributes)` for each complete
/// start tag, its attributes raw (still entity-encoded) in order, skipping comments, `<!...>`,
/// `<?...>` and the contents of raw-text elements. With `head_only`, it stops at `</head>`,
/// `</body>`, `</html>` or `<body` ([`End::Head`]). The attributes are collected into one buffer,
/// reused from tag to tag.
fn walk<'a>(
    b: &'a [u8],
    head_only: bool,
    mut on_tag: impl FnMut(&'a [u8], &[(&'a [u8], &'a [u8])]),
) -> End {
    let mut attrs: Vec<(&'a [u8], &'a [u8])> = Vec::new();
    let mut i = 0usize;
    loop {
        let Some(off) = b.get(i..).and_then(|r| r.iter().position(|&c| c == b'<')) else {
            return End::Eof;
        };
        i = i.saturating_add(off);
        let rest = b.get(i..).unwrap_or(&[]);
        if rest.starts_with(b"<!--") {
            i = skip_comment(b, i.saturating_add(4));
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            i = skip_past(b, i.saturating_add(2), b'>');
        } else if rest.starts_with(b"</") {
            let (name, after) = tag_name(b, i.saturating_add(2));
            if name.is_empty() {
                i = skip_past(b, i.saturating_add(2), b'>');
                continue;
            }
            if head_only
                && [&b"head"[..], b"body", b"html"]
                    .iter()
                    .any(|t| name.eq_ignore_ascii_case(t))
            {
                return End::Head;
            }
            match attributes(b, after, |_, _| {}) {
                Some(end) => i = end,
                None => return End::Eof,
            }
        } else if rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
            let (name, after) = tag_name(b, i.saturating_add(1));
            if head_only && name.eq_ignore_ascii_case(b"body") {
                return End::Head;
            }
            attrs.clear();
            let Some(end) = attributes(b, after, |k, v| attrs.push((k, v))) else {
                return End::Eof;
            };
            on_tag(name, &attrs);
            i = end;
            if RAW_TEXT.iter().any(|t| name.eq_ignore_ascii_case(t)) {
                match end_tag(b, i, name) {
                    Some(e) => i = e,
                    None => return End::Eof,
                }
            }
        } else {
            i = i.saturating_add(1);
        }
    }
}

/// The tag name starting at `i`, and where it ends.
fn tag_name(b: &[u8], i: usize) -> (&[u8], usize) {
    let rest = b.get(i..).unwrap_or(&[]);
    let len = rest
        .iter()
        .position(|&c| is_html_ws(c) || c == b'/' || c == b'>')
        .unwrap_or(rest.len());
    (rest.get(..len).unwrap_or(&[]), i.saturating_add(len))
}

/// Reads attributes from `i` to the closing `>` as the HTML tokenizer does, calling `f(name,
/// value)` for each (an attribute without a value gets `""`). Returns the index after `>`, or
/// `None` when the input ends first.
fn attributes<'a>(
    b: &'a [u8],
    mut i: usize,
    mut f: impl FnMut(&'a [u8], &'a [u8]),
) -> Option<usize> {
    loop {
        while b.get(i).is_some_and(|&c| is_html_ws(c) || c == b'/') {
            i = i.saturating_add(1);
        }
        if *b.get(i)? == b'>' {
            return Some(i.saturating_add(1));
        }
        // The first character is always part of the name (even `=`), so every round advances.
        let start = i;
        i = i.saturating_add(1);
        while b
            .get(i)
            .is_some_and(|&c| !(is_html_ws(c) || matches!(c, b'/' | b'>' | b'=')))
        {
            i = i.saturating_add(1);
        }
        let name = b.get(start..i).unwrap_or(&[]);
        while b.get(i).is_some_and(|&c| is_html_ws(c)) {
            i = i.saturating_add(1);
        }
        if b.get(i) != Some(&b'=') {
            f(name, &[]);
            continue;
        }
        i = i.saturating_add(1);
        while b.get(i).is_some_and(|&c| is_html_ws(c)) {
            i = i.saturating_add(1);
        }
        match *b.get(i)? {
            q @ (b'"' | b'\'') => {
                let vs = i.saturating_add(1);
                let len = b.get(vs..)?.iter().position(|&c| c == q)?;
                let ve = vs.saturating_add(len);
                f(name, b.get(vs..ve).unwrap_or(&[]));
                i = ve.saturating_add(1);
            }
            b'>' => {
                f(name, &[]);
                return Some(i.saturating_add(1));
            }
            _ => {
                let vs = i;
                while b.get(i).is_some_and(|&c| !(is_html_ws(c) || c == b'>')) {
                    i = i.saturating_add(1);
                }
                f(name, b.get(vs..i).unwrap_or(&[]));
            }
        }
    }
}

/// After `<!--`: the index after the closing `-->` (or `--!>`; `<!-->` and `<!--->` close at
/// once, as in HTML), or the end of input.
fn skip_comment(b: &[u8], i: usize) -> usize {
    let rest = b.get(i..).unwrap_or(&[]);
    if rest.starts_with(b">") {
        return i.saturating_add(1);
    }
    if rest.starts_with(b"->") {
        return i.saturating_add(2);
    }
    let mut j = i;
    loop {
        let Some(off) = b.get(j..).and_then(|r| r.iter().position(|&c| c == b'-')) else {
            return b.len();
        };
        j = j.saturating_add(off);
        let at = b.get(j..).unwrap_or(&[]);
        if at.starts_with(b"-->") {
            return j.saturating_add(3);
        }
        if at.starts_with(b"--!>") {
            return j.saturating_add(4);
        }
        j = j.saturating_add(1);
    }
}

/// The index after the next `c` at or after `i`, or the end of input.
fn skip_past(b: &[u8], i: usize, c: u8) -> usize {
    b.get(i..)
        .and_then(|r| r.iter().position(|&x| x == c))
        .map_or(b.len(), |p| i.saturating_add(p).saturating_add(1))
}

/// The index after the end tag `</name ...>` at or after `i`, or `None` if there is none.
fn end_tag(b: &[u8], mut i: usize, name: &[u8]) -> Option<usize> {
    loop {
        let off = b.get(i..)?.iter().position(|&c| c == b'<')?;
        i = i.saturating_add(off);
        let after_slash = i.saturating_add(2);
        let name_end = after_slash.saturating_add(name.len());
        if b.get(i.saturating_add(1)) == Some(&b'/')
            && b.get(after_slash..name_end)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && b.get(name_end)
                .is_none_or(|&c| is_html_ws(c) || c == b'/' || c == b'>')
        {
            return Some(skip_past(b, name_end, b'>'));
        }
        i = i.saturating_add(1);
    }
}

/// Decodes character references in an attribute value (a small set of named ones and every
/// numeric one) and reads the bytes as UTF-8, replacing invalid sequences with U+FFFD.
pub(crate) fn decode(v: &[u8]) -> String {
    if !v.contains(&b'&') {
        return String::from_utf8_lossy(v).into_owned();
    }
    let mut out: Vec<u8> = Vec::with_capacity(v.len());
    let mut i = 0usize;
    while let Some(&c) = v.get(i) {
        if c == b'&' {
            if let Some((ch, next)) = char_ref(v, i.saturating_add(1)) {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                i = next;
                continue;
            }
        }
        out.push(c);
        i = i.saturating_add(1);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The character reference after a `&` at `i`, and the index after it.
fn char_ref(v: &[u8], i: usize) -> Option<(char, usize)> {
    if v.get(i) == Some(&b'#') {
        let hex = matches!(v.get(i.saturating_add(1)), Some(b'x' | b'X'));
        let start = i.saturating_add(if hex { 2 } else { 1 });
        let mut j = start;
        let mut n: u32 = 0;
        while let Some(&c) = v.get(j) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            n = n
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d)
                .min(0x11_0000);
            j = j.saturating_add(1);
        }
        if j == start {
            return None;
        }
        if v.get(j) == Some(&b';') {
            j = j.saturating_add(1);
        }
        // NUL, surrogates and values past U+10FFFF become U+FFFD, as in HTML.
        let ch = if n == 0 { None } else { char::from_u32(n) };
        return Some((ch.unwrap_or('\u{FFFD}'), j));
    }
    const NAMED: [(&[u8], char, bool); 17] = [
        // (name, character, may appear without `;` — the legacy forms of HTML)
        (b"amp", '&', true),
        (b"AMP", '&', true),
        (b"lt", '<', true),
        (b"LT", '<', true),
        (b"gt", '>', true),
        (b"GT", '>', true),
        (b"quot", '"', true),
        (b"QUOT", '"', true),
        (b"nbsp", '\u{A0}', true),
        (b"apos", '\'', false),
        (b"comma", ',', false),
        (b"colon", ':', false),
        (b"semi", ';', false),
        (b"sol", '/', false),
        (b"equals", '=', false),
        (b"lpar", '(', false),
        (b"rpar", ')', false),
    ];
    let rest = v.get(i..)?;
    let len = rest
        .iter()
        .take(8)
        .position(|c| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len().min(8));
    let name = rest.get(..len)?;
    let (_, ch, legacy) = NAMED.iter().find(|(n, _, _)| *n == name)?;
    let end = i.saturating_add(len);
    match v.get(end) {
        Some(b';') => Some((*ch, end.saturating_add(1))),
        // In attribute values a legacy reference followed by `=` or an alphanumeric stays text.
        Some(b'=') => None,
        Some(c) if c.is_ascii_alphanumeric() => None,
        _ if *legacy => Some((*ch, end)),
        _ => None,
    }
}
