//! The WebAssembly boundary of robots-eval: the only place with `#[wasm_bindgen]`.
//!
//! It converts and calls the core, nothing else. Results cross the boundary in compact forms
//! (packed `u32`s, `Uint32Array`s, `\n`-prefixed strings) that the hand-written wrapper in
//! `js/robots.js` turns into objects: that is smaller and faster than serialising objects here.
//! Argument checking and error messages live in that wrapper too, so nothing here can fail.
//!
//! Release builds are `no_std` with an aborting panic handler, so no panic or formatting
//! machinery is linked in; the `debug` feature brings std and `console_error_panic_hook`.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use robots_eval::{DialectId, Options, Reason, Robots, RuleKind, Selection, Verdict};
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// The core never panics on any input; should it ever, the module traps (the JS wrapper turns
/// the trap into an `Error` and replaces the instance) without carrying message formatting.
#[cfg(all(target_arch = "wasm32", not(feature = "debug")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(feature = "debug")]
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Reasons in the order of their index in packed verdicts.
const REASONS: [Reason; 5] = [
    Reason::RobotsTxt,
    Reason::Rule,
    Reason::EmptyRule,
    Reason::NoMatch,
    Reason::NoGroup,
];

fn reason_index(r: Reason) -> u32 {
    match r {
        Reason::RobotsTxt => 0,
        Reason::Rule => 1,
        Reason::EmptyRule => 2,
        Reason::NoMatch => 3,
        Reason::NoGroup => 4,
    }
}

/// `\n` + each item: splitting on `\n` and dropping the first piece gives the items back, even
/// empty ones. No item can hold a `\n`: robots.txt values end at a line break.
fn join<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut s = String::new();
    for item in items {
        s.push('\n');
        s.push_str(item);
    }
    s
}

/// The names of the core's dialects, reasons and rule kinds, as three `\t`-separated lists (see
/// `join`): the wrapper's lookup tables, so that every name is defined once, in the core.
#[wasm_bindgen]
pub fn names() -> String {
    let mut s = join(DialectId::ALL.iter().map(|d| d.name()));
    s.push('\t');
    s.push_str(&join(REASONS.iter().map(|r| r.as_str())));
    s.push('\t');
    s.push_str(&join(
        [RuleKind::Disallow.as_str(), RuleKind::Allow.as_str()].into_iter(),
    ));
    s
}

/// A parsed robots.txt.
#[wasm_bindgen]
pub struct NativeRobots {
    robots: Robots,
}

fn options(dialect: u32, max_bytes: u32) -> Options {
    let dialect = DialectId::ALL
        .get(dialect as usize)
        .copied()
        .unwrap_or_default();
    Options {
        dialect,
        max_bytes: max_bytes as usize,
    }
}

/// allowed (bit 0) | reason index (bits 1-3) | `extra` << 4.
fn pack(v: &Verdict, extra: u32) -> u32 {
    u32::from(v.allowed) | reason_index(v.reason) << 1 | extra << 4
}

/// Reusable input/output memory for the hot paths: the wrapper encodes strings straight into
/// `input` (no allocation, no second copy per call) and reads table results from `output`
/// through a typed-array view. One per instance; its addresses change only when it grows.
#[wasm_bindgen]
pub struct Scratch {
    input: Vec<u8>,
    output: Vec<u32>,
}

#[wasm_bindgen]
impl Scratch {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Scratch {
        Scratch {
            input: Vec::new(),
            output: Vec::new(),
        }
    }

    /// Makes the input at least `len` bytes long (keeping its content) and returns its address.
    /// `len` 0 releases it.
    pub fn reserve(&mut self, len: u32) -> u32 {
        let len = len as usize;
        if len == 0 {
            self.input = Vec::new();
            self.output = Vec::new();
        } else if len > self.input.len() {
            self.input.resize(len.max(self.input.len() * 2), 0);
        }
        self.input.as_ptr() as u32
    }

    /// The input's length (what `reserve` made available).
    pub fn capacity(&self) -> u32 {
        self.input.len() as u32
    }
}

