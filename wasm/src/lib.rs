//! The verdict module of robots-eval's npm package: what a crawler asks for every site and URL
//! (parse, `isAllowed`, `table`, `isExplicitlyDisallowed`, Crawl-delay, Request-rate, Sitemap,
//! Host), in every dialect. The fetch policy behind `fetchRobots` is the policy module's
//! (wasm-policy/src/lib.rs), and everything else (explanations, diagnostics, records, AI
//! preferences, META tags) the rich module's (wasm-rich/src/lib.rs), each compiled only when first
//! used; docs/architecture.md says where the lines are and why.
//!
//! It converts and calls the core, nothing else. Every export takes and returns numbers only
//! (`u32`, `f64`), as plain `extern "C"` functions, with no wasm-bindgen: V8 calls such exports
//! through its generic JS-to-wasm wrapper, while each signature that returns two values costs an
//! optimised wrapper compiled with the module, which doubled `new WebAssembly.Module`; and with no
//! import there is no wasm-to-JS wrapper to compile either. `scripts/build-pkg.mjs` fails the
//! build if the release module imports anything or an export returns more than one value.
//!
//! So strings and arrays cross through the buffers of the instance's one `Engine` (`ENGINE`;
//! the protocol is robots-eval-boundary's, wasm-boundary/src/lib.rs): the JS engine (js/engine.js)
//! writes arguments into its input (UTF-8, back to back; see `reserve`) and reads results from its
//! outputs (`out_text`, `out_u32`) after the call, before the next. Parsed files are handles into the engine's table,
//! so a stale or wrong handle never touches freed memory: it reads as "none", or, for the last
//! small file freed (kept for reuse, `Engine::spare`), as that file. The wrapper never sends
//! either (a freed `Robots` throws before any call) and owns the handles' lifetimes (its own
//! `FinalizationRegistry`, registered only for objects that live past the current job). The
//! results are numbers (packed `u32`s; `table` fills `out_u32`) and two plain texts (Sitemap
//! URLs, Host). Argument checking and error messages
//! live in the wrapper, so nothing here can fail.
//!
//! Release builds are `no_std` with an aborting panic handler (robots-eval-boundary's), so no
//! panic or formatting machinery is linked in; the `debug` feature brings std.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use core::num::NonZeroUsize;

use robots_eval::{hot, url, Robots, Selection};
use robots_eval_boundary::{
    options, pack_selection, pack_verdict, text, u32_at, unpack_selection, Global, OFF_SITE,
};

/// The instance's state: the argument and result buffers, and the parsed files.
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
    sites: Vec<Site>,
}

/// A parsed file's site, as `set_site` was given it.
#[derive(Default)]
struct Site {
    /// `scheme://authority` (empty: unknown).
    origin: Vec<u8>,
    /// Whether the path of a URL that is `origin` followed by `/` starts at `origin.len()`
    /// (`hot::path_starts_after`): `allowed` then skips the search for it.
    path_after: bool,
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

    /// Whether `url` is plainly on the site of the file behind `handle` (the core's
    /// `url::plainly_on_site`), or its site is unknown. A `false` is "not plainly": the wrapper's
    /// URL parser (js/site.js) settles it with the equivalences of RFC 3986 section 6.2.2-6.2.3
    /// and the WHATWG URL standard (scheme and host in any case, a default or empty port,
    /// percent-encoded or IDNA hosts...), as the Python package's `url` crate does.
    fn on_site(&self, handle: u32, url: &[u8]) -> bool {
        self.site_and_path(handle, url).0
    }

    /// `on_site`, and where the path of `url` starts when that comparison tells it: when `url`
    /// is the site followed by `/` and the site is one `hot::path_starts_after` accepts (else 0:
    /// not known, `hot::ascii_path_at` searches). One comparison with the site for both: `allowed`'s
    /// URL then needs no search for its path. (Inlined: a pair returned from a call goes through
    /// memory in WebAssembly.)
    #[inline(always)]
    fn site_and_path(&self, handle: u32, url: &[u8]) -> (bool, usize) {
        let Some(site) = self
            .sites
            .get((handle as usize).wrapping_sub(1))
            .filter(|s| !s.origin.is_empty())
        else {
            return (true, 0);
        };
        let n = site.origin.len();
        // The common case, a URL as the site writes it followed by its path: one comparison,
        // eight octets at a time, which also tells where the path starts.
        if let (Some(head), Some(b'/')) = (url.get(..n), url.get(n)) {
            if same(head, &site.origin) {
                return (true, if site.path_after { n } else { 0 });
            }
        }
        (url::plainly_on_site(&site.origin, url), 0)
    }

