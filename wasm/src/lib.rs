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

use robots_eval::{DialectId, Options, Reason, Robots, RuleKind, Verdict};
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

/// The index of a dialect in `DialectId::ALL`, or -1 (names are matched ASCII case-insensitively).
#[wasm_bindgen]
pub fn dialect_index(name: &str) -> i32 {
    DialectId::from_name(name)
        .and_then(|d| DialectId::ALL.iter().position(|&x| x == d))
        .map_or(-1, |i| i as i32)
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

/// Splits `joined` into pieces of the given lengths in UTF-16 code units (JS string lengths).
fn split_utf16<'a>(joined: &'a str, lens: &[u32]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(lens.len());
    let mut rest = joined;
    for &len in lens {
        let len = len as usize;
        let at = if rest.is_ascii() {
            len.min(rest.len())
        } else {
            let mut units = 0;
            let mut at = rest.len();
            for (i, c) in rest.char_indices() {
                if units >= len {
                    at = i;
                    break;
                }
                units += c.len_utf16();
            }
            at
        };
        let (piece, tail) = rest.split_at(at);
        out.push(piece);
        rest = tail;
    }
    out
}

#[wasm_bindgen]
impl NativeRobots {
    /// Parses text (a JS string, UTF-8 encoded on the way in).
    pub fn parse_str(text: &str, dialect: u32, max_bytes: u32) -> NativeRobots {
        NativeRobots {
            robots: Robots::parse_with(text.as_bytes(), &options(dialect, max_bytes)),
        }
    }

    /// Parses raw bytes.
    pub fn parse_bytes(bytes: &[u8], dialect: u32, max_bytes: u32) -> NativeRobots {
        NativeRobots {
            robots: Robots::parse_with(bytes, &options(dialect, max_bytes)),
        }
    }

    pub fn is_allowed(&self, url: &str, agent: &str) -> bool {
        self.robots.is_allowed(url, agent)
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

    /// Every cell of the decision table, row-major (rows = URLs, columns = agents), packed with
    /// the deciding rule's line. The URLs and agents come joined, with their UTF-16 lengths.
    pub fn table(
        &self,
        urls: &str,
        url_lens: &[u32],
        agents: &str,
        agent_lens: &[u32],
    ) -> Vec<u32> {
        let urls = split_utf16(urls, url_lens);
        let agents = split_utf16(agents, agent_lens);
        let selections: Vec<_> = agents.iter().map(|a| self.robots.selection(a)).collect();
        let mut out = Vec::with_capacity(urls.len() * agents.len());
        for url in &urls {
            for &selection in &selections {
                let v = self.robots.check_selection(url, selection);
                out.push(pack(&v, self.robots.line_of(&v)));
            }
        }
        out
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
