// The one place that touches a WebAssembly instance's memory, for each of the package's three
// modules (docs/architecture.md, "The wasm boundary"): the verdict module (js/robots.js), the
// policy module (js/fetch.js) and the rich module (js/rich.js). An engine compiles its module
// once (on first use: `loadModule`), instantiates it (the numbers-only modules with no imports,
// their plain exports called directly; the rich module through its wasm-bindgen bindings), writes
// strings and numbers into the input buffer of the instance's engine (wasm-boundary/src/lib.rs:
// `reserve`), reads text and numbers back from its output buffers, and turns a trap into an Error
// and a fresh instance on the next call.
//
// The verdict module's hot paths (isAllowed, table) call `put` and `putUrl` and read `e.w`: the
// engine's state lives in this closure, as the wrapper's did, so a query costs what it did.

import { decodeUtf8, instanceFailure } from './common.js';

const EMPTY = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);
// Typed arrays use the platform's byte order, wasm memory is little-endian.
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const encoder = new TextEncoder();

/**
 * The engine of one module. `loadModule()`: its compiled WebAssembly.Module; `createBindings()`:
 * wasm-bindgen's bindings for one instance (the rich module), or null for a numbers-only module,
 * whose exports are then `e.w`; `freeHandle`: the name of the export that frees a handle, for
 * objects collected unfreed (a FinalizationRegistry per instance), or null.
 */
