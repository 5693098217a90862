//! The WebAssembly boundary of robots-eval's robots.txt module (the page-level rules have their own,
//! wasm-page/src/lib.rs, built the same way).
//!
//! It converts and calls the core, nothing else. Every export takes and returns numbers only
//! (`u32`, `f64`): V8 calls such exports through its generic JS-to-wasm wrapper, while each
//! signature that returns two values (what wasm-bindgen emits for a returned string or vector)
//! costs an optimised wrapper compiled with the module, which doubled `new WebAssembly.Module`.
//! `scripts/build-pkg.mjs` fails the build if an export of the release module returns more.
//!
//! So strings and arrays cross through the buffers of one `Engine` (one per instance, owned by
//! the wrapper in `js/robots.js`): the wrapper writes arguments into its input (UTF-8, back to
//! back; see `Engine::reserve`) and reads results from its outputs (`out_text`, `out_u32`)
//! after the call, before the next. Parsed files are handles into the engine's table,
//! so a stale or wrong handle never touches freed memory: it reads as "none", or, for the last
//! small file freed (kept for reuse, `Engine::spare`), as that file. The wrapper never sends
//! either (a freed `Robots` throws before any call) and owns the handles' lifetimes (its own `FinalizationRegistry`, registered only for objects that live
//! past the current job). The hot results are numbers (packed `u32`s; `table` fills `out_u32`);
//! the cold, structured ones (explanations, diagnostics, fetch decisions, AI preferences) are the
//! serde-derived types of `json`, written as JSON into the text result, which the wrapper reads
//! with `JSON.parse`: the shape is defined here once, and no decoder is written by hand.
//! Argument checking and error messages live in the wrapper, so nothing here can fail.
//!
//! Release builds are `no_std` with an aborting panic handler, so no panic or formatting
//! machinery is linked in (which is why the JSON comes from `serde_json`, not
//! `serde-wasm-bindgen`: that needs std, and std's panic runtime alone put the module over its
//! gzip budget; docs/architecture.md); the `debug` feature brings std and
//! `console_error_panic_hook`.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use robots_eval::{aipref, DialectId, Options, Reason, RecordKind, Robots, Selection, Verdict};
use wasm_bindgen::prelude::*;

mod module;
use module::{text, u32_at};

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

/// The structured results as serde-derived types: their JSON is what the wrapper hands to the
/// user (after `JSON.parse`), so field names are the JavaScript API's (js/index.d.ts).
mod json {
    use alloc::string::String;
    use alloc::vec::Vec;
    use serde::Serialize;

    /// `explain(url, agent)`.
    #[derive(Serialize)]
    pub struct Explanation<'a> {
        pub allowed: bool,
        pub reason: &'static str,
        /// The deciding rule's line, 0 when no rule decided.
        pub line: u32,
        pub rule: Option<Rule<'a>>,
        pub group: Option<Group<'a>>,
    }

    #[derive(Serialize)]
    pub struct Rule<'a> {
        pub line: u32,
        pub kind: &'static str,
        pub pattern: &'a str,
    }

    /// The groups an agent obeys.
    #[derive(Serialize)]
    pub struct Group<'a> {
        pub lines: Vec<u32>,
        pub agents: Vec<&'a str>,
    }

    #[derive(Serialize)]
    pub struct Diagnostic {
        pub line: u32,
        pub severity: &'static str,
        pub code: &'static str,
        pub message: String,
    }

    /// The core's decision after one fetch outcome, with the times (ms since the epoch) the
    /// wrapper needs for the lifetime of a failure's answer (see `Engine::fetch_decide`).
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct FetchDecision {
        pub policy: &'static str,
        pub reason: &'static str,
        pub message: &'static str,
        pub retry_at: Option<u64>,
        pub next_change_at: Option<u64>,
        pub max_failure_ms: u64,
    }

    /// A line that is not a user-agent, rule or Sitemap line (`robots.records`).
    #[derive(Serialize)]
    pub struct Record<'a> {
        pub key: &'a str,
        pub value: &'a str,
        pub line: u32,
        /// The user-agent lines it applies to; none outside any group.
        pub agents: Option<Vec<&'a str>>,
    }

    /// The names of the core's dialects and reasons, and of what AI-preference answers are
    /// made of, in the order of their indices in the packed answers (`Engine::names`,
    /// `Engine::ai_preferences`).
    #[derive(Serialize)]
    pub struct Names {
        pub dialects: Vec<&'static str>,
        pub reasons: Vec<&'static str>,
        pub categories: &'static [&'static str],
        pub signals: &'static [&'static str],
        pub whys: &'static [&'static str],
        pub failures: &'static [&'static str],
        pub types: &'static [&'static str],
    }

    /// `value` as JSON. Serialising these types cannot fail (string keys, no floats); the empty
    /// text that would stand for a failure is never produced.
    pub fn to_string(value: &impl Serialize) -> String {
        serde_json::to_string(value).unwrap_or_default()
    }
}

