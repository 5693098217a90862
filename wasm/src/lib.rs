//! The WebAssembly boundary of robots-eval: the only place with `#[wasm_bindgen]`.
//!
//! It converts and calls the core, nothing else. Every export takes and returns numbers only
//! (`u32`, `f64`): V8 calls such exports through its generic JS-to-wasm wrapper, while each
//! signature that returns two values (what wasm-bindgen emits for a returned string or vector)
//! costs an optimised wrapper compiled with the module, which doubled `new WebAssembly.Module`.
//! `scripts/build-pkg.mjs` fails the build if an export of the release module returns more.
//!
//! So strings and arrays cross through the buffers of one `Engine` (one per instance, owned by
//! the wrapper in `js/robots.js`): the wrapper writes arguments into its input (UTF-8, back to
//! back; see `Engine::reserve`) and reads results from its outputs (`out_text`, `out_u32`,
//! `out_f64`) after the call, before the next. Parsed files are handles into the engine's table,
//! so a stale or wrong handle reads as "none" instead of touching freed memory, and the wrapper
//! owns their lifetimes (its own `FinalizationRegistry`, registered only for objects that live
//! past the current job). Results are compact (packed `u32`s, `\n`-prefixed strings) and the
//! wrapper turns them into objects. Argument checking and error messages live in the wrapper
//! too, so nothing here can fail.
//!
//! Release builds are `no_std` with an aborting panic handler, so no panic or formatting
//! machinery is linked in; the `debug` feature brings std and `console_error_panic_hook`.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use robots_eval::{DialectId, Options, Reason, RecordKind, Robots, RuleKind, Selection, Verdict};
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

fn dialect_at(dialect: u32) -> DialectId {
    DialectId::ALL
        .get(dialect as usize)
        .copied()
        .unwrap_or_default()
}

fn options(dialect: u32, max_bytes: u32) -> Options {
    Options {
        dialect: dialect_at(dialect),
        max_bytes: max_bytes as usize,
    }
}

/// allowed (bit 0) | reason index (bits 1-3) | `extra` << 4.
fn pack(v: &Verdict, extra: u32) -> u32 {
    u32::from(v.allowed) | reason_index(v.reason) << 1 | extra << 4
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

/// `len` input bytes from `at`, as text (the wrapper writes UTF-8 only; anything else, or a
/// range outside the buffer, reads as empty rather than trapping).
fn text(input: &[u8], at: u32, len: u32) -> &str {
    let at = at as usize;
    input
        .get(at..at.saturating_add(len as usize))
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or("")
}

/// The little-endian u32 at byte `at` of the input (0 outside it).
fn u32_at(input: &[u8], at: usize) -> u32 {
    input
        .get(at..at.saturating_add(4))
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
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

/// Replaces `out` with `\n` + each item: splitting on `\n` and dropping the first piece gives
/// the items back, even empty ones. No item can hold a `\n`: robots.txt values end at a line
/// break. Returns the byte length.
fn put_joined<'a>(out: &mut String, items: impl Iterator<Item = &'a str>) -> u32 {
    out.clear();
    for item in items {
        out.push('\n');
        out.push_str(item);
    }
    out.len() as u32
}

/// `\n` + `v` in decimal (no formatting machinery), or `\n` alone for `None`.
fn push_ms(s: &mut String, v: Option<u64>) {
    s.push('\n');
    let Some(mut v) = v else { return };
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        s.push(char::from(d));
    }
}

/// How many consecutive redirects the dialect follows.
#[wasm_bindgen]
pub fn fetch_redirect_limit(dialect: u32) -> u32 {
    u32::from(robots_eval::fetch::redirect_limit(dialect_at(dialect)))
}