export function defineEngine(loadModule, createBindings = null, freeHandle = null) {
  let module = null; // the WebAssembly.Module, compiled once
  // Strings go into the engine's input buffer, encoded straight into it, no allocation or free
  // per call. sPtr/sCap: its address and size; heap: a view of the whole memory; input: a view of
  // the buffer (both empty once the memory grows, as a view of a detached buffer is, then made
  // again).
  let sPtr = 0;
  let sCap = 0;
  let heap = EMPTY;
  let words = EMPTY_U32; // the whole memory as u32s, for put()
  let input = EMPTY;
  let memory = null;

  // The state the callers read: `w` the instance's exports (a numbers-only module), `b` its
  // bindings (the rich module),
  // `current` the live instance's token (objects that hold handles compare theirs with it; its
  // `registry` is the instance's FinalizationRegistry or null, also `e.registry`). `current` is null before the first use and
  // after a trap.
  const e = { w: null, b: null, current: null, registry: null, instance, bytes, reserve, trim, put, putUrl, putBytes, putU32s, text, u32s, rethrow, run, memoryBytes };

  /** The live instance (made on first use and after a trap); returns its token. */
  function instance() {
    if (e.current === null) {
      module ??= loadModule();
      let w = null;
      let b = null;
      if (createBindings === null) {
        w = new WebAssembly.Instance(module, {}).exports;
        memory = w.memory;
      } else {
        b = createBindings();
        memory = b.initSync({ module }).memory;
      }
      // Objects never freed: their handle is freed when they are collected. The finalizer may
      // run after this instance trapped and was replaced: it then frees in the old one, or
      // nothing if that traps again.
      e.registry = freeHandle !== null && typeof FinalizationRegistry === 'function'
        ? new FinalizationRegistry((handle) => {
          try {
            w[freeHandle](handle);
          } catch {}
        })
        : null;
      e.w = w;
      e.b = b;
      heap = input = EMPTY;
      words = EMPTY_U32;
      sPtr = sCap = 0;
      e.current = { registry: e.registry };
    }
    return e.current;
  }

  /** A trap leaves the instance in an unknown state: drop it and turn the trap into an Error (`lost`: what goes with it). */
  function rethrow(x, lost = ', objects parsed before this point must be parsed again') {
    const failure = instanceFailure(x, lost);
    if (failure === null) return x;
    e.current = null;
    return failure;
  }

  /** `f(e)` on the live instance; a trap becomes an Error. */
  function run(f, lost) {
    try {
      instance();
      return f(e);
    } catch (x) {
      throw rethrow(x, lost);
    }
  }

  /** The size of the module's memory in bytes (for the package's memory tests). */
  function memoryBytes() {
    instance();
    return memory.buffer.byteLength;
  }

  /** The whole memory as bytes (made again when the memory has grown). */
  function bytes() {
    if (heap.length === 0) {
      heap = new Uint8Array(memory.buffer);
      words = EMPTY_U32;
    }
    return heap;
  }

  /** Makes the input buffer at least `n` bytes long (keeping its content). */
  function reserve(n) {
    if (n > sCap) {
      const size = Math.max(n, sCap * 2);
      sPtr = e.w.reserve(size) >>> 0; // (a u32 is an i32 to JavaScript)
      sCap = size;
      heap = input = EMPTY;
      words = EMPTY_U32;
    }
  }

  /** Frees the module's buffers after a large input (over sCap) or result (`outBytes`). */
  function trim(outBytes = 0) {
    if (sCap > 1 << 20 || outBytes > 1 << 20) {
      e.w.release();
      sPtr = sCap = 0;
      input = EMPTY;
    }
  }

  /** UTF-8 encodes `str` into the input buffer at byte `at` (at most `limit` bytes); returns the byte length. */
  function put(str, at, limit = Infinity) {
    const n = str.length;
    if (n <= 32 && limit === Infinity) {
      // Short strings: a plain loop beats TextEncoder's per-call cost; ASCII is the common
      // case. Four characters per store where the address allows (the buffer is 8-aligned).
      if (at + n > sCap) reserve(at + n);
      const h = bytes();
      let p = sPtr + at;
      let i = 0;
      let any = 0; // the characters OR-ed: above 0x7f when one is not ASCII
      if ((p & 3) === 0 && LITTLE_ENDIAN) {
        if (words.length === 0) words = new Uint32Array(memory.buffer);
        const q = words;
        for (let k = p >>> 2; i + 4 <= n; i += 4, k++) {
          const c0 = str.charCodeAt(i);
          const c1 = str.charCodeAt(i + 1);
          const c2 = str.charCodeAt(i + 2);
          const c3 = str.charCodeAt(i + 3);
          any |= c0 | c1 | c2 | c3;
          q[k] = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
        }
        p += i;
      }
      for (; i < n; i++, p++) {
        const c = str.charCodeAt(i);
        any |= c;
        h[p] = c;
      }
      if (any <= 0x7f) return n;
      // Not ASCII: encoded again below.
    } else if (at === 0 && n <= limit) {
      // The usual case (a URL or a file at the start): TextEncoder straight into a view kept of
      // the buffer, which costs less than the loop above from about 30 characters on, and
      // less than making a view per call.
      if (n > sCap) reserve(n);
      if (input.length === 0) input = new Uint8Array(memory.buffer, sPtr, sCap);
      const r = encoder.encodeInto(str, sCap <= limit ? input : input.subarray(0, limit));
      if (r.read === n) return r.written;
    }
    // Otherwise TextEncoder, growing the buffer while the text turns out longer in UTF-8.
    let want = Math.min(at + n, at + limit);
    reserve(want);
    let { read, written } = encoder.encodeInto(str, bytes().subarray(sPtr + at, sPtr + want));
    while (read < n && written < limit) {
      want = Math.min(at + written + (n - read) * 3, at + limit);
      reserve(want);
      const r = encoder.encodeInto(str.slice(read), bytes().subarray(sPtr + at + written, sPtr + want));
      if (r.read === 0) break; // a character wider than the room left under the limit
      read += r.read;
      written += r.written;
    }
    return written;
  }

  /**
   * A query's URL at the start of the input buffer, as put(url, 0) writes it: when it is shorter
   * than the buffer, straight into the view kept of it, whatever its length: put()'s loop for
   * short strings costs more than TextEncoder for a crawler's URLs and paths too, and put()'s
   * other cases cost each isAllowed about 100-150 instructions more (docs/performance.md).
   */
  function putUrl(str) {
    const n = str.length;
    if (n <= sCap && input !== EMPTY) {
      const r = encoder.encodeInto(str, input);
      if (r.read === n) return r.written;
    }
    return put(str, 0);
  }

  /** Copies bytes into the input buffer at byte `at`. */
  function putBytes(data, at) {
    reserve(at + data.length);
    bytes().set(data, sPtr + at);
  }

  /** Writes numbers as little-endian u32s into the input buffer at byte `at` (already reserved). */
  function putU32s(values, at) {
    const h = bytes();
    for (let i = 0, p = sPtr + at; i < values.length; i++, p += 4) {
      const v = values[i];
      h[p] = v;
      h[p + 1] = v >>> 8;
      h[p + 2] = v >>> 16;
      h[p + 3] = v >>> 24;
    }
  }

  // The readers of a call's results. Each asks for the address first: a call into the module may
  // grow the memory, which detaches the buffer read before it.

  /** The text result of the last call (`len` bytes; `out_text`). */
  function text(len) {
    if (len === 0) return '';
    const at = e.w.out_text() >>> 0;
    return decodeUtf8(new Uint8Array(memory.buffer, at, len));
  }

  /** A view of `count` number results of the last call (`out_u32`), valid until the next call. */
  function u32s(count) {
    return new Uint32Array(memory.buffer, e.w.out_u32() >>> 0, count);
  }

  return e;
}

/**
 * `count` f64 results of the last call (`out_f64`) of the engine `e`, copied: the policy module's
 * (js/fetch.js). A function of its own, not a member of every engine: a bundle of the verdict
 * module alone leaves it out.
 */
export function f64s(e, count) {
  return new Float64Array(e.w.memory.buffer, e.w.out_f64() >>> 0, count).slice();
}
