//! The boundary between the npm package's JavaScript and its WebAssembly modules, declared once:
//! how the numbers-only modules (the verdict module, wasm/; the policy module, wasm-policy/) take
//! arguments and give results, which numbers mean what, and the state each instance holds.
//!
//! - **Buffers.** Each instance has one engine (`Global`). The JavaScript engine (js/engine.js)
//!   writes arguments into its input buffer (`reserve`, UTF-8 text and little-endian `u32`s back to
//!   back) and reads results from its output buffers (text, `u32`s, `f64`s) after the call, before
//!   the next: every export takes and returns numbers only (docs/architecture.md says why).
//! - **Packing and sentinels.** The constants below, which `PROTOCOL` lists by name: the rich
//!   module hands that list to scripts/build-pkg.mjs at build time, which writes it into the
//!   package's JavaScript (js/protocol.js in the built stage), as it does the dialect and reason
//!   names. No number here is written again by hand on the other side.

#![no_std]

extern crate alloc;

use robots_eval::{DialectId, Options, Selection, Verdict};

/// An absent optional argument (a string's byte length) or result.
pub const NONE: u32 = u32::MAX;

/// A `Selection` packed into one number (the wrapper caches it per agent): its kind in the low
/// bits, the rule set's index above them.
pub const SELECTION_KIND_MASK: u32 = 3;
/// The kind of a selection with no group.
pub const SELECTION_NONE: u32 = 0;
/// The kind of a selection of groups naming the agent itself (RFC 9309's specific match).
pub const SELECTION_SPECIFIC: u32 = 1;
/// The kind of a selection of the `*` group.
pub const SELECTION_GLOBAL: u32 = 2;
/// Where the rule set's index starts.
pub const SELECTION_SHIFT: u32 = 2;

/// A verdict packed into one number (`table`'s cells): allowed in bit 0, the reason above it
/// (`Reason as u32`: the names are the rich module's `names`, which checks their order), then the
/// deciding rule's line.
pub const VERDICT_ALLOWED: u32 = 1;
pub const VERDICT_REASON_SHIFT: u32 = 1;
pub const VERDICT_REASON_MASK: u32 = 7;
pub const VERDICT_LINE_SHIFT: u32 = 4;

/// `allowed`'s second bit: the file's site is known and the URL is not plainly on it (the wrapper
/// settles that with its URL parser).
pub const OFF_SITE: u32 = 2;

/// Every constant above by name, for the JavaScript side (written at build time).
pub const PROTOCOL: &[(&str, u32)] = &[
    ("NONE", NONE),
    ("SELECTION_KIND_MASK", SELECTION_KIND_MASK),
    ("SELECTION_NONE", SELECTION_NONE),
    ("SELECTION_SPECIFIC", SELECTION_SPECIFIC),
    ("SELECTION_GLOBAL", SELECTION_GLOBAL),
    ("SELECTION_SHIFT", SELECTION_SHIFT),
    ("VERDICT_ALLOWED", VERDICT_ALLOWED),
    ("VERDICT_REASON_SHIFT", VERDICT_REASON_SHIFT),
    ("VERDICT_REASON_MASK", VERDICT_REASON_MASK),
    ("VERDICT_LINE_SHIFT", VERDICT_LINE_SHIFT),
    ("OFF_SITE", OFF_SITE),
];

/// A verdict as one number, with `line` (the deciding rule's line) above it.
pub fn pack_verdict(v: &Verdict, line: u32) -> u32 {
    (u32::from(v.allowed) * VERDICT_ALLOWED)
        | ((v.reason as u32) << VERDICT_REASON_SHIFT)
        | (line << VERDICT_LINE_SHIFT)
}

/// A `Selection` as one number.
pub fn pack_selection(s: Selection) -> u32 {
    match s {
        Selection::None => SELECTION_NONE,
        Selection::Specific(i) => i << SELECTION_SHIFT | SELECTION_SPECIFIC,
        Selection::Global(i) => i << SELECTION_SHIFT | SELECTION_GLOBAL,
    }
}

