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
//! The core is `#![no_std]` + `alloc` and free of `unsafe`. Its modules stand in floors, each
//! importing only from the floors below it (`docs/architecture.md` draws them; `tests/layers.rs`
//! fails on a cycle):
//!
//! 1. leaves: `lines` (bytes -> lines), `pattern` (rule paths: normalisation, matching), `agent`
//!    (product tokens), `url` (URL -> matched path), `dialect` (the knobs and presets),
//!    `options`, `diagnostic` (what a finding is), `value` (value readers), `sort`, `computed`;
//! 2. `model`: the parsed data (rules, groups, records);
//! 3. `compile`: a crawler's rule set, compiled by its first query and kept;
//! 4. `robots`: the [`Robots`] facade and its views;
//! 5. `parse` (lines -> a `Robots`), `decide` (verdicts), `lint` (diagnostics): `impl Robots`
//!    blocks on the floor of what they need; `hot`, hidden, the steps of a verdict one at a time
//!    for the wasm crates' hot path (not part of the API);
//! 6. `report`: the answers of the packages' rich calls (`explain`, `diagnostics`, `records`,
//!    `ai_preferences`) as plain data, serialisable with the `serde` feature;
//!    `lifecycle/` (the `lifecycle` feature): `fetch` (what a fetch outcome means, how long a
//!    copy stays fresh) and `meta` (robots META tags and X-Robots-Tag), re-exported here as
//!    `robots_eval::fetch` and `robots_eval::meta`; with the `ai-use` feature also `tdmrep` and
//!    `ai_use` (`Robots::ai_use`: AI use per purpose from every signal, with the trace).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// Floor 1, the leaves: each imports at most another leaf.
pub mod agent;
pub mod aipref;
mod computed;
mod diagnostic;
pub mod dialect;
mod lines;
mod options;
mod pattern;
mod sort;
pub mod url;
mod value;
// Floor 2: the plain parsed data.
mod model;
// Floor 3: rule sets compiled from the model.
mod compile;
// Floor 4: the facade.
mod robots;
// Floor 5: the facade's methods, on the floor of what they need.
mod decide;
#[doc(hidden)]
pub mod hot;
pub mod lint;
mod parse;
#[cfg(feature = "aipref")]
mod preferences;
// Floor 6: the rich calls' answers as plain data, one home for every package (npm, Python).
pub mod report;
// Floor 6: which rule decides how much of a site, over many URLs (`coverage::coverage`).
pub mod coverage;
// Floor 6: the HTTP lifecycle, apart from the core (the `lifecycle` feature).
#[cfg(feature = "lifecycle")]
mod lifecycle;

pub use decide::{Path, Reason, SelectedBy, Selection, Verdict};
pub use diagnostic::{Code, Diagnostic, Severity};
pub use dialect::{Dialect, DialectId};
#[cfg(feature = "ai-use")]
pub use lifecycle::{ai_use, tdmrep};
#[cfg(feature = "lifecycle")]
pub use lifecycle::{fetch, meta};
pub use model::{RecordKind, RuleKind};
pub use options::{Options, DEFAULT_MAX_BYTES};
#[cfg(feature = "aipref")]
pub use preferences::AiPreferences;
pub use robots::{GroupView, RecordView, Robots, RuleView};
pub use value::{RequestRate, MAX_CRAWL_DELAY};

/// The README's Rust example, run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