impl Scratch {
    /// `len` bytes of the input from `at`, as text (the wrapper writes UTF-8 only; anything
    /// else reads as empty rather than trapping).
    fn str(&self, at: usize, len: usize) -> &str {
        self.input
            .get(at..at.saturating_add(len))
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// A `Selection` as one number for the wrapper's per-agent cache: 0 none, set << 2 | 1 specific,
/// set << 2 | 2 global.
fn pack_selection(s: Selection) -> u32 {
    match s {
        Selection::None => 0,
        Selection::Specific(i) => i << 2 | 1,
        Selection::Global(i) => i << 2 | 2,
    }
}

fn unpack_selection(s: u32) -> Selection {
    match s & 3 {
        1 => Selection::Specific(s >> 2),
        2 => Selection::Global(s >> 2),
        _ => Selection::None,
    }
}

#[wasm_bindgen]
impl NativeRobots {
    /// Parses the first `len` bytes of the scratch input.
    pub fn parse(scratch: &Scratch, len: u32, dialect: u32, max_bytes: u32) -> NativeRobots {
        let bytes = scratch.input.get(..len as usize).unwrap_or_default();
        NativeRobots {
            robots: Robots::parse_with(bytes, &options(dialect, max_bytes)),
        }
    }

    /// The packed selection (see `pack_selection`) of the agent in the first `len` input bytes.
    pub fn selection(&self, scratch: &Scratch, len: u32) -> u32 {
        pack_selection(self.robots.selection(scratch.str(0, len as usize)))
    }

    /// 1 when the URL in the first `len` input bytes is allowed for a packed selection (from
    /// `selection` on this object).
    pub fn allowed(&self, scratch: &Scratch, len: u32, selection: u32) -> u32 {
        let v = self
            .robots
            .check_selection(scratch.str(0, len as usize), unpack_selection(selection));
        u32::from(v.allowed)
    }

    /// The packed verdict with the deciding rule's index + 1 (0: none) in the high bits.
    pub fn check(&self, url: &str, agent: &str) -> u32 {
        let v = self.robots.check(url, agent);
        pack(&v, v.rule.map_or(0, |r| r + 1))
    }

    /// A rule's line << 1 | 1 when it is an Allow.
    pub fn rule_info(&self, index: u32) -> u32 {
        self.robots
            .rule(index)
            .map_or(0, |r| r.line << 1 | u32::from(r.kind == RuleKind::Allow))
    }

    /// A rule's path pattern as written.
    pub fn rule_pattern(&self, index: u32) -> String {
        self.robots
            .rule(index)
            .map(|r| String::from(r.pattern))
            .unwrap_or_default()
    }

    /// The lines of the groups `agent` obeys (empty when none applies).
    pub fn group_lines(&self, agent: &str) -> Vec<u32> {
        let selection = self.robots.selection(agent);
        self.robots
            .selected_groups(selection)
            .map(|g| g.line())
            .collect()
    }

    /// The user-agent values, as written, of the groups `agent` obeys (see `join`).
    pub fn group_agents(&self, agent: &str) -> String {
        let selection = self.robots.selection(agent);
        let mut s = String::new();
        for g in self.robots.selected_groups(selection) {
            for (_, value) in g.agents() {
                s.push('\n');
                s.push_str(value);
            }
        }
        s
    }

    /// Every cell of the decision table, row-major (rows = URLs, columns = the packed
    /// selections of the agents), packed with the deciding rule's line, into the scratch output;
    /// returns its address. The input holds the URLs' byte lengths (`count` little-endian u32s)
    /// and then the URLs, back to back.
    pub fn table(&self, scratch: &mut Scratch, count: u32, selections: &[u32]) -> u32 {
        let count = count as usize;
        let mut out = core::mem::take(&mut scratch.output);
        out.clear();
        out.reserve(count * selections.len());
        // Agents that select the same groups get the same verdicts: decide once per distinct selection.
        let mut distinct: Vec<Selection> = Vec::new();
        let columns: Vec<usize> = selections
            .iter()
            .map(|&s| {
                let s = unpack_selection(s);
                distinct.iter().position(|&d| d == s).unwrap_or_else(|| {
                    distinct.push(s);
                    distinct.len() - 1
                })
            })
            .collect();
        let mut cells = Vec::with_capacity(distinct.len());
        let mut at = count * 4;
        for i in 0..count {
            let len = scratch
                .input
                .get(i * 4..i * 4 + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                as usize;
            let url = scratch.str(at, len);
            at += len;
            cells.clear();
            for &selection in &distinct {
                let v = self.robots.check_selection(url, selection);
                cells.push(pack(&v, self.robots.line_of(&v)));
            }
            out.extend(columns.iter().map(|&c| cells[c]));
        }
        scratch.output = out;
        scratch.output.as_ptr() as u32
    }

    /// Crawl-delay in seconds; NaN when there is none.
    pub fn crawl_delay(&self, agent: &str) -> f64 {
        self.robots.crawl_delay(agent).unwrap_or(f64::NAN)
    }

    /// The Sitemap URLs (see `join`).
    pub fn sitemaps(&self) -> String {
        join(self.robots.sitemaps())
    }

    /// The line of each diagnostic.
    pub fn diagnostic_lines(&self) -> Vec<u32> {
        self.robots.diagnostics().iter().map(|d| d.line).collect()
    }

    /// Severity, code and message of each diagnostic, three `\n`-prefixed items each.
    pub fn diagnostic_text(&self) -> String {
        let mut s = String::new();
        for d in self.robots.diagnostics() {
            for item in [d.severity.as_str(), d.code.as_str(), &d.message()] {
                s.push('\n');
                s.push_str(item);
            }
        }
        s
    }

    /// Whether the input was longer than max_bytes (the rest was ignored).
    pub fn truncated(&self) -> bool {
        self.robots.truncated()
    }
}

// ---------------------------------------------------------------------------------------------
// The fetch lifecycle (robots_eval::fetch) and page-level rules (robots_eval::meta).
// ---------------------------------------------------------------------------------------------

fn dialect_at(dialect: u32) -> DialectId {
    DialectId::ALL
        .get(dialect as usize)
        .copied()
        .unwrap_or_default()
}

/// How many consecutive redirects the dialect follows.
#[wasm_bindgen]
pub fn fetch_redirect_limit(dialect: u32) -> u32 {
    u32::from(robots_eval::fetch::redirect_limit(dialect_at(dialect)))
}

/// The policy after one fetch outcome. `kind`: 0 status, 1 network error, 2 timeout, 3 too many
/// redirects. Returns policy, reason and message (see `join`; the citation is left out to keep the .wasm small).
#[wasm_bindgen]
pub fn fetch_decide(
    dialect: u32,
    kind: u32,
    status: u32,
    now_ms: f64,
    redirects_followed: u32,
    has_cached_copy: bool,
    retry_after: Option<String>,
) -> String {
    use robots_eval::fetch::{decide, FetchContext, FetchOutcome, Policy};
    let outcome = match kind {
        0 => FetchOutcome::Status(u16::try_from(status).unwrap_or(0)),
        1 => FetchOutcome::NetworkError,
        2 => FetchOutcome::Timeout,
        _ => FetchOutcome::TooManyRedirects,
    };
    let ctx = FetchContext {
        now_ms: now_ms as u64,
        unreachable_since_ms: None,
        has_cached_copy,
        redirects_followed: u8::try_from(redirects_followed).unwrap_or(u8::MAX),
        site_down: false,
        retry_after: retry_after.as_deref(),
    };
    let d = decide(dialect_at(dialect), &outcome, &ctx);
    let policy = match d.policy {
        Policy::Parse { .. } => "parse",
        Policy::FollowRedirect => "follow-redirect",
        Policy::AllowAll => "allow-all",
        Policy::DisallowAll => "disallow-all",
        Policy::Defer => "defer",
        Policy::UseCached => "use-cached",
    };
    join([policy, d.reason, d.message].into_iter())
}

/// Until when a copy fetched at `fetched_at_ms` stays fresh (ms since the epoch).
#[wasm_bindgen]
pub fn fetch_fresh_until(
    dialect: u32,
    fetched_at_ms: f64,
    cache_control: Option<String>,
    expires: Option<String>,
    date: Option<String>,
    age: Option<String>,
    shared: bool,
) -> f64 {
    use robots_eval::fetch::{freshness, CacheHeaders};
    let headers = CacheHeaders {
        cache_control: cache_control.as_deref(),
        expires: expires.as_deref(),
        date: date.as_deref(),
        age: age.as_deref(),
    };
    freshness(dialect_at(dialect), fetched_at_ms as u64, &headers, shared).fresh_until_ms as f64
}