    /// The file behind `handle` and the groups the agent (`len` input bytes from `at`) obeys.
    fn with_agent(&self, handle: u32, at: u32, len: u32) -> Option<(&Robots, Selection)> {
        let r = self.robots(handle)?;
        Some((r, r.selection(text(&self.input, at, len))))
    }
}

/// `a == b` for slices of one length, eight octets at a time (the slice comparison calls a
/// `memcmp` that compares one octet per iteration: some 250 instructions of a query for a site
/// of 19 octets, through the package).
fn same(a: &[u8], b: &[u8]) -> bool {
    let word = |s: &[u8], i: usize| {
        s.get(i..i + 8)
            .map(|w| u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
    };
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        return a == b;
    }
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    // The last eight octets, overlapping the words compared already.
    word(a, n - 8) == word(b, n - 8)
}

impl Engine {
    const fn new() -> Engine {
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
    fn reserve(&mut self, len: u32) -> u32 {
        robots_eval_boundary::reserve(&mut self.input, len)
    }

    /// Frees the input and output buffers (after a large input or result).
    fn release(&mut self) {
        self.input = Vec::new();
        self.text = String::new();
        self.u32s = Vec::new();
    }

    /// The address of the text result.
    fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The address of the number results.
    fn out_u32(&self) -> u32 {
        self.u32s.as_ptr() as u32
    }

    /// Parses the first `len` input bytes; returns the new file's handle (never 0).
    fn parse(&mut self, len: u32, dialect: u32, max_bytes: u32) -> u32 {
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
            site.origin.clear();
            site.path_after = false;
        }
        handle
    }

    /// The site of a parsed file: the first `len` input bytes; see `allowed`.
    fn set_site(&mut self, handle: u32, len: u32) {
        let index = (handle as usize).wrapping_sub(1);
        if index < self.slots.len() {
            if self.sites.len() <= index {
                self.sites.resize_with(index + 1, Site::default);
            }
            if let Some(site) = self.sites.get_mut(index) {
                site.origin.clear();
                site.origin
                    .extend_from_slice(self.input.get(..len as usize).unwrap_or_default());
                site.path_after = hot::path_starts_after(&site.origin);
            }
        }
    }

