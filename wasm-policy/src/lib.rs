//! The policy module of robots-eval's npm package: what `fetchRobots` and `RobotRules` decide after
//! each fetch of a robots.txt (`robots_eval::fetch`: what a status, a network error or a timeout
//! means in each dialect, how many redirects to follow, how long a copy stays fresh). A module of
//! its own, compiled on the first `fetchRobots`: it is per site, not per URL, and a program that
//! parses files it got otherwise (a browser extension, a test) never needs it, so a bundle of
//! `Robots.parse` and `isAllowed` leaves it out (docs/architecture.md, "Three modules").
//!
//! Its boundary is the verdict module's (wasm/src/lib.rs says why): numbers-only exports, strings
//! through the input buffer of one `Engine`, no_std, no imports.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use robots_eval::DialectId;
use wasm_bindgen::prelude::*;

#[path = "../../wasm/src/module.rs"]
#[allow(dead_code)] // `u32_at`: the verdict module's
mod module;
use module::text;

fn dialect_at(dialect: u32) -> DialectId {
    DialectId::ALL
        .get(dialect as usize)
        .copied()
        .unwrap_or_default()
}

/// An optional string argument: `len` input bytes from `*at`, none when `len` is `u32::MAX`;
/// moves `*at` past it.
fn optional<'a>(input: &'a [u8], at: &mut u32, len: u32) -> Option<&'a str> {
    if len == u32::MAX {
        return None;
    }
    let s = text(input, *at, len);
    *at = at.saturating_add(len);
    Some(s)
}

/// How many consecutive redirects the dialect follows.
#[wasm_bindgen]
pub fn fetch_redirect_limit(dialect: u32) -> u32 {
    u32::from(robots_eval::fetch::redirect_limit(dialect_at(dialect)))
}

/// The module's state for the JS wrapper (js/fetch.js): the argument buffer and the results.
#[wasm_bindgen]
pub struct Engine {
    /// Arguments, written by the wrapper (see `reserve`).
    input: Vec<u8>,
    /// The text result (UTF-8); read by the wrapper after the call that wrote it.
    text: String,
    /// The times of a fetch decision (`fetch_decide`).
    f64s: [f64; 3],
}

impl Engine {
    /// Makes `out` the text result; returns its byte length.
    fn put_text(&mut self, out: String) -> u32 {
        self.text = out;
        self.text.len() as u32
    }
}

#[wasm_bindgen]
impl Engine {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Engine {
        Engine {
            input: Vec::new(),
            text: String::new(),
            f64s: [0.0; 3],
        }
    }

    /// Makes the input at least `len` bytes long and returns its address, valid until the next
    /// `reserve`.
    pub fn reserve(&mut self, len: u32) -> u32 {
        module::reserve(&mut self.input, len)
    }

    /// The address of the text result.
    pub fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The address of the `f64` results.
    pub fn out_f64(&self) -> u32 {
        self.f64s.as_ptr() as u32
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
    #[allow(clippy::too_many_arguments)]
    pub fn fetch_decide(
        &mut self,
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
            retry_after: optional(&self.input, &mut 0, retry_after_len),
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
        self.f64s = [
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
        self.put_text(out)
    }

    /// Until when a copy fetched at `fetched_at_ms` stays fresh (ms since the epoch). The four
    /// header values are back to back at the start of the input; a length of `u32::MAX` means
    /// the header is absent.
    #[allow(clippy::too_many_arguments)]
    pub fn fetch_fresh_until(
        &self,
        dialect: u32,
        fetched_at_ms: f64,
        cache_control_len: u32,
        expires_len: u32,
        date_len: u32,
        age_len: u32,
        shared: u32,
    ) -> f64 {
        use robots_eval::fetch::{freshness, CacheHeaders};
        let input = &self.input;
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
    }
}