/// The module's state for one JS wrapper: the argument and result buffers, and the parsed files.
#[wasm_bindgen]
pub struct Engine {
    /// Arguments, written by the wrapper (see `reserve`).
    input: Vec<u8>,
    /// Text results (UTF-8); read by the wrapper after the call that wrote them.
    text: String,
    /// Number results: table cells, lines, lengths.
    u32s: Vec<u32>,
    /// Number results that need doubles (metaRobots).
    f64s: Vec<f64>,
    /// Parsed files by handle - 1 (a freed slot is `None`). Held in place, not boxed: a box
    /// would cost one more allocation and free per file, a measurable part of parsing a small one.
    slots: Vec<Option<Robots>>,
    /// Free slots, reused first.
    free: Vec<u32>,
    /// The last file freed, when it was small (`SPARE_MAX_BYTES`): the next parse fills its
    /// arrays again (`Robots::reparse`) instead of allocating some thirteen new ones (parse +
    /// free of small.txt about 6% faster through the package, 1.4x in native code).
    spare: Option<Robots>,
}

/// Only a file of at most this many bytes is kept as the spare. A file parsed into the spare
/// that is larger is dropped when it is freed, so the spare never holds more than such a file
/// needs.
const SPARE_MAX_BYTES: usize = 64 * 1024;

impl Engine {
    /// The parsed file behind `handle`, if it is live.
    fn robots(&self, handle: u32) -> Option<&Robots> {
        self.slots
            .get((handle as usize).wrapping_sub(1))
            .and_then(|slot| slot.as_ref())
    }

    /// Replaces the text result with what `f` writes (given the engine and an empty string);
    /// returns its byte length.
    fn write_text(&mut self, f: impl FnOnce(&Self, &mut String)) -> u32 {
        let mut out = core::mem::take(&mut self.text);
        out.clear();
        f(self, &mut out);
        self.text = out;
        self.text.len() as u32
    }

    /// Replaces the number result with what `f` writes (given the engine and an empty vector).
    fn write_u32s(&mut self, f: impl FnOnce(&Self, &mut Vec<u32>)) {
        let mut out = core::mem::take(&mut self.u32s);
        out.clear();
        f(self, &mut out);
        self.u32s = out;
    }

