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
// The fetch lifecycle (robots_eval::fetch) and page-level rules (robots_eval::meta, at the end).
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

/// The policy after one fetch outcome. `kind`: 0 status, 1 network error, 2 timeout, 3 too many
/// redirects. Returns (see `join`; the citation is left out to keep the .wasm small): policy,
/// reason, message; then three times in ms, each empty when there is none: the `Retry-After`
/// time, when the same failure would start to be handled differently (`next_change_at_ms`),
/// and the longest a failure's answer may be kept: the dialect's cap on a copy's lifetime, or its
/// default lifetime when it has no cap (24 h for rfc9309 and google, 7 days for the others).
/// `unreachable_since_ms`: when the current run of failed fetches began (ms since the epoch), NaN
/// when this failure is the first (it then counts as `now_ms`); see `FetchContext`.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn fetch_decide(
    dialect: u32,
    kind: u32,
    status: u32,
    now_ms: f64,
    redirects_followed: u32,
    has_cached_copy: bool,
    unreachable_since_ms: f64,
    retry_after: Option<String>,
) -> String {
    use robots_eval::fetch::{decide, freshness, CacheHeaders, FetchContext, FetchOutcome, Policy};
    let outcome = match kind {
        0 => FetchOutcome::Status(u16::try_from(status).unwrap_or(0)),
        1 => FetchOutcome::NetworkError,
        2 => FetchOutcome::Timeout,
        _ => FetchOutcome::TooManyRedirects,
    };
    let ctx = FetchContext {
        now_ms: now_ms as u64,
        // NaN (and anything negative) means none; `as` saturates, so no panic path.
        unreachable_since_ms: (unreachable_since_ms >= 0.0).then_some(unreachable_since_ms as u64),
        has_cached_copy,
        redirects_followed: u8::try_from(redirects_followed).unwrap_or(u8::MAX),
        site_down: false,
        retry_after: retry_after.as_deref(),
    };
    let dialect = dialect_at(dialect);
    let d = decide(dialect, &outcome, &ctx);
    let policy = match d.policy {
        Policy::Parse { .. } => "parse",
        Policy::FollowRedirect => "follow-redirect",
        Policy::AllowAll => "allow-all",
        Policy::DisallowAll => "disallow-all",
        Policy::Defer => "defer",
        Policy::UseCached => "use-cached",
    };
    let mut s = join([policy, d.reason, d.message].into_iter());
    push_ms(&mut s, d.retry_at_ms);
    push_ms(&mut s, d.next_change_at_ms);
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
    push_ms(&mut s, Some(max_ms));
    s
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

/// A robots META / `X-Robots-Tag` result in compact form (see `meta_out`); the wrapper takes
/// each part once.
#[wasm_bindgen]
pub struct NativeMeta {
    nums: Vec<f64>,
    lens: Vec<u32>,
    text: String,
}

impl NativeMeta {
    /// Appends a string; `lens` gets its length in UTF-16 code units (JS string length).
    fn s(&mut self, v: &str) {
        self.lens.push(v.encode_utf16().count() as u32);
        self.text.push_str(v);
    }

    /// numbers: the 11 resolved fields (NaN for none), truncated, the directive count, the
    /// keyword count, description?, document-state (NaN none, 0 static, 1 dynamic, 2 other),
    /// url?, revisit-after?, its days (NaN); then kind, origin (0 meta, 1 header) and
    /// has-scope per directive. Strings, in order: per directive raw and scope (if any); the
    /// description, keywords, the other document-state, url, revisit-after raw, when present.
    fn new(m: &robots_eval::meta::MetaRobots, conflict: u32) -> NativeMeta {
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
        let mut out = NativeMeta {
            nums: Vec::with_capacity(19 + 3 * m.directives.len()),
            lens: Vec::new(),
            text: String::new(),
        };
        out.nums.extend_from_slice(&[
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
            out.nums.push(f64::from(kind));
            out.nums.push(flag(d.origin == Origin::Header));
            out.s(&d.raw);
            match &d.scope {
                Scope::Generic => out.nums.push(0.0),
                Scope::Agent(a) => {
                    out.nums.push(1.0);
                    out.s(a);
                }
            }
        }
        if let Some(v) = &o.description {
            out.s(v);
        }
        for k in &o.keywords {
            out.s(k);
        }
        if let Some(DocumentState::Other(v)) = &o.document_state {
            out.s(v);
        }
        if let Some(v) = &o.url {
            out.s(v);
        }
        if let Some(v) = &o.revisit_after {
            out.s(&v.raw);
        }
        out
    }
}

#[wasm_bindgen]
impl NativeMeta {
    /// The robots META tags of an HTML document for `agent`. `conflict`: 0 most restrictive,
    /// 1 seed 001.
    pub fn html(html: &[u8], agent: &str, conflict: u32) -> NativeMeta {
        NativeMeta::new(&robots_eval::meta::meta_robots(html, agent), conflict)
    }

    /// `X-Robots-Tag` values, UTF-8 back to back, with their byte lengths.
    pub fn header(bytes: &[u8], lens: &[u32], agent: &str, conflict: u32) -> NativeMeta {
        let mut values = Vec::with_capacity(lens.len());
        let mut at = 0usize;
        for &len in lens {
            let end = at.saturating_add(len as usize);
            values.push(
                bytes
                    .get(at..end)
                    .and_then(|b| core::str::from_utf8(b).ok())
                    .unwrap_or(""),
            );
            at = end;
        }
        NativeMeta::new(&robots_eval::meta::x_robots_tag(&values, agent), conflict)
    }

    pub fn nums(&mut self) -> Vec<f64> {
        core::mem::take(&mut self.nums)
    }

    pub fn lens(&mut self) -> Vec<u32> {
        core::mem::take(&mut self.lens)
    }

    pub fn text(&mut self) -> String {
        core::mem::take(&mut self.text)
    }
}
