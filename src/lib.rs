//! robots-eval: a robots.txt evaluator that speaks every dialect and explains every verdict.
//!
//! Parse once, answer many:
//!
//! ```
//! use robots_eval::{Options, Robots, DialectId};
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
//! assert!(!robots.is_allowed("https://example.com/private/x", "ExampleBot"));
//! let v = robots.check("/private/x", "ExampleBot");
//! assert_eq!(robots.line_of(&v), 2);
//! let old = Robots::parse_with(b"User-agent: *\nAllow: /a\nDisallow: /\n", &Options::dialect(DialectId::Original1994));
//! assert!(!old.is_allowed("/a", "x")); // the 1994 standard has no Allow
//! ```
//!
//! The core is `#![no_std]` + `alloc` and free of `unsafe`. Layout: `lines` (bytes -> lines),
//! `parse` (lines -> groups, rules, records), `compile` (a crawler's rule set, compiled by its
//! first query and kept), `pattern` (rule paths: normalisation, matching),
//! `agent` (product tokens), `url` (URL -> matched path), `decide` (verdicts), `dialect` (the
//! knobs and presets), `lint` (diagnostics), `fetch` (what a fetch outcome means), `meta` (robots
//! META tags and X-Robots-Tag).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod agent;
pub mod aipref;
mod compile;
mod decide;
pub mod dialect;
pub mod fetch;
mod lines;
pub mod lint;
pub mod meta;
mod parse;
mod pattern;
mod robots;
pub mod url;

pub use decide::{Path, Reason, Selection, Verdict};
pub use dialect::{Dialect, DialectId};
pub use lint::{Code, Diagnostic, Severity};
pub use robots::{GroupView, RecordKind, RecordView, Robots, RuleKind, RuleView};

/// The default size cap: 500 KiB, the least RFC 9309 §2.5 lets a crawler parse, and the limit
/// Google enforces ("content which is after the maximum file size is ignored").
pub const DEFAULT_MAX_BYTES: usize = 500 * 1024;

/// How to parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub dialect: DialectId,
    /// Bytes after this many are ignored (with a `truncated` diagnostic).
    pub max_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dialect: DialectId::Rfc9309,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl Options {
    /// The defaults, in another dialect.
    pub fn dialect(dialect: DialectId) -> Self {
        Options {
            dialect,
            ..Options::default()
        }
    }
}

/// An empty robots.txt (everything is allowed) in the default dialect, holding no memory: what
/// [`Robots::reparse`] can fill.
impl Default for Robots {
    fn default() -> Self {
        parse::empty(DialectId::Rfc9309.dialect(), 0)
    }
}

impl Robots {
    /// Parses a robots.txt in the default dialect (RFC 9309) with the default size cap.
    pub fn parse(bytes: &[u8]) -> Robots {
        parse::parse(bytes, &Options::default(), None)
    }

    /// Parses a robots.txt as `options` say. Never fails: see [`Robots::diagnostics`].
    pub fn parse_with(bytes: &[u8], options: &Options) -> Robots {
        parse::parse(bytes, options, None)
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
        let spare = core::mem::take(self);
        *self = parse::parse(bytes, options, Some(spare));
    }
}