    /// The file behind `handle` and the groups the agent (`len` input bytes from `at`) obeys.
    fn with_agent(&self, handle: u32, at: u32, len: u32) -> Option<(&Robots, Selection)> {
        let r = self.robots(handle)?;
        Some((r, r.selection(text(&self.input, at, len))))
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
            u32s: Vec::new(),
            f64s: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
            spare: None,
        }
    }

    /// Makes the input at least `len` bytes long (keeping its content) and returns its address,
    /// valid until the next `reserve` or `release`. The wrapper asks for the size it wants (it
    /// doubles it as the buffer grows), so it knows the size without asking.
    pub fn reserve(&mut self, len: u32) -> u32 {
        if len as usize > self.input.len() {
            self.input.resize(len as usize, 0);
        }
        self.input.as_ptr() as u32
    }

    /// Frees the input and output buffers (after a large input or result).
    pub fn release(&mut self) {
        self.input = Vec::new();
        self.text = String::new();
        self.u32s = Vec::new();
        self.f64s = Vec::new();
    }

    /// The address of the text result.
    pub fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The address of the number results.
    pub fn out_u32(&self) -> u32 {
        self.u32s.as_ptr() as u32
    }

    /// The address of the double results.
    pub fn out_f64(&self) -> u32 {
        self.f64s.as_ptr() as u32
    }

    /// The names of the core's dialects, reasons and rule kinds, as three `\t`-separated lists
    /// (see `put_joined`), into the text result; returns its byte length. scripts/build-pkg.mjs
    /// reads them when it builds the package and writes them into the JavaScript: every name is
    /// defined once, in the core, and no run of the package pays for asking.
    pub fn names(&mut self) -> u32 {
        let mut part = String::new();
        let mut all = String::new();
        put_joined(&mut part, DialectId::ALL.iter().map(|d| d.name()));
        all.push_str(&part);
        all.push('\t');
        put_joined(&mut part, REASONS.iter().map(|r| r.as_str()));
        all.push_str(&part);
        all.push('\t');
        put_joined(
            &mut part,
            [RuleKind::Disallow.as_str(), RuleKind::Allow.as_str()].into_iter(),
        );
        all.push_str(&part);
        self.text = all;
        self.text.len() as u32
    }

    /// Parses the first `len` input bytes; returns the new file's handle (never 0).
    pub fn parse(&mut self, len: u32, dialect: u32, max_bytes: u32) -> u32 {
        let bytes = self.input.get(..len as usize).unwrap_or_default();
        let options = options(dialect, max_bytes);
        // Two calls of one out-of-line parse (`parse::parse`): the first parse of a process, which
        // V8 compiles on the way, reaches neither the spare's code nor a second copy of the parse.
        let robots = match self.spare.take() {
            Some(mut robots) => {
                robots.reparse(bytes, &options);
                robots
            }
            None => Robots::parse_with(bytes, &options),
        };
        match self.free.pop() {
            Some(index) => {
                self.slots[index as usize] = Some(robots);
                index + 1
            }
            None => {
                self.slots.push(Some(robots));
                self.slots.len() as u32
            }
        }
    }

    /// Frees a parsed file; its handle may be given out again.
    pub fn robots_free(&mut self, handle: u32) {
        let index = handle.wrapping_sub(1);
        if let Some(slot) = self.slots.get_mut(index as usize) {
            if let Some(robots) = slot.take() {
                self.free.push(index);
                if robots.bytes_read() <= SPARE_MAX_BYTES {
                    self.spare = Some(robots);
                }
            }
        }
    }

    /// The packed selection (see `pack_selection`) of the agent in the first `len` input bytes.
    pub fn selection(&self, handle: u32, len: u32) -> u32 {
        self.with_agent(handle, 0, len)
            .map_or(0, |(_, selection)| pack_selection(selection))
    }

    /// 1 when the URL in the first `len` input bytes is allowed for a packed selection (from
    /// `selection` on this file).
    pub fn allowed(&self, handle: u32, len: u32, selection: u32) -> u32 {
        self.robots(handle).map_or(1, |r| {
            u32::from(
                r.check_selection(text(&self.input, 0, len), unpack_selection(selection))
                    .allowed,
            )
        })
    }

    /// The packed verdict for the URL (first `url_len` input bytes) and the agent (the next
    /// `agent_len`), with the deciding rule's index + 1 (0: none) in the high bits.
    pub fn check(&self, handle: u32, url_len: u32, agent_len: u32) -> u32 {
        self.robots(handle).map_or(0, |r| {
            let v = r.check(
                text(&self.input, 0, url_len),
                text(&self.input, url_len, agent_len),
            );
            pack(&v, v.rule.map_or(0, |i| i + 1))
        })
    }

    /// A rule's line << 1 | 1 when it is an Allow.
    pub fn rule_info(&self, handle: u32, index: u32) -> u32 {
        self.robots(handle)
            .and_then(|r| r.rule(index))
            .map_or(0, |r| r.line << 1 | u32::from(r.kind == RuleKind::Allow))
    }

    /// A rule's path pattern as written, into the text result; returns its byte length.
    pub fn rule_pattern(&mut self, handle: u32, index: u32) -> u32 {
        self.write_text(|e, out| {
            if let Some(rule) = e.robots(handle).and_then(|r| r.rule(index)) {
                out.push_str(rule.pattern);
            }
        })
    }

    /// The lines of the groups the agent (`len` input bytes from `at`) obeys, into the number
    /// result; returns their count (0 when no group applies).
    pub fn group_lines(&mut self, handle: u32, at: u32, len: u32) -> u32 {
        self.write_u32s(|e, out| {
            if let Some((r, selection)) = e.with_agent(handle, at, len) {
                out.extend(r.selected_groups(selection).map(|g| g.line()));
            }
        });
        self.u32s.len() as u32
    }

    /// The user-agent values, as written, of the groups the agent (`len` input bytes from `at`)
    /// obeys, into the text result (see `put_joined`); returns its byte length.
    pub fn group_agents(&mut self, handle: u32, at: u32, len: u32) -> u32 {
        self.write_text(|e, out| {
            if let Some((r, selection)) = e.with_agent(handle, at, len) {
                put_joined(
                    out,
                    r.selected_groups(selection)
                        .flat_map(|g| g.agents().map(|(_, value)| value)),
                );
            }
        })
    }

    /// Every cell of the decision table, row-major (rows = URLs, columns = agents), packed with
    /// the deciding rule's line, into the number result; returns its address. The input holds
    /// the agents' packed selections (`cols` little-endian u32s), the URLs' byte lengths (`count`
    /// more) and then the URLs, back to back.
    pub fn table(&mut self, handle: u32, count: u32, cols: u32) -> u32 {
        let (count, cols) = (count as usize, cols as usize);
        self.write_u32s(|e, out| {
            let Some(robots) = e.robots(handle) else {
                return;
            };
            let input = &e.input;
            out.reserve(count.saturating_mul(cols));
            // Agents that select the same groups get the same verdicts: decide once per distinct
            // selection.
            let mut distinct: Vec<Selection> = Vec::new();
            let columns: Vec<usize> = (0..cols)
                .map(|c| {
                    let s = unpack_selection(u32_at(input, c * 4));
                    distinct.iter().position(|&d| d == s).unwrap_or_else(|| {
                        distinct.push(s);
                        distinct.len() - 1
                    })
                })
                .collect();
            let mut cells = Vec::with_capacity(distinct.len());
            let lengths = cols * 4;
            let mut at = lengths + count * 4;
            for i in 0..count {
                let len = u32_at(input, lengths + i * 4);
                let url = text(input, at as u32, len);
                at += len as usize;
                cells.clear();
                // The URL is read once for the whole row.
                let path = robots.path(url);
                for &selection in &distinct {
                    let v = robots.check_path(&path, selection);
                    cells.push(pack(&v, robots.line_of(&v)));
                }
                out.extend(columns.iter().map(|&c| cells[c]));
            }
        });
        self.u32s.as_ptr() as u32
    }

    /// Crawl-delay in seconds for the agent in the first `len` input bytes; NaN when there is none.
    pub fn crawl_delay(&self, handle: u32, len: u32) -> f64 {
        self.robots(handle)
            .and_then(|r| r.crawl_delay(text(&self.input, 0, len)))
            .unwrap_or(f64::NAN)
    }

    /// The Sitemap URLs into the text result (see `put_joined`); returns its byte length.
    pub fn sitemaps(&mut self, handle: u32) -> u32 {
        self.write_text(|e, out| {
            if let Some(r) = e.robots(handle) {
                put_joined(out, r.sitemaps());
            }
        })
    }

    /// The diagnostics: their lines into the number result, and severity, code and message of
    /// each (three items each, see `put_joined`) into the text result; returns the text's byte
    /// length.
    pub fn diagnostics(&mut self, handle: u32) -> u32 {
        let mut lines = core::mem::take(&mut self.u32s);
        let mut out = core::mem::take(&mut self.text);
        lines.clear();
        out.clear();
        if let Some(r) = self.robots(handle) {
            for d in r.diagnostics() {
                lines.push(d.line);
                for item in [d.severity.as_str(), d.code.as_str(), &d.message()] {
                    out.push('\n');
                    out.push_str(item);
                }
            }
        }
        self.u32s = lines;
        self.text = out;
        self.text.len() as u32
    }

    /// 1 when the input was longer than max_bytes (the rest was ignored).
    pub fn truncated(&self, handle: u32) -> u32 {
        self.robots(handle).map_or(0, |r| u32::from(r.truncated()))
    }

    // -----------------------------------------------------------------------------------------
    // Records and agent lists (docs/records.md).
    // -----------------------------------------------------------------------------------------

    /// The Request-rate of the agent in the first `len` input bytes: its number of requests (NaN
    /// when there is none), and its seconds into the double result.
    pub fn request_rate(&mut self, handle: u32, len: u32) -> f64 {
        let rate = self
            .robots(handle)
            .and_then(|r| r.request_rate(text(&self.input, 0, len)));
        self.f64s.clear();
        match rate {
            Some(rate) => {
                self.f64s.push(rate.seconds);
                f64::from(rate.requests)
            }
            None => f64::NAN,
        }
    }

    /// The Host into the text result; returns its byte length, `u32::MAX` when there is none.
    pub fn host(&mut self, handle: u32) -> u32 {
        let mut found = false;
        let len = self.write_text(|e, out| {
            if let Some(host) = e.robots(handle).and_then(Robots::host) {
                out.push_str(host);
                found = true;
            }
        });
        if found {
            len
        } else {
            u32::MAX
        }
    }

    /// Every record but Sitemap lines: key, value and the agents of each (see `put_joined`) into
    /// the text result; into the number result the text's byte length, then each record's line
    /// and number of agents (`u32::MAX` outside any group). Returns the count of numbers.
    pub fn records(&mut self, handle: u32) -> u32 {
        let mut nums = core::mem::take(&mut self.u32s);
        let mut out = core::mem::take(&mut self.text);
        nums.clear();
        out.clear();
        nums.push(0);
        if let Some(r) = self.robots(handle) {
            for record in r.records().filter(|r| r.kind != RecordKind::Sitemap) {
                let mut agents = 0;
                for item in [record.field, record.value]
                    .into_iter()
                    .chain(record.agents().inspect(|_| agents += 1))
                {
                    out.push('\n');
                    out.push_str(item);
                }
                nums.push(record.line);
                nums.push(if record.group.is_some() {
                    agents
                } else {
                    u32::MAX
                });
            }
        }
        nums[0] = out.len() as u32;
        self.u32s = nums;
        self.text = out;
        self.u32s.len() as u32
    }

    // -----------------------------------------------------------------------------------------
    // The fetch lifecycle (robots_eval::fetch) and page-level rules (robots_eval::meta).
    // -----------------------------------------------------------------------------------------

    /// The policy after one fetch outcome, into the text result; returns its byte length.
    /// `kind`: 0 status, 1 network error, 2 timeout, 3 too many redirects. The text (see
    /// `put_joined`; the citation is left out to keep the .wasm small): policy, reason, message;
    /// then three times in ms, each empty when there is none: the `Retry-After` time, when the
    /// same failure would start to be handled differently (`next_change_at_ms`), and the longest
    /// a failure's answer may be kept: the dialect's cap on a copy's lifetime, or its default
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
        use robots_eval::fetch::{
            decide, freshness, CacheHeaders, FetchContext, FetchOutcome, Policy,
        };
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
        let policy = match d.policy {
            Policy::Parse { .. } => "parse",
            Policy::FollowRedirect => "follow-redirect",
            Policy::AllowAll => "allow-all",
            Policy::DisallowAll => "disallow-all",
            Policy::Defer => "defer",
            Policy::UseCached => "use-cached",
        };
        let s = &mut self.text;
        put_joined(s, [policy, d.reason, d.message].into_iter());
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
        push_ms(s, d.retry_at_ms);
        push_ms(s, d.next_change_at_ms);
        push_ms(s, Some(max_ms));
        s.len() as u32
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

    /// The robots META tags of an HTML document (the first `html_len` input bytes) for the agent
    /// (the next `agent_len`); see `meta_out`. `conflict`: 0 most restrictive, 1 seed 001.
    pub fn meta_html(&mut self, html_len: u32, agent_len: u32, conflict: u32) -> u32 {
        let input = &self.input;
        let html = input.get(..html_len as usize).unwrap_or_default();
        let m = robots_eval::meta::meta_robots(html, text(input, html_len, agent_len));
        self.meta_out(&m, conflict)
    }

    /// `X-Robots-Tag` values for the agent; see `meta_out`. The input holds the values' byte
    /// lengths (`count` little-endian u32s), the values (UTF-8, `values_len` bytes in all) and
    /// the agent (`agent_len` bytes).
    pub fn meta_header(
        &mut self,
        count: u32,
        values_len: u32,
        agent_len: u32,
        conflict: u32,
    ) -> u32 {
        let input = &self.input;
        let count = count as usize;
        let mut values = Vec::with_capacity(count);
        let mut at = (count * 4) as u32;
        for i in 0..count {
            let len = u32_at(input, i * 4);
            values.push(text(input, at, len));
            at = at.saturating_add(len);
        }
        let agent = text(
            input,
            ((count * 4) as u32).saturating_add(values_len),
            agent_len,
        );
        let m = robots_eval::meta::x_robots_tag(&values, agent);
        self.meta_out(&m, conflict)
    }
}

