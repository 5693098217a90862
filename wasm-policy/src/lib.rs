//! The policy module of robots-eval's npm package: what `fetchRobots` and `RobotRules` decide after
//! each fetch of a robots.txt (`robots_eval::fetch`: what a status, a network error or a timeout
//! means in each dialect, how many redirects to follow, how long a copy stays fresh). A module of
//! its own, compiled on the first `fetchRobots`: it is per site, not per URL, and a program that
//! parses files it got otherwise (a browser extension, a test) never needs it, so a bundle of
//! `Robots.parse` and `isAllowed` leaves it out (docs/architecture.md, "Four modules").
//!
//! Its boundary is the verdict module's (wasm/src/lib.rs says why; the protocol is
//! robots-eval-boundary's, wasm-boundary/src/lib.rs): numbers-only plain exports, strings through
//! the input buffer of the instance's one `Engine`, no_std, no imports.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use robots_eval_boundary::{dialect_at, optional, Global};

/// How many consecutive redirects the dialect follows.
#[no_mangle]
pub extern "C" fn fetch_redirect_limit(dialect: u32) -> u32 {
    u32::from(robots_eval::fetch::redirect_limit(dialect_at(dialect)))
}

/// The instance's state for the JS wrapper (js/fetch.js): the argument buffer and the results.
pub struct Engine {
    /// Arguments, written by the wrapper (see `reserve`).
    input: Vec<u8>,
    /// The text result (UTF-8); read by the wrapper after the call that wrote it.
    text: Vec<u8>,
    /// The times of a fetch decision (`fetch_decide`).
    f64s: [f64; 3],
}

impl Engine {
    /// Makes `out` the text result; returns its byte length.
    fn put_text(&mut self, out: String) -> u32 {
        self.text = out.into_bytes();
        self.text.len() as u32
    }
}

impl Engine {
    const fn new() -> Engine {
        Engine {
            input: Vec::new(),
            text: Vec::new(),
            f64s: [0.0; 3],
        }
    }

    /// Makes the input at least `len` bytes long and returns its address, valid until the next
    /// `reserve`.
    fn reserve(&mut self, len: u32) -> u32 {
        robots_eval_boundary::reserve(&mut self.input, len)
    }

    /// The address of the text result.
    fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The address of the `f64` results.
    fn out_f64(&self) -> u32 {
        self.f64s.as_ptr() as u32
    }

    /// The robots.txt a crawler obeys when it may fetch nothing (`fetch::DISALLOW_ALL`: a
    /// disallow-all or defer decision, or a cached copy asked for and missing) into the text
    /// result; returns its byte length. The wrappers parse it (js/fetch.js, js/rules.js) and keep
    /// no copy of their own.
    fn fetch_disallow_all(&mut self) -> u32 {
        self.text.clear();
        self.text
            .extend_from_slice(robots_eval::fetch::DISALLOW_ALL);
        self.text.len() as u32
    }
}

/// The instance's one engine, which every export reaches.
static ENGINE: Global<Engine> = Global::new(Engine::new());

// The exports: each the `Engine` method of its name (documented there), on `ENGINE`.
robots_eval_boundary::exports! {
    ENGINE;
    reserve(len: u32) -> u32;
    out_text() -> u32;
    out_f64() -> u32;
    fetch_disallow_all() -> u32;
}

/// The policy after one fetch outcome. `kind`: 0 status, 1 network error, 2 timeout, 3 too
/// many redirects. The decision (the citation is left out to keep the .wasm small): policy,
/// reason and message, `\n`-separated, into the text result (returns its byte length); then
/// three times in ms into the `f64` result: the `Retry-After` time, when the same failure
/// would start to be handled differently (`next_change_at_ms`), both NaN when there is none,
/// and the longest a
/// failure's answer may be kept: the dialect's cap on a copy's lifetime, or its default
/// lifetime when it has no cap (24 h for rfc9309 and google, 7 days for the others).
/// `unreachable_since_ms`: when the current run of failed fetches began (ms since the epoch),
/// NaN when this failure is the first (it then counts as `now_ms`); see `FetchContext`.
/// `site_down`: the caller knows the site has general availability problems (Google's rule
/// after 30 days unreachable).
/// `retry_after_len`: the byte length of the `Retry-After` value at the start of the input,
/// `u32::MAX` when there is none.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn fetch_decide(
    dialect: u32,
    kind: u32,
    status: u32,
    now_ms: f64,
    redirects_followed: u32,
    has_cached_copy: u32,
    unreachable_since_ms: f64,
    site_down: u32,
    retry_after_len: u32,
) -> u32 {
    ENGINE.with(|e| {
        use robots_eval::fetch::{decide, freshness, CacheHeaders, FetchContext, FetchOutcome};
        let outcome = match kind {
            0 => FetchOutcome::Status(u16::try_from(status).unwrap_or(0)),
            1 => FetchOutcome::NetworkError,
            2 => FetchOutcome::Timeout,
            _ => FetchOutcome::TooManyRedirects,
        };
        let dialect = dialect_at(dialect);
        let ctx = FetchContext {
            now_ms: now_ms as u64,
            // NaN (and anything negative) means none; `as` saturates, so no panic path.
            unreachable_since_ms: (unreachable_since_ms >= 0.0)
                .then_some(unreachable_since_ms as u64),
            has_cached_copy: has_cached_copy != 0,
            redirects_followed: u8::try_from(redirects_followed).unwrap_or(u8::MAX),
            site_down: site_down != 0,
            retry_after: optional(&e.input, &mut 0, retry_after_len),
        };
        let d = decide(dialect, &outcome, &ctx);
        let policy = d.policy.name();
        // The cap, read through `freshness`: the longest max-age it accepts, and whether it was cut.
        let longest = CacheHeaders {
            cache_control: Some("max-age=2147483648"),
            ..CacheHeaders::default()
        };
        let capped = freshness(dialect, 0, &longest, false);
        let max_ms = if capped.capped {
            capped.fresh_until_ms
        } else {
            freshness(dialect, 0, &CacheHeaders::default(), false).fresh_until_ms
        };
        let time = |ms: Option<u64>| ms.map_or(f64::NAN, |ms| ms as f64);
        e.f64s = [
            time(d.retry_at_ms),
            time(d.next_change_at_ms),
            max_ms as f64,
        ];
        let mut out = String::new();
        for (i, part) in [policy, d.reason, d.message].into_iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(part);
        }
        e.put_text(out)
    })
}

/// Until when a copy fetched at `fetched_at_ms` stays fresh (ms since the epoch). The four
/// header values are back to back at the start of the input; a length of `u32::MAX` means
/// the header is absent.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn fetch_fresh_until(
    dialect: u32,
    fetched_at_ms: f64,
    cache_control_len: u32,
    expires_len: u32,
    date_len: u32,
    age_len: u32,
    shared: u32,
) -> f64 {
    ENGINE.with(|e| {
        use robots_eval::fetch::{freshness, CacheHeaders};
        let input = &e.input;
        let mut at = 0;
        let headers = CacheHeaders {
            cache_control: optional(input, &mut at, cache_control_len),
            expires: optional(input, &mut at, expires_len),
            date: optional(input, &mut at, date_len),
            age: optional(input, &mut at, age_len),
        };
        freshness(
            dialect_at(dialect),
            fetched_at_ms as u64,
            &headers,
            shared != 0,
        )
        .fresh_until_ms as f64
    })
}