/// Each category's answer as three numbers: value (0 unknown, 1 y, 2 n) | the reason's index
/// in `Why::CODES` << 2 | from the header << 5 | the failure's or the value type's index << 6;
/// the line (of the statement, or of the Disallow for `not-crawlable`; 0 for none); the byte
/// offset of a parse failure.
fn put_answers(out: &mut Vec<u32>, answers: &aipref::Answers) {
    use aipref::{Origin, Why};
    for a in answers {
        let (line, header) = match (a.why.origin(), a.why) {
            (Some(Origin::Line(line)), _) | (None, Why::NotCrawlable(line)) => (line, 0),
            (Some(Origin::Header), _) => (0, 1),
            (None, _) => (0, 0),
        };
        let (detail, offset) = match a.why {
            Why::Malformed(_, e) => (e.failure as u32, e.offset),
            Why::NotYesNo(_, kind) => (kind as u32, 0),
            _ => (0, 0),
        };
        out.push(a.preference as u32 | (a.why.index() as u32) << 2 | header << 5 | detail << 6);
        out.push(line);
        out.push(offset);
    }
}

/// `n` in decimal, in `digits` (no formatting machinery in the module).
fn decimal(mut n: u32, digits: &mut [u8; 10]) -> &str {
    let mut at = digits.len();
    while at > 0 {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    core::str::from_utf8(digits.get(at..).unwrap_or_default()).unwrap_or("")
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
    /// Parsed files by handle - 1 (a freed slot is `None`). Held in place, not boxed: a box
    /// would cost one more allocation and free per file, a measurable part of parsing a small one.
    slots: Vec<Option<Robots>>,
    /// Free slots, reused first.
    free: Vec<u32>,
    /// The slot (handle - 1) of the last file freed, when it was small (`SPARE_MAX_BYTES`), kept
    /// in place (`NO_SPARE`: none): the next parse fills its arrays again
    /// (`Robots::reparse`) instead of allocating some thirteen new ones (parse + free of
    /// small.txt about 6% faster through the package, 1.4x in native code), and without moving
    /// the file in and out of a slot (a `memory.copy` each, a call out of the module).
    spare: u32,
    /// The site (`scheme://authority`, as the wrapper's `URL.origin` writes it) of each parsed
    /// file whose site the wrapper knows, by handle - 1 (empty: unknown); see `allowed`.
    sites: Vec<Vec<u8>>,
}

/// Only a file of at most this many bytes is kept as the spare. A file parsed into the spare
/// that is larger is dropped when it is freed, so the spare never holds more than such a file
/// needs.
const SPARE_MAX_BYTES: usize = 64 * 1024;

/// `Engine::spare` when no file is kept.
const NO_SPARE: u32 = u32::MAX;

impl Engine {
    /// The parsed file behind `handle`, if it is live.
    /// (The spare, a freed file, is still there: the wrapper never asks about a freed handle,
    /// and it would get that file's answers, not another's; `robots_free` tells it apart.)
    fn robots(&self, handle: u32) -> Option<&Robots> {
        self.slots
            .get((handle as usize).wrapping_sub(1))
            .and_then(|slot| slot.as_ref())
    }

    /// Makes `out` the text result; returns its byte length.
    fn put_text(&mut self, out: String) -> u32 {
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

    /// Whether `url` is plainly on the site of the file behind `handle`, or its site is unknown:
    /// the site followed by `/`, `?`, `#` or nothing, or a path (`/x`, not `//host`), as the
    /// wrapper's own first tests (`#onSite` in js/robots.js), which settles every other case.
    fn on_site(&self, handle: u32, url: &[u8]) -> bool {
        let Some(site) = self
            .sites
            .get((handle as usize).wrapping_sub(1))
            .filter(|s| !s.is_empty())
        else {
            return true;
        };
        match url.strip_prefix(site.as_slice()) {
            Some(rest) => matches!(rest.first(), None | Some(b'/' | b'?' | b'#')),
            None => matches!(url, [b'/'] | [b'/', 0..=b'.' | b'0'..=255, ..]),
        }
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
            slots: Vec::new(),
            free: Vec::new(),
            spare: NO_SPARE,
            sites: Vec::new(),
        }
    }

    /// Makes the input at least `len` bytes long (keeping its content) and returns its address,
    /// valid until the next `reserve` or `release`. The wrapper asks for the size it wants (it
    /// doubles it as the buffer grows), so it knows the size without asking.
    pub fn reserve(&mut self, len: u32) -> u32 {
        module::reserve(&mut self.input, len)
    }

    /// Frees the input and output buffers (after a large input or result).
    pub fn release(&mut self) {
        self.input = Vec::new();
        self.text = String::new();
        self.u32s = Vec::new();
    }

    /// The address of the text result.
    pub fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The address of the number results.
    pub fn out_u32(&self) -> u32 {
        self.u32s.as_ptr() as u32
    }

    /// The names of the core's dialects and reasons (`json::Names`) into the text
    /// result; returns its byte length. scripts/build-pkg.mjs reads them when it builds the package
    /// and writes them into the JavaScript: every name is defined once, in the core, and no run of
    /// the package pays for asking.
    pub fn names(&mut self) -> u32 {
        use aipref::sf::{Failure, Type};
        let names = json::Names {
            dialects: DialectId::ALL.iter().map(|d| d.name()).collect(),
            reasons: REASONS.iter().map(|r| r.as_str()).collect(),
            categories: &aipref::LABELS,
            signals: &aipref::SIGNAL_KEYS,
            whys: &aipref::Why::CODES,
            failures: &Failure::TEXTS,
            types: &Type::TEXTS,
        };
        self.put_text(json::to_string(&names))
    }

    /// Parses the first `len` input bytes; returns the new file's handle (never 0).
    pub fn parse(&mut self, len: u32, dialect: u32, max_bytes: u32) -> u32 {
        let bytes = self.input.get(..len as usize).unwrap_or_default();
        let options = options(dialect, max_bytes);
        // Two calls of one out-of-line parse (`parse::parse`, which fills a file in place): the
        // first parse of a process, which V8 compiles on the way, reaches no second copy of it.
        let spare = core::mem::replace(&mut self.spare, NO_SPARE);
        let handle = match self.slots.get_mut(spare as usize).and_then(Option::as_mut) {
            Some(robots) => {
                robots.reparse(bytes, &options);
                spare + 1
            }
            None => {
                let robots = Robots::parse_with(bytes, &options);
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
        };
        // A new file's site is unknown until `set_site` (the slot may have held another's).
        if let Some(site) = self.sites.get_mut((handle as usize).wrapping_sub(1)) {
            site.clear();
        }
        handle
    }

    /// The site of a parsed file: the first `len` input bytes; see `allowed`.
    pub fn set_site(&mut self, handle: u32, len: u32) {
        let index = (handle as usize).wrapping_sub(1);
        if index < self.slots.len() {
            if self.sites.len() <= index {
                self.sites.resize_with(index + 1, Vec::new);
            }
            if let Some(site) = self.sites.get_mut(index) {
                site.clear();
                site.extend_from_slice(self.input.get(..len as usize).unwrap_or_default());
            }
        }
    }

    /// Frees a parsed file; its handle may be given out again.
    pub fn robots_free(&mut self, handle: u32) {
        let index = handle.wrapping_sub(1);
        if index == self.spare {
            return; // freed already
        }
        let Some(small) = self
            .robots(handle)
            .map(|robots| robots.bytes_read() <= SPARE_MAX_BYTES)
        else {
            return;
        };
        // A small file becomes the spare, and the one kept before goes; a larger one goes.
        let gone = if small {
            core::mem::replace(&mut self.spare, index)
        } else {
            index
        };
        if let Some(slot) = self.slots.get_mut(gone as usize) {
            *slot = None;
            self.free.push(gone);
        }
    }

    /// The packed selection (see `pack_selection`) of the agent in the first `len` input bytes.
    pub fn selection(&self, handle: u32, len: u32) -> u32 {
        self.with_agent(handle, 0, len)
            .map_or(0, |(_, selection)| pack_selection(selection))
    }

    /// Bit 0: the URL in the first `len` input bytes is allowed for a packed selection (from
    /// `selection` on this file). Bit 1: the file's site is known (`set_site`) and the URL is
    /// not plainly on it (see `on_site`): the wrapper settles that with its URL parser. (Here,
    /// where the URL is already in memory, the common case costs a comparison; the same test in
    /// JavaScript, `startsWith` with a string that is not a constant, cost Node 20 some 700
    /// instructions per query.)
    pub fn allowed(&self, handle: u32, len: u32, selection: u32) -> u32 {
        self.robots(handle).map_or(1, |r| {
            // The common URL is read from its octets (`Robots::ascii_path`), without validating
            // it as UTF-8 first (a sixth of the query, in WebAssembly); any other as text.
            let url = self.input.get(..len as usize).unwrap_or_default();
            let (path, url) = match r.ascii_path(url) {
                Some(path) => (path, url),
                None => {
                    let url = text(&self.input, 0, len);
                    (r.text_path(url), url.as_bytes())
                }
            };
            // (check_selection, spelled out: a call less on the hot path.)
            let v = r.check_path(&path, unpack_selection(selection));
            u32::from(v.allowed) | u32::from(!self.on_site(handle, url)) << 1
        })
    }

    /// The verdict for the URL (first `url_len` input bytes) and the agent (the next
    /// `agent_len`) and why (`json::Explanation`), into the text result; returns its byte length
    /// << 1, with bit 0 set when the file's site is known and the URL is not plainly on it (as
    /// `allowed`'s bit 1).
    pub fn explain(&mut self, handle: u32, url_len: u32, agent_len: u32) -> u32 {
        let Some((r, selection)) = self.with_agent(handle, url_len, agent_len) else {
            return 0;
        };
        let url = text(&self.input, 0, url_len);
        let off_site = u32::from(!self.on_site(handle, url.as_bytes()));
        let v = r.check_selection(url, selection);
        let rule = v.rule.and_then(|i| r.rule(i)).map(|rule| json::Rule {
            line: rule.line,
            kind: rule.kind.as_str(),
            pattern: rule.pattern,
        });
        let lines: Vec<u32> = r.selected_groups(selection).map(|g| g.line()).collect();
        let group = (!lines.is_empty()).then(|| json::Group {
            lines,
            agents: r
                .selected_groups(selection)
                .flat_map(|g| g.agents().map(|(_, value)| value))
                .collect(),
        });
        let explanation = json::Explanation {
            allowed: v.allowed,
            reason: v.reason.as_str(),
            line: rule.as_ref().map_or(0, |rule| rule.line),
            rule,
            group,
        };
        let out = json::to_string(&explanation);
        self.put_text(out) << 1 | off_site
    }

    /// Every cell of the decision table, row-major (rows = URLs, columns = agents), packed with
    /// the deciding rule's line, into the number result; returns how many of the URLs are not
    /// plainly on the file's known site (see `on_site`): when some are, the wrapper checks them
    /// all with its URL parser. The input holds the agents' packed selections (`cols`
    /// little-endian u32s), the URLs' byte lengths (`count` more) and then the URLs, back to back.
    pub fn table(&mut self, handle: u32, count: u32, cols: u32) -> u32 {
        let (count, cols) = (count as usize, cols as usize);
        let mut off_site = 0;
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
                off_site += u32::from(!e.on_site(handle, url.as_bytes()));
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
        off_site
    }

    /// Crawl-delay in seconds for the agent in the first `len` input bytes; NaN when there is none.
    pub fn crawl_delay(&self, handle: u32, len: u32) -> f64 {
        self.robots(handle)
            .and_then(|r| r.crawl_delay(text(&self.input, 0, len)))
            .unwrap_or(f64::NAN)
    }

    /// The Sitemap URLs, as a JSON array, into the text result; returns its byte length.
    pub fn sitemaps(&mut self, handle: u32) -> u32 {
        let out = self
            .robots(handle)
            .map(|r| json::to_string(&r.sitemaps().collect::<Vec<_>>()));
        self.put_text(out.unwrap_or_default())
    }

    /// The diagnostics (`json::Diagnostic`s) into the text result; returns its byte length.
    pub fn diagnostics(&mut self, handle: u32) -> u32 {
        let out = self.robots(handle).map(|r| {
            let all: Vec<json::Diagnostic> = r
                .diagnostics()
                .iter()
                .map(|d| json::Diagnostic {
                    line: d.line,
                    severity: d.severity.as_str(),
                    code: d.code.as_str(),
                    message: d.message(),
                })
                .collect();
            json::to_string(&all)
        });
        self.put_text(out.unwrap_or_default())
    }

    /// The AI usage preferences for the URL (the first `url_len` input bytes), the agent (the
    /// next `agent_len`) and a Content-Usage header value (the next `header_len`; `u32::MAX`
    /// for none). Into the number result: the packed verdict with its line (`pack`); a flag
    /// (bit 0: a Content-Signal line applies, bit 1: a header was given); the answers (see
    /// `put_answers`) of Content-Usage, then with a header of the header and combined; per
    /// signal its value (0 unknown, 1 yes, 2 no) and line (0: none). Into the text result, the
    /// extra Content-Signal keys: key, value, line, each `\n`-prefixed. Returns the text's length.
    pub fn ai_preferences(
        &mut self,
        handle: u32,
        url_len: u32,
        agent_len: u32,
        header_len: u32,
    ) -> u32 {
        let mut nums = core::mem::take(&mut self.u32s);
        let mut extras = core::mem::take(&mut self.text);
        nums.clear();
        extras.clear();
        if let Some(r) = self.robots(handle) {
            let input = &self.input;
            let (url, agent) = (text(input, 0, url_len), text(input, url_len, agent_len));
            let header = optional(input, &mut url_len.saturating_add(agent_len), header_len);
            let p = r.ai_preferences(url, agent, header.map(str::as_bytes));
            let selection = p.verdict.selection;
            nums.push(pack(&p.verdict, r.line_of(&p.verdict)));
            nums.push(u32::from(p.content_signal.is_some()) | u32::from(header.is_some()) << 1);
            for answers in [
                Some(&p.content_usage),
                p.header_usage.as_ref(),
                p.combined.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                put_answers(&mut nums, answers);
            }
            for s in p.content_signal.iter().flatten() {
                nums.push(s.preference as u32);
                nums.push(s.line.unwrap_or(0));
            }
            let mut line = [0u8; 10];
            r.content_signal_extras(selection, |n, key, value| {
                for item in [key, value, decimal(n, &mut line)] {
                    extras.push('\n');
                    extras.push_str(item);
                }
            });
        }
        self.u32s = nums;
        self.put_text(extras)
    }

    /// 1 when the input was longer than max_bytes (the rest was ignored).
    pub fn truncated(&self, handle: u32) -> u32 {
        self.robots(handle).map_or(0, |r| u32::from(r.truncated()))
    }

    // -----------------------------------------------------------------------------------------
    // Records and agent lists (docs/records.md).
    // -----------------------------------------------------------------------------------------

    /// The Request-rate of the agent in the first `len` input bytes: its seconds (NaN when there
    /// is none), and its number of requests into the number result.
    pub fn request_rate(&mut self, handle: u32, len: u32) -> f64 {
        let rate = self
            .robots(handle)
            .and_then(|r| r.request_rate(text(&self.input, 0, len)));
        self.u32s.clear();
        match rate {
            Some(rate) => {
                self.u32s.push(rate.requests);
                rate.seconds
            }
            None => f64::NAN,
        }
    }

    /// The Host (its JSON: a string, or null when there is none) into the text result; returns
    /// its byte length.
    pub fn host(&mut self, handle: u32) -> u32 {
        let out = json::to_string(&self.robots(handle).and_then(Robots::host));
        self.put_text(out)
    }

    /// Every record but Sitemap lines (`json::Record`s) into the text result; returns its byte
    /// length.
    pub fn records(&mut self, handle: u32) -> u32 {
        let out = self.robots(handle).map(|r| {
            let all: Vec<json::Record> = r
                .records()
                .filter(|record| record.kind != RecordKind::Sitemap)
                .map(|record| json::Record {
                    key: record.field,
                    value: record.value,
                    line: record.line,
                    agents: record.group.map(|_| record.agents().collect()),
                })
                .collect();
            json::to_string(&all)
        });
        self.put_text(out.unwrap_or_default())
    }

    // -----------------------------------------------------------------------------------------
    // The fetch lifecycle (robots_eval::fetch). Page-level rules (META, X-Robots-Tag) are the
    // second module's: wasm-page/src/lib.rs.
    // -----------------------------------------------------------------------------------------

    /// The policy after one fetch outcome (`json::FetchDecision`), into the text result; returns
    /// its byte length. `kind`: 0 status, 1 network error, 2 timeout, 3 too many redirects. The
    /// decision (the citation is left out to keep the .wasm small): policy, reason, message; then
    /// three times in ms: the `Retry-After` time, when the same failure would start to be handled
    /// differently (`next_change_at_ms`), both null when there is none, and the longest a
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
        let decision = json::FetchDecision {
            policy,
            reason: d.reason,
            message: d.message,
            retry_at: d.retry_at_ms,
            next_change_at: d.next_change_at_ms,
            max_failure_ms: max_ms,
        };
        self.put_text(json::to_string(&decision))
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
