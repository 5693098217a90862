//! Floor 5: lines -> groups, rules and records: the one place that knows the file's structure,
//! and the constructors of the facade (`Robots::parse`, `parse_with`, `reparse`, `default`).
//!
//! Parsing never fails (RFC 9309 §2.3.1.5): every line that can be understood is used, and every
//! other line becomes a diagnostic. At the end the rule sets that queries run against are built,
//! so a query never re-reads the file.

mod builder;
mod fields;
mod groups;
mod index;
mod lines;
#[cfg(feature = "aipref")]
mod usage;
mod utf16;

use alloc::vec::Vec;

use crate::diagnostic::Code;
use crate::dialect::{Dialect, DialectId};
use crate::lines::{is_space, Lines};
use crate::model::Scratch;
use crate::options::Options;
use crate::robots::Robots;
use builder::Builder;
use utf16::{utf16_bom, Utf16};

/// An empty robots.txt (everything is allowed) in the default dialect, holding no memory: what
/// [`Robots::reparse`] can fill.
impl Default for Robots {
    fn default() -> Self {
        empty(DialectId::Rfc9309.dialect())
    }
}

impl Robots {
    /// Parses a robots.txt in the default dialect (RFC 9309) with the default size cap.
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with(bytes, &Options::default())
    }

    /// Parses a robots.txt as `options` say. Never fails: see [`Robots::diagnostics`].
    pub fn parse_with(bytes: &[u8], options: &Options) -> Robots {
        let mut r = Robots::default();
        parse(bytes, options, &mut r);
        r
    }

    /// Parses another robots.txt into this value, reusing its memory: the same result as
    /// `*self = Robots::parse_with(bytes, options)`, with most of the allocations saved (a
    /// crawler that parses one site's file after another). The arrays keep the capacity of the
    /// largest file parsed into them; drop the value to give that memory back.
    ///
    /// ```
    /// use robots_eval::{Options, Robots};
    /// let mut robots = Robots::default(); // an empty file: everything is allowed
    /// assert!(robots.is_allowed("/x", "bot"));
    /// robots.reparse(b"User-agent: *\nDisallow: /x\n", &Options::default());
    /// assert!(!robots.is_allowed("/x", "bot"));
    /// robots.reparse(b"User-agent: bot\nDisallow: /y\n", &Options::default());
    /// assert!(robots.is_allowed("/x", "bot") && !robots.is_allowed("/y", "bot"));
    /// ```
    pub fn reparse(&mut self, bytes: &[u8], options: &Options) {
        parse(bytes, options, self);
    }
}

/// Parses `input` into `r` as `options` say. Never fails, never panics. `r`'s arrays (a file
/// parsed before, or empty ones) are emptied and filled again instead of allocating new ones.
/// Out of line: `Robots::parse_with` and `Robots::reparse` share one copy (the wasm module's
/// size, and what V8 compiles for a process's first parse).
#[inline(never)]
pub(crate) fn parse(input: &[u8], options: &Options, r: &mut Robots) {
    let dialect = options.dialect.dialect();
    let transcoded: Vec<u8>;
    // A rule line is rarely shorter than 20 bytes: reserve once instead of growing.
    reset(r, dialect, input.len().min(options.max_bytes) / 20);
    let mut b = Builder {
        source: None,
        base: 0,
        source_len: 0,
        r,
        current: None,
        seen_rule: false,
        ended_by_blank: false,
        in_run: false,
        run_start: 0,
        host_seen: false,
    };

    let mut bytes = input;
    if bytes.len() > options.max_bytes {
        bytes = &bytes[..options.max_bytes];
        b.r.truncated = true;
    }
    b.r.bytes_read = bytes.len();

    // UTF-16 is not robots.txt's encoding, but RFC 9309 §2.3 lets crawlers bridge encoding
    // mismatches (`Builder::utf16`).
    if let Some(big_endian) = utf16_bom(bytes) {
        match b.utf16(&bytes[2..], big_endian) {
            Utf16::AsIs => {}
            Utf16::Strip => bytes = &bytes[2..],
            Utf16::Transcode(text) => {
                transcoded = text;
                bytes = &transcoded;
            }
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
    // The file's bytes once, plus room for what normalisation adds (patterns, lower-cased tokens).
    b.r.bytes.reserve(bytes.len() + bytes.len() / 8 + 64);
    b.r.bytes.extend_from_slice(bytes);
    b.base = bytes.as_ptr() as usize;
    b.source_len = bytes.len();
    b.r.text_len = bytes.len() as u32;

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
    b.finish();
}

/// A parsed form with nothing in it yet (no allocation).
fn empty(dialect: Dialect) -> Robots {
    Robots {
        dialect,
        groups: Vec::new(),
        agents: Vec::new(),
        rules: Vec::new(),
        records: Vec::new(),
        usage: Vec::new(),
        signals: Vec::new(),
        found: Vec::new(),
        diagnostics: Default::default(),
        bytes: Vec::new(),
        text_len: 0,
        alternates: Vec::new(),
        sets: Vec::new(),
        set_groups: Vec::new(),
        tokens: Vec::new(),
        token_index: Vec::new(),
        scratch: Scratch::default(),
        global: None,
        bytes_read: 0,
        truncated: false,
        lines: 0,
    }
}

/// `r` as a fresh parse's: its arrays emptied (their capacity kept), everything else as
/// `empty`'s. Every field is named, so that a field added to `Robots` must be decided on here,
/// not carried over from the old file.
fn reset(r: &mut Robots, dialect: Dialect, rules_wanted: usize) {
    let Robots {
        dialect: d,
        diagnostics,
        global,
        bytes_read,
        truncated,
        lines,
        groups,
        agents,
        rules,
        records,
        usage,
        signals,
        found,
        bytes,
        text_len,
        alternates,
        sets,
        set_groups,
        tokens,
        token_index,
        scratch: _, // empty between parses
    } = r;
    *d = dialect;
    *diagnostics = Default::default();
    *global = None;
    *bytes_read = 0;
    *truncated = false;
    *lines = 0;
    groups.clear();
    agents.clear();
    rules.clear();
    rules.reserve(rules_wanted);
    records.clear();
    usage.clear();
    signals.clear();
    found.clear();
    bytes.clear();
    *text_len = 0;
    alternates.clear();
    sets.clear();
    set_groups.clear();
    tokens.clear();
    token_index.clear();
}