/// The `Selection` a number from `pack_selection` stands for (anything else: none).
pub fn unpack_selection(s: u32) -> Selection {
    match s & SELECTION_KIND_MASK {
        SELECTION_SPECIFIC => Selection::Specific(s >> SELECTION_SHIFT),
        SELECTION_GLOBAL => Selection::Global(s >> SELECTION_SHIFT),
        _ => Selection::None,
    }
}

/// A dialect as every module receives it: its index in `DialectId::ALL` (the names the wrapper
/// indexes by; an index out of range is the default dialect).
pub fn dialect_at(dialect: u32) -> DialectId {
    DialectId::ALL
        .get(dialect as usize)
        .copied()
        .unwrap_or_default()
}

/// The parse options of `Robots.parse` as every module receives them: the dialect index and the
/// size cap in bytes.
pub fn options(dialect: u32, max_bytes: u32) -> Options {
    Options {
        dialect: dialect_at(dialect),
        max_bytes: max_bytes as usize,
    }
}

/// `len` input bytes from `at`, as text (the wrapper writes UTF-8 only; anything else, or a
/// range outside the buffer, reads as empty rather than trapping).
pub fn text(input: &[u8], at: u32, len: u32) -> &str {
    let at = at as usize;
    input
        .get(at..at.saturating_add(len as usize))
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or("")
}

/// The little-endian u32 at byte `at` of the input (0 outside it).
pub fn u32_at(input: &[u8], at: usize) -> u32 {
    input
        .get(at..at.saturating_add(4))
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// An optional string argument: `len` input bytes from `*at`, none when `len` is `NONE`; moves
/// `*at` past it.
pub fn optional<'a>(input: &'a [u8], at: &mut u32, len: u32) -> Option<&'a str> {
    if len == NONE {
        return None;
    }
    let s = text(input, *at, len);
    *at = at.saturating_add(len);
    Some(s)
}

/// Makes the argument buffer at least `len` bytes long (keeping its content) and returns its
/// address, valid until it is grown or freed: each module's `reserve` export.
pub fn reserve(input: &mut alloc::vec::Vec<u8>, len: u32) -> u32 {
    if len as usize > input.len() {
        input.resize(len as usize, 0);
    }
    input.as_ptr() as u32
}

/// The one engine of an instance (a module's state: its buffers, its parsed files), which its
/// exports reach. A `RefCell`: an export never calls out of the module, so a second borrow
/// cannot happen; were it to, the borrow would panic, which traps.
pub struct Global<T>(core::cell::RefCell<T>);

// SAFETY: these modules are built for wasm32 without the `atomics` feature (one thread per
// instance, and no shared memory), so no `Global` is ever reached from two threads.
#[cfg(not(target_feature = "atomics"))]
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub const fn new(value: T) -> Self {
        Self(core::cell::RefCell::new(value))
    }

    /// `f` on the engine.
    #[inline(always)]
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        f(&mut self.0.borrow_mut())
    }
}

/// The exports of a numbers-only module: each the method of its name of the engine in `$engine`
/// (a `Global`), as a plain `extern "C"` function of numbers.
#[macro_export]
macro_rules! exports {
    ($engine:ident; $($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(
            #[no_mangle]
            #[allow(clippy::too_many_arguments)]
            pub extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                $engine.with(|e| e.$name($($arg),*))
            }
        )*
    };
}

/// Talc rather than dlmalloc (Rust's own for wasm): 4.5 KB less .wasm (1.9 KB gzip), and of what
/// V8 compiles for a process's first parse, about 1.7 KB of allocator instead of 5.6 KB (V8
/// compiles each function on its first call: docs/performance.md, "Cold start"); parse and
/// query take as many instructions (within 1%), and freed memory is reused as before
/// (tests/js/memory.test.mjs).
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The core never panics on any input; should it ever, the module traps (the JS engine turns
/// the trap into an `Error` and replaces the instance) without carrying message formatting.
#[cfg(all(target_arch = "wasm32", feature = "runtime", not(feature = "debug")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