    /// Frees a parsed file; its handle may be given out again.
    fn robots_free(&mut self, handle: u32) {
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
    fn selection(&self, handle: u32, len: u32) -> u32 {
        self.with_agent(handle, 0, len)
            .map_or(0, |(_, selection)| pack_selection(selection))
    }

    /// Bit 0: the URL in the first `len` input bytes is allowed for a packed selection (from
    /// `selection` on this file). Bit 1: the file's site is known (`set_site`) and the URL is
    /// not plainly on it (see `on_site`): the wrapper settles that with its URL parser. (Here,
    /// where the URL is already in memory, the common case costs a comparison; the same test in
    /// JavaScript, `startsWith` with a string that is not a constant, cost Node 20 some 700
    /// instructions per query.)
    fn allowed(&self, handle: u32, len: u32, selection: u32) -> u32 {
        self.robots(handle).map_or(1, |r| {
            // The common URL is read from its octets (`hot::ascii_path_at`), without validating
            // it as UTF-8 first (a sixth of the query, in WebAssembly); any other as text.
            let url = self.input.get(..len as usize).unwrap_or_default();
            // A URL written as its file's site and a path (a crawler's queue, for a file parsed
            // with its `url`): the comparison that tells it is on the site tells where its path
            // starts too.
            let (on_site, path_start) = self.site_and_path(handle, url);
            let path = match hot::ascii_path_at(r, url, NonZeroUsize::new(path_start)) {
                Some(path) => path,
                None => hot::text_path(r, text(&self.input, 0, len)),
            };
            // (check_selection, spelled out: a call less on the hot path.)
            let v = r.check_path(&path, unpack_selection(selection));
            u32::from(v.allowed) | (u32::from(!on_site) * OFF_SITE)
        })
    }

    /// `OFF_SITE` when the file's site is known (`set_site`) and the URL in the first `len` input
    /// bytes is not plainly on it (see `on_site`), else 0: for the queries of the rich module,
    /// which knows no site.
    fn off_site(&self, handle: u32, len: u32) -> u32 {
        let url = self.input.get(..len as usize).unwrap_or_default();
        u32::from(!self.on_site(handle, url)) * OFF_SITE
    }

    /// Every cell of the decision table, row-major (rows = URLs, columns = agents), packed with
    /// the deciding rule's line, into the number result; returns how many of the URLs are not
    /// plainly on the file's known site (see `on_site`). When some are, one number per URL
    /// follows the cells, `OFF_SITE` for each of them (else 0): the wrapper's URL parser settles
    /// those. The input holds the agents' packed selections (`cols`
    /// little-endian u32s), the URLs' byte lengths (`count` more) and then the URLs, back to back.
    fn table(&mut self, handle: u32, count: u32, cols: u32) -> u32 {
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
                    cells.push(pack_verdict(&v, robots.line_of(&v)));
                }
                out.extend(columns.iter().map(|&c| cells[c]));
            }
            if off_site > 0 {
                let mut at = lengths + count * 4;
                for i in 0..count {
                    let len = u32_at(input, lengths + i * 4);
                    let url = text(input, at as u32, len);
                    at += len as usize;
                    out.push(u32::from(!e.on_site(handle, url.as_bytes())) * OFF_SITE);
                }
            }
        });
        off_site
    }

    /// Crawl-delay in seconds for the agent in the first `len` input bytes; NaN when there is none.
    fn crawl_delay(&self, handle: u32, len: u32) -> f64 {
        self.robots(handle)
            .and_then(|r| r.crawl_delay(text(&self.input, 0, len)))
            .unwrap_or(f64::NAN)
    }

    /// The Sitemap URLs into the text result, each after a `\n` (a value never holds one);
    /// returns its byte length.
    fn sitemaps(&mut self, handle: u32) -> u32 {
        let mut out = String::new();
        for url in self.robots(handle).into_iter().flat_map(Robots::sitemaps) {
            out.push('\n');
            out.push_str(url);
        }
        self.put_text(out)
    }

    /// 1 when the input was longer than max_bytes (the rest was ignored).
    fn truncated(&self, handle: u32) -> u32 {
        self.robots(handle).map_or(0, |r| u32::from(r.truncated()))
    }

    // -----------------------------------------------------------------------------------------
    // Records and agent lists (docs/records.md).
    // -----------------------------------------------------------------------------------------

    /// The Request-rate of the agent in the first `len` input bytes: its seconds (NaN when there
    /// is none), and its number of requests into the number result.
    fn request_rate(&mut self, handle: u32, len: u32) -> f64 {
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

    /// The Host into the text result; returns its byte length + 1, 0 when there is none.
    fn host(&mut self, handle: u32) -> u32 {
        match self.robots(handle).and_then(Robots::host) {
            Some(host) => {
                let out = String::from(host);
                self.put_text(out) + 1
            }
            None => 0,
        }
    }
}

/// The instance's one engine, which every export reaches.
static ENGINE: Global<Engine> = Global::new(Engine::new());

// The exports: each the `Engine` method of its name (documented there), on `ENGINE`.
robots_eval_boundary::exports! {
    ENGINE;
    reserve(len: u32) -> u32;
    release();
    out_text() -> u32;
    out_u32() -> u32;
    parse(len: u32, dialect: u32, max_bytes: u32) -> u32;
    set_site(handle: u32, len: u32);
    robots_free(handle: u32);
    selection(handle: u32, len: u32) -> u32;
    allowed(handle: u32, len: u32, selection: u32) -> u32;
    off_site(handle: u32, len: u32) -> u32;
    table(handle: u32, count: u32, cols: u32) -> u32;
    crawl_delay(handle: u32, len: u32) -> f64;
    sitemaps(handle: u32) -> u32;
    truncated(handle: u32) -> u32;
    request_rate(handle: u32, len: u32) -> f64;
    host(handle: u32) -> u32;
}
