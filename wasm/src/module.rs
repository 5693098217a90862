//! What the no_std modules of the npm package have (wasm/ and wasm-policy/ both compile this file:
//! `#[path]` in wasm-policy/src/lib.rs): the allocator, the panic handler, the debug build's panic
//! hook, and the readers of the argument buffer the JS wrapper writes.

/// Talc rather than dlmalloc (Rust's own for wasm): 4.5 KB less .wasm (1.9 KB gzip), and of what
/// V8 compiles for a process's first parse, about 1.7 KB of allocator instead of 5.6 KB (V8
/// compiles each function on its first call: docs/performance.md, "Cold start"); parse and
/// query take as many instructions (within 1%), and freed memory is reused as before
/// (tests/js/memory.test.mjs).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The core never panics on any input; should it ever, the module traps (the JS wrapper turns
/// the trap into an `Error` and replaces the instance) without carrying message formatting.
#[cfg(all(target_arch = "wasm32", not(feature = "debug")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(feature = "debug")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
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

/// Makes the argument buffer at least `len` bytes long (keeping its content) and returns its
/// address, valid until it is grown or freed: each module's `Engine::reserve`.
pub fn reserve(input: &mut alloc::vec::Vec<u8>, len: u32) -> u32 {
    if len as usize > input.len() {
        input.resize(len as usize, 0);
    }
    input.as_ptr() as u32
}