impl Engine {
    /// A robots META / `X-Robots-Tag` result, written into the output buffers; returns the
    /// text's byte length. The doubles (`out_f64`): the 11 resolved fields (NaN for none),
    /// truncated, the directive count, the keyword count, description?, document-state (NaN
    /// none, 0 static, 1 dynamic, 2 other), url?, revisit-after?, its days (NaN); then kind,
    /// origin (0 meta, 1 header) and has-scope per directive. The text holds the strings back to
    /// back, their lengths in UTF-16 code units (JS string length) in `out_u32`, in order: per
    /// directive raw and scope (if any); the description, keywords, the other document-state,
    /// url, revisit-after raw, when present.
    fn meta_out(&mut self, m: &robots_eval::meta::MetaRobots, conflict: u32) -> u32 {
        use robots_eval::meta::{
            Conflict, DirectiveKind as K, DocumentState, ImagePreview, Origin, Scope,
        };
        let r = m.resolve(if conflict == 1 {
            Conflict::Seed001
        } else {
            Conflict::MostRestrictive
        });
        let o = &m.other;
        let opt = |v: Option<u64>| v.map_or(f64::NAN, |v| v as f64);
        let flag = |b: bool| f64::from(u8::from(b));
        let nums = &mut self.f64s;
        nums.clear();
        nums.extend_from_slice(&[
            flag(r.index),
            flag(r.follow),
            flag(r.archive),
            flag(r.snippet),
            opt(r.max_snippet),
            r.max_image_preview.map_or(f64::NAN, |p| match p {
                ImagePreview::None => 0.0,
                ImagePreview::Standard => 1.0,
                ImagePreview::Large => 2.0,
            }),
            opt(r.max_video_preview),
            flag(r.image_index),
            flag(r.translate),
            r.unavailable_after_ms.map_or(f64::NAN, |v| v as f64),
            flag(r.index_if_embedded),
            flag(m.truncated),
            m.directives.len() as f64,
            o.keywords.len() as f64,
            flag(o.description.is_some()),
            match &o.document_state {
                None => f64::NAN,
                Some(DocumentState::Static) => 0.0,
                Some(DocumentState::Dynamic) => 1.0,
                Some(DocumentState::Other(_)) => 2.0,
            },
            flag(o.url.is_some()),
            flag(o.revisit_after.is_some()),
            o.revisit_after
                .as_ref()
                .and_then(|v| v.days)
                .map_or(f64::NAN, f64::from),
        ]);
        for d in &m.directives {
            // The index into the wrapper's list of kind names.
            let kind = match d.kind {
                K::All => 0,
                K::None => 1,
                K::Index => 2,
                K::NoIndex => 3,
                K::Follow => 4,
                K::NoFollow => 5,
                K::Archive => 6,
                K::NoArchive => 7,
                K::NoSnippet => 8,
                K::MaxSnippet(_) => 9,
                K::MaxImagePreview(_) => 10,
                K::MaxVideoPreview(_) => 11,
                K::NoImageIndex => 12,
                K::NoTranslate => 13,
                K::UnavailableAfter { .. } => 14,
                K::IndexIfEmbedded => 15,
                K::Invalid => 16,
                K::Unknown => 17,
            };
            nums.push(f64::from(kind));
            nums.push(flag(d.origin == Origin::Header));
            nums.push(flag(matches!(d.scope, Scope::Agent(_))));
        }
        let text = &mut self.text;
        let lens = &mut self.u32s;
        text.clear();
        lens.clear();
        let mut s = |v: &str| {
            lens.push(v.encode_utf16().count() as u32);
            text.push_str(v);
        };
        for d in &m.directives {
            s(&d.raw);
            if let Scope::Agent(a) = &d.scope {
                s(a);
            }
        }
        if let Some(v) = &o.description {
            s(v);
        }
        for k in &o.keywords {
            s(k);
        }
        if let Some(DocumentState::Other(v)) = &o.document_state {
            s(v);
        }
        if let Some(v) = &o.url {
            s(v);
        }
        if let Some(v) = &o.revisit_after {
            s(&v.raw);
        }
        self.text.len() as u32
    }
}
