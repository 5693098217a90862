// The public API of the npm package: argument checking, typed errors, and the results of the wasm
// boundary (wasm/src/lib.rs): numbers on the hot paths, JSON of serde-derived types for the
// structured ones. Every entry point (index.js,
// workerd.js, the CommonJS build) is this file plus a way to obtain the compiled module.
//
// The module is compiled and instantiated synchronously on first use, so no runtime needs an init
// call or top-level await. Should the instance ever trap (it should not: the core never panics and
// arguments are checked here), the trap becomes an Error and a fresh instance replaces it; objects
// parsed by the old instance then throw instead of answering from corrupted memory.
//
// The boundary is wasm-bindgen's (wasm/src/lib.rs), and every call on it takes and returns numbers
// only: arguments go through the input buffer of the instance's Engine, results come back as
// numbers or through its output buffers, and parsed files are handles whose lifetime this file
// owns.

import { createBindings } from './glue.js';
import { PREFIX, describe, typeError, optionsArg, decodeUtf8, instanceFailure } from './common.js';
// The core's names of dialects and reasons, read from the module by
// scripts/build-pkg.mjs when it builds the package (so no run pays for asking).
import NAMES from './names.js';

const MAX_U32 = 0xffffffff;
const DEFAULT_MAX_BYTES = 512000;
/** How long fetchRobots keeps a failure's answer (5xx, network error, timeout, Google's 429, a deferral) when the server sent no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 300_000;

/** A number option: a TypeError when it is not a number, a RangeError when `ok` rejects it. */
function numberOption(value, where, name, ok, what) {
  if (typeof value !== 'number') throw typeError(where, `options.${name} must be a number`, value);
  if (!ok(value)) throw new RangeError(`${PREFIX}${where}: options.${name} must be ${what}, got ${describe(value)}`);
  return value;
}

const PARSE_OPTIONS = ['dialect', 'maxBytes', 'url'];
const FETCH_OPTIONS = ['fetch', 'userAgent', 'dialect', 'timeoutMs', 'signal', 'maxBytes', 'retryAfterMs', 'previous', 'now', 'siteDown'];
const AI_OPTIONS = ['header'];
const TABLE_OPTIONS = ['ai'];
const isMaxBytes = (v) => v >= 0 && (v === Infinity || Number.isInteger(v));
const isNonNegative = (v) => v >= 0;

/**
 * The origin (scheme, host, port) of an absolute http: or https: URL given as the site of a
 * robots.txt; a TypeError otherwise.
 */
function siteOrigin(url, where, name) {
  let u = null;
  try {
    u = typeof URL === 'function' && url instanceof URL ? url : typeof url === 'string' ? new URL(url) : null;
  } catch {}
  if (u === null || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw typeError(where, `${name} must be an absolute http: or https: URL (a string or a URL)`, url);
  }
  return u.origin;
}

const EMPTY = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);
// Typed arrays use the platform's byte order, wasm memory is little-endian.
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const encoder = new TextEncoder();
/** u32::MAX: an absent optional string argument (wasm/src/lib.rs, `optional`). */
const NONE = 0xffffffff;
// A microtask through a promise: Node's queueMicrotask adds async-hooks bookkeeping, and its first
// call costs a fifth of a millisecond of the cold start.
const resolved = Promise.resolve();
const later = (f) => {
  resolved.then(f);
};

/** Dialect index by the name given to Robots.parse (any case). */
const dialectIndexes = new Map();

export function defineRobots(loadModule) {
  return defineApi(loadModule).Robots;
}

const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

/** Reads at most maxBytes + 1 bytes of a response body (so the parser still sees it was longer), then cancels the rest. */
async function readCapped(res, maxBytes) {
  const limit = maxBytes === Infinity ? Infinity : maxBytes + 1;
  if (!res.body) {
    const all = new Uint8Array(await res.arrayBuffer());
    return all.length > limit ? all.subarray(0, limit) : all;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let total = 0;
  let done = false;
  try {
    while (total < limit) {
      const r = await reader.read();
      if (r.done) { done = true; break; }
      chunks.push(r.value);
      total += r.value.length;
    }
  } finally {
    if (!done) reader.cancel().catch(() => {});
  }
  const size = Math.min(total, limit);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    if (at >= size) break;
    const part = c.length > size - at ? c.subarray(0, size - at) : c;
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function defineApi(loadModule) {
  let module = null; // the WebAssembly.Module, compiled once
  // The current instance: { w: its Engine (wasm/src/lib.rs), b: its wasm-bindgen bindings,
  // registry: its FinalizationRegistry or null }; null before the first use and after a trap.
  // `w` and `memory` are the same instance's, kept apart for the hot paths.
  let inst = null;
  let w = null;
  let memory = null;
  // Strings go into the engine's input buffer (wasm/src/lib.rs, Engine::reserve): encoded
  // straight into it, no allocation or free per call. sPtr/sCap: its address and size; heap: a
  // view of the whole memory; input: a view of the buffer (both empty once the memory grows, as
  // a view of a detached buffer is, then made again).
  let sPtr = 0;
  let sCap = 0;
  let heap = EMPTY;
  let words = EMPTY_U32; // the whole memory as u32s, for put()
  let input = EMPTY;
  // Robots objects not registered for finalization yet (see Robots.#enlist).
  let pending = [];

  function instance() {
    if (inst === null) {
      module ??= loadModule();
      const b = createBindings();
      memory = b.initSync({ module }).memory;
      const engine = new b.Engine();
      // Objects never freed: their handle is freed when they are collected. The finalizer may
      // run after this instance trapped and was replaced: it then frees in the old one, or
      // nothing if that traps again.
      const registry = typeof FinalizationRegistry === 'function'
        ? new FinalizationRegistry((handle) => {
          try {
            engine.robots_free(handle);
          } catch {}
        })
        : null;
      w = engine;
      heap = input = EMPTY;
      words = EMPTY_U32;
      sPtr = sCap = 0;
      inst = { w, b, registry };
    }
    return inst;
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
      sPtr = w.reserve(size);
      sCap = size;
      heap = input = EMPTY;
      words = EMPTY_U32;
    }
  }

  /** Frees the module's buffers after a large input (over sCap) or result (`outBytes`). */
  function trim(outBytes = 0) {
    if (sCap > 1 << 20 || outBytes > 1 << 20) {
      w.release();
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

  /** The text result of the last call (`len` bytes; see wasm/src/lib.rs, out_text). */
  function outText(len) {
    if (len === 0) return '';
    // The call before `memory.buffer`: a call into the module may grow the memory, which
    // detaches the buffer read before it (so it is made after, everywhere below too).
    const at = w.out_text();
    return decodeUtf8(new Uint8Array(memory.buffer, at, len));
  }

  /**
   * The structured result of the last call: the JSON of one of the serde-derived types of
   * wasm/src/lib.rs (`json`), whose field names are this API's. Frees the buffers after a large one.
   */
  function outJson(len) {
    const value = JSON.parse(outText(len));
    trim(len);
    return value;
  }

  // ---- AI usage preferences (wasm/src/lib.rs, ai_preferences and put_answers) ----------------

  const USAGE = [null, 'y', 'n'];
  const SIGNAL = [null, 'yes', 'no'];

  /** The sentence of a reason (the core's `Why` prints the same: tests/data/ai-preferences-project.json). */
  function whyText(why) {
    const from = why.header ? 'the Content-Usage header' : `line ${why.line}`;
    switch (why.code) {
      case 'stated': return `stated by ${from}`;
      case 'not-stated': return `${from} decides and does not mention this category`;
      case 'not-y-or-n': return `${from}: value is not y/n (it is ${why.type})`;
      case 'malformed': return `${from}: the statement did not parse (at byte ${why.offset}: ${why.failure})`;
      case 'no-rule': return 'no rule matched';
      case 'own-group-silent': return "the crawler's own group has no preference";
      default: return why.line === 0 ? 'URL not crawlable' : `URL not crawlable (line ${why.line})`;
    }
  }

  /** The category answers at `at` (three numbers each): [values by label, reasons by label]. */
  function readAnswers(nums, at) {
    const values = {};
    const whys = {};
    NAMES.categories.forEach((label, i) => {
      const packed = nums[at + 3 * i];
      const why = { code: NAMES.whys[(packed >>> 2) & 7] };
      const header = ((packed >>> 5) & 1) === 1;
      const line = nums[at + 3 * i + 1];
      if (header) why.header = true;
      else if (line !== 0 || why.code === 'not-crawlable') why.line = line;
      if (why.code === 'malformed') {
        why.offset = nums[at + 3 * i + 2];
        why.failure = NAMES.failures[packed >>> 6];
      } else if (why.code === 'not-y-or-n') {
        why.type = NAMES.types[packed >>> 6];
      }
      why.text = whyText(why);
      values[label] = USAGE[packed & 3];
      whys[label] = why;
    });
    return [values, whys];
  }

  /** A Content-Usage header: one field value, or its field lines (joined with ", ", RFC 9110 section 5.3). */
  function headerArg(header, where) {
    if (typeof header === 'string') return header;
    if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header.join(', ');
    throw typeError(where, 'a Content-Usage header must be a string or an array of strings (its field lines)', header);
  }

  // An empty robots.txt, for parseContentUsage, and the instance it was parsed in.
  let noRules = null;
  let noRulesInst = null;
  /** A Content-Usage header alone: each category's value (the header's answers of aiPreferences over an empty robots.txt). */
  function parseContentUsage(header) {
    headerArg(header, 'parseContentUsage(header)');
    if (noRules === null || noRulesInst !== inst) {
      noRules = Robots.parse('');
      noRulesInst = inst;
    }
    return noRules.aiPreferences('/', '*', { header }).headerUsage;
  }

  // A trap leaves the instance in an unknown state: drop it and turn the trap into an Error.
  function rethrow(e) {
    const failure = instanceFailure(e, ', objects parsed before this point must be parsed again');
    if (failure === null) return e;
    inst = null;
    return failure;
  }

  function dialectIndex(name) {
    let i = dialectIndexes.get(name);
    if (i === undefined) {
      // ASCII case-insensitive, as the core's DialectId::from_name (toLowerCase would also fold
      // non-ASCII letters such as the Kelvin sign).
      i = NAMES.dialects.indexOf(name.replace(/[A-Z]+/g, (c) => c.toLowerCase()));
      if (i < 0) {
        throw new RangeError(`${PREFIX}Robots.parse(text, options): unknown dialect ${JSON.stringify(name)}; the dialects are ${NAMES.dialects.map((d) => `'${d}'`).join(', ')}`);
      }
      dialectIndexes.set(name, i);
    }
    return i;
  }

  function urlArg(url, where) {
    if (typeof url === 'string') return url;
    if (typeof URL === 'function' && url instanceof URL) return url.href;
    throw typeError(where, 'url must be a string or a URL', url);
  }

  const INTERNAL = Symbol('robots-eval');
  const WITH_SOURCE = Symbol('robots-eval.withSource');
  const COPY_OF = Symbol('robots-eval.copyOf');

  class Robots {
    #handle; // the file in the module (wasm/src/lib.rs, parse); 0 once freed
    #inst; // the instance that holds it
    #registered = false; // registered with its instance's FinalizationRegistry
    #sitemaps = null;
    #diagnostics = null;
    #records = null;
    #dialect;
    #source = null;
    // The origin of the site this robots.txt belongs to, when known (fetchRobots, RobotRules, the
    // `url` option); URLs of another origin are then refused (#onSite). null: any URL is taken as
    // this site's.
    #origin = null;
    // For the fetch lifecycle (fetchRobots, RobotRules): the text of the last good copy of the
    // site's robots.txt (a string or bytes we own), kept so that a later failure can fall back on
    // it (policy use-cached); null when there is none. Survives free().
    #copy = null;
    // Packed group selections by agent string: repeated queries for an agent skip selection.
    // Made on the first query (a file parsed and freed unqueried never needs it).
    #selections = null;

    constructor(token, handle, instance, dialect) {
      if (token !== INTERNAL) {
        throw new TypeError(`${PREFIX}use Robots.parse(text, options) to create a Robots object`);
      }
      this.#handle = handle;
      this.#inst = instance;
      this.#dialect = dialect;
    }

    static [WITH_SOURCE](robots, source, copy = null) {
      robots.#source = source;
      robots.#setOrigin(new URL(source.url).origin);
      robots.#copy = copy;
      return robots;
    }

    /** The site's origin, here and in the module (whose `allowed` compares a URL with it). */
    #setOrigin(origin) {
      this.#origin = origin;
      if (origin !== null && this.#handle !== 0 && this.#inst === inst) w.set_site(this.#handle, put(origin, 0));
    }

    static [COPY_OF](robots) {
      return robots.#copy;
    }

    // Objects never freed are freed when collected, through a FinalizationRegistry. Registering
    // (and unregistering in free()) costs more than parsing a small file, and most files are
    // freed soon after parsing: so a new object is only listed here, and registered when the
    // current job ends (a microtask) or 64 objects are waiting, whichever comes first, if it is
    // still live then. Until then the list keeps it reachable, so it cannot be missed.
    static #enlist(robots) {
      if (pending.push(robots) === 1) later(Robots.#register);
      else if (pending.length >= 64) Robots.#register();
    }

    static #register() {
      const list = pending;
      pending = [];
      for (const r of list) {
        // Objects of an instance dropped after a trap are left out: that instance's memory
        // goes with them.
        if (r.#handle !== 0 && r.#inst === inst && inst.registry !== null) {
          inst.registry.register(r, r.#handle, r);
          r.#registered = true;
        }
      }
    }

    /** Where a robots.txt obtained with fetchRobots() came from; null for Robots.parse(). */
    get source() {
      return this.#source;
    }

    /** The dialect names this package knows, the default first. */
    static get dialects() {
      return NAMES.dialects.slice();
    }

    static parse(text, options) {
      const where = 'Robots.parse(text, options)';
      const isBytes = text instanceof Uint8Array;
      if (typeof text !== 'string' && !isBytes) {
        if (text instanceof ArrayBuffer) {
          text = new Uint8Array(text);
        } else {
          throw typeError(where, 'text must be a string or Uint8Array', text);
        }
      }
      // No dialect given: the default, index 0 (the core's DialectId::ALL lists it first), with
      // no lookup: the first parse of a process then compiles no RegExp.
      let dialect;
      let maxBytes = DEFAULT_MAX_BYTES;
      let origin = null;
      if (options !== undefined && options !== null) {
        optionsArg(options, where, PARSE_OPTIONS);
        if (options.dialect !== undefined) {
          if (typeof options.dialect !== 'string') throw typeError(where, 'options.dialect must be a string', options.dialect);
          dialect = options.dialect;
        }
        if (options.maxBytes !== undefined) {
          maxBytes = numberOption(options.maxBytes, where, 'maxBytes', isMaxBytes, 'a non-negative integer or Infinity');
        }
        if (options.url !== undefined) origin = siteOrigin(options.url, where, 'options.url');
      }
      maxBytes = Math.min(maxBytes, MAX_U32);
      const d = dialect === undefined ? 0 : dialectIndex(dialect);
      // Only the first maxBytes bytes are read: hand no more than that (+1, so the core still
      // sees the file was longer) to the module. A UTF-16 code unit is at least one UTF-8 byte,
      // so maxBytes + 1 code units always cover maxBytes + 1 bytes.
      if (text.length > maxBytes + 1) {
        text = isBytes || typeof text !== 'string' ? text.subarray(0, maxBytes + 1) : text.slice(0, maxBytes + 1);
      }
      try {
        const current = instance();
        let len;
        if (typeof text === 'string') {
          len = put(text, 0, maxBytes + 1);
        } else {
          len = text.length;
          putBytes(text, 0);
        }
        const robots = new Robots(INTERNAL, w.parse(len, d, maxBytes), current, NAMES.dialects[d]);
        if (origin !== null) robots.#setOrigin(origin);
        trim();
        Robots.#enlist(robots);
        return robots;
      } catch (e) {
        throw rethrow(e);
      }
    }

    /** The handle, or the error of a call on a freed object or one of a dropped instance. */
    #live(where) {
      if (this.#handle === 0) throw new Error(`${PREFIX}${where}: this Robots object was freed; parse the file again`);
      if (this.#inst !== inst) {
        throw new Error(`${PREFIX}${where}: this Robots object belonged to a WebAssembly instance that was reset after an internal error; parse the file again`);
      }
      return this.#handle;
    }

    /**
     * Refuses an absolute URL of another origin than this robots.txt's: its rules say nothing
     * about other sites (RFC 9309 section 2.3: the file sits at the top-level path of the service it covers), and answering from them would be a guess. A path
     * (`/x`) is this site's. Called only when the origin is known.
     */
    #onSite(url, where) {
      const origin = this.#origin;
      const n = origin.length;
      // The common case, a URL as the site writes it, without parsing it.
      if (url.startsWith(origin) && (url.length === n || url[n] === '/' || url[n] === '?' || url[n] === '#')) return;
      if (url[0] === '/' && url[1] !== '/') return;
      // Another string without a scheme or `//` is a relative path too.
      if (!/^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(url)) return;
      let u = null;
      try {
        u = new URL(url, origin); // a network-path reference (//host/x) takes the site's scheme
      } catch {}
      if (u === null || u.origin !== origin) {
        // Quoted whatever its length (describe() names only the type of a long string): the
        // start of the URL is what tells the caller which site it was.
        const quoted = JSON.stringify(url.slice(0, 80)) + (url.length > 80 ? `... (${url.length} characters)` : '');
        throw new RangeError(`${PREFIX}${where}: ${quoted} is not on ${origin}, the site this robots.txt belongs to; its rules say nothing about other sites (fetch that site's robots.txt)`);
      }
    }

    /** The packed selection of `agent` (cached). */
    #select(handle, agent) {
      const cache = (this.#selections ??= new Map());
      let selection = cache.get(agent);
      if (selection === undefined) {
        selection = w.selection(handle, put(agent, 0));
        if (agent.length <= 1024) {
          if (cache.size >= 256) cache.clear();
          cache.set(agent, selection);
        }
      }
      return selection;
    }

    /**
     * The product token that decides among a list of them (Robots::pick_agent): the first with a
     * group of its own (a specific selection, pack_selection's kind 1), else the first. A
     * TypeError for anything but a non-empty array of strings. Only called for an agent that is
     * not a string: a string skips it.
     */
    #pick(handle, agents, where) {
      const what = 'agent must be a string or a non-empty array of strings';
      if (!Array.isArray(agents) || agents.length === 0) throw typeError(where, what, agents);
      for (let i = 0; i < agents.length; i++) {
        if (typeof agents[i] !== 'string') {
          throw new TypeError(`${PREFIX}${where}: ${what}, got an array whose item ${i} is ${describe(agents[i])}`);
        }
      }
      try {
        for (const agent of agents) if ((this.#select(handle, agent) & 3) === 1) return agent;
      } catch (e) {
        throw rethrow(e);
      }
      return agents[0];
    }

    isAllowed(url, agent) {
      const handle = this.#live('isAllowed(url, agent)');
      if (typeof url !== 'string') url = urlArg(url, 'isAllowed(url, agent)');
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, 'isAllowed(url, agent)');
      let verdict;
      try {
        // The selection first: working it out writes the agent where the URL goes.
        const selection = this.#select(handle, agent);
        verdict = w.allowed(handle, putUrl(url), selection);
      } catch (e) {
        throw rethrow(e);
      }
      // Bit 1: the module found the URL not plainly on the file's site (wasm/src/lib.rs, allowed).
      if (verdict > 1) this.#onSite(url, 'isAllowed(url, agent)');
      return (verdict & 1) === 1;
    }

    /**
     * The arguments of a query (url, agent), checked: the handle, the URL as text and the agent
     * that decides. `onSite`: whether to check here that the URL is on the file's site (false
     * where the module flags it, as for isAllowed).
     */
    #query(where, url, agent, onSite = true) {
      const handle = this.#live(where);
      url = urlArg(url, where);
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, where);
      if (onSite && this.#origin !== null) this.#onSite(url, where);
      return [handle, url, agent];
    }

    explain(url, agent) {
      const where = 'explain(url, agent)';
      let handle;
      [handle, url, agent] = this.#query(where, url, agent, false);
      let out;
      try {
        const urlLen = put(url, 0);
        out = w.explain(handle, urlLen, put(agent, urlLen));
      } catch (e) {
        throw rethrow(e);
      }
      // Bit 0: the module found the URL not plainly on the file's site (wasm/src/lib.rs, explain).
      if ((out & 1) === 1) this.#onSite(url, where);
      try {
        return outJson(out >>> 1);
      } catch (e) {
        throw rethrow(e);
      }
    }

    aiPreferences(url, agent, options) {
      const where = 'aiPreferences(url, agent, options)';
      let handle;
      [handle, url, agent] = this.#query(where, url, agent);
      optionsArg(options, where, AI_OPTIONS);
      const header = options?.header === undefined ? null : headerArg(options.header, where);
      let nums;
      let extras;
      try {
        const urlLen = put(url, 0);
        const agentLen = put(agent, urlLen);
        const headerLen = header === null ? NONE : put(header, urlLen + agentLen);
        extras = outText(w.ai_preferences(handle, urlLen, agentLen, headerLen)).split('\n');
        nums = new Uint32Array(memory.buffer, w.out_u32(), 2 + 9 * NAMES.categories.length + 2 * NAMES.signals.length);
      } catch (e) {
        throw rethrow(e);
      }
      const verdict = nums[0];
      const flags = nums[1];
      const size = 3 * NAMES.categories.length;
      const [contentUsage, usageWhy] = readAnswers(nums, 2);
      const out = { allowed: (verdict & 1) === 1, reason: NAMES.reasons[(verdict >>> 1) & 7], line: verdict >>> 4, contentUsage, contentSignal: null };
      const why = { contentUsage: usageWhy, contentSignal: null };
      let at = 2 + size;
      if ((flags & 2) === 2) {
        [out.headerUsage, why.headerUsage] = readAnswers(nums, at);
        [out.combined, why.combined] = readAnswers(nums, at + size);
        at += 2 * size;
      }
      if ((flags & 1) === 1) {
        const signals = {};
        const lines = {};
        NAMES.signals.forEach((key, i) => {
          signals[key] = SIGNAL[nums[at + 2 * i]];
          lines[key] = nums[at + 2 * i + 1] || null;
        });
        // Extra keys (`use`, 2026), as written: key, value, line, each after a '\n'.
        for (let i = 1; i + 2 < extras.length; i += 3) {
          const key = extras[i].toLowerCase();
          signals[key] = extras[i + 1];
          lines[key] = Number(extras[i + 2]);
        }
        out.contentSignal = signals;
        why.contentSignal = lines;
      }
      out.why = why;
      trim();
      return out;
    }

    table(urls, agents, options) {
      const where = 'table(urls, agents)';
      optionsArg(options, 'table(urls, agents, options)', TABLE_OPTIONS);
      const handle = this.#live(where);
      const list = (items, what, check) => {
        if (items === null || typeof items !== 'object' || typeof items[Symbol.iterator] !== 'function' || typeof items === 'string') {
          throw typeError(where, `${what} must be an array of strings`, items);
        }
        const out = Array.from(items);
        for (let i = 0; i < out.length; i++) out[i] = check(out[i], i);
        return out;
      };
      // The message of urlArg's error is built only for a URL that is not a string.
      urls = list(urls, 'urls', (u, i) => (typeof u === 'string' ? u : urlArg(u, `${where}: urls[${i}]`)));
      agents = list(agents, 'agents', (a) => a);
      // A column's agent: a product token, or the one that decides among a list of them.
      const names = agents.map((a, i) => (typeof a === 'string' ? a : this.#pick(handle, a, `${where}: agents[${i}]`)));
      const rows = urls.length;
      const cols = agents.length;
      let cells;
      let offSite;
      try {
        const selections = new Array(cols);
        for (let c = 0; c < cols; c++) selections[c] = this.#select(handle, names[c]);
        // The input: the agents' packed selections and the URLs' byte lengths (little-endian
        // u32s), then the URLs.
        const head = 4 * (cols + rows);
        reserve(head);
        let at = head;
        // ASCII URLs (the usual case) go in with one TextEncoder call for all of them: their
        // byte lengths are then their lengths. Any other character makes the UTF-8 longer than
        // the string, and the URLs are encoded one by one instead.
        const joined = rows > 1 ? urls.join('') : '';
        const lengths = new Array(rows);
        if (rows > 1 && put(joined, head) === joined.length) {
          for (let r = 0; r < rows; r++) lengths[r] = urls[r].length;
        } else {
          for (let r = 0; r < rows; r++) {
            const len = put(urls[r], at);
            lengths[r] = len;
            at += len;
          }
        }
        putU32s(selections, 0);
        putU32s(lengths, 4 * cols);
        // The first query of a crawler compiles its rule set, which may grow the memory.
        offSite = w.table(handle, rows, cols);
        cells = new Uint32Array(memory.buffer, w.out_u32(), rows * cols);
      } catch (e) {
        throw rethrow(e);
      }
      // The module found some URL not plainly on the file's site (wasm/src/lib.rs, table): the
      // URL parser settles them, and the first that is not on it is the error. (A URL as the
      // site writes it costs no JavaScript: a `startsWith` per URL cost more than its cell.)
      if (offSite > 0) for (let r = 0; r < rows; r++) this.#onSite(urls[r], `${where}: urls[${r}]`);
      const allowed = new Array(rows);
      const lines = new Array(rows);
      const reasons = new Array(rows);
      const reasonNames = NAMES.reasons;
      // Read the cells now: the view is valid until the next call into the module.
      for (let r = 0, k = 0; r < rows; r++) {
        const a = new Array(cols);
        const l = new Array(cols);
        const why = new Array(cols);
        for (let c = 0; c < cols; c++, k++) {
          const cell = cells[k];
          a[c] = (cell & 1) === 1;
          why[c] = reasonNames[(cell >>> 1) & 7];
          l[c] = cell >>> 4;
        }
        allowed[r] = a;
        lines[r] = l;
        reasons[r] = why;
      }
      trim(cells.length * 4);
      const table = { urls, agents, allowed, lines, reasons };
      // The preference columns: each cell's aiPreferences(url, agent).
      if (options?.ai === true) table.ai = urls.map((url) => agents.map((agent) => this.aiPreferences(url, agent)));
      return table;
    }

    crawlDelay(agent) {
      const handle = this.#live('crawlDelay(agent)');
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, 'crawlDelay(agent)');
      try {
        const delay = w.crawl_delay(handle, put(agent, 0));
        return Number.isNaN(delay) ? undefined : delay;
      } catch (e) {
        throw rethrow(e);
      }
    }

    isExplicitlyDisallowed(url, agent) {
      let handle;
      [handle, url, agent] = this.#query('isExplicitlyDisallowed(url, agent)', url, agent);
      try {
        // Only a group naming the agent itself (a specific selection: pack_selection's kind 1).
        const selection = this.#select(handle, agent);
        return (selection & 3) === 1 && w.allowed(handle, put(url, 0), selection) === 0;
      } catch (e) {
        throw rethrow(e);
      }
    }

    requestRate(agent) {
      const handle = this.#live('requestRate(agent)');
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, 'requestRate(agent)');
      try {
        const seconds = w.request_rate(handle, put(agent, 0));
        if (Number.isNaN(seconds)) return undefined;
        return { requests: new Uint32Array(memory.buffer, w.out_u32(), 1)[0], seconds };
      } catch (e) {
        throw rethrow(e);
      }
    }

    get host() {
      const handle = this.#live('host');
      try {
        return outJson(w.host(handle));
      } catch (e) {
        throw rethrow(e);
      }
    }

    get records() {
      const handle = this.#live('records');
      if (this.#records === null) {
        try {
          this.#records = outJson(w.records(handle)).map((r) => {
            if (r.agents !== null) Object.freeze(r.agents);
            return Object.freeze(r);
          });
        } catch (e) {
          throw rethrow(e);
        }
      }
      return this.#records.slice();
    }

    get sitemaps() {
      const handle = this.#live('sitemaps');
      try {
        this.#sitemaps ??= outJson(w.sitemaps(handle));
      } catch (e) {
        throw rethrow(e);
      }
      return this.#sitemaps.slice();
    }

    get diagnostics() {
      const handle = this.#live('diagnostics');
      if (this.#diagnostics === null) {
        try {
          this.#diagnostics = outJson(w.diagnostics(handle)).map(Object.freeze);
        } catch (e) {
          throw rethrow(e);
        }
      }
      return this.#diagnostics.slice();
    }

    /** The dialect the file was parsed with. */
    get dialect() {
      this.#live('dialect');
      return this.#dialect;
    }

    /** Whether the input was longer than maxBytes (the rest was ignored). */
    get truncated() {
      const handle = this.#live('truncated');
      try {
        return w.truncated(handle) === 1;
      } catch (e) {
        throw rethrow(e);
      }
    }

    /** Whether free() was called. */
    get freed() {
      return this.#handle === 0;
    }

    /** Releases the wasm memory now; later calls throw. Calling it again does nothing. */
    free() {
      const handle = this.#handle;
      if (handle === 0) return;
      this.#handle = 0;
      this.#sitemaps = this.#diagnostics = this.#records = this.#selections = null;
      const owner = this.#inst;
      if (this.#registered) owner.registry.unregister(this);
      if (owner === inst) {
        try {
          w.robots_free(handle);
        } catch (e) {
          throw rethrow(e);
        }
      }
    }

    get [Symbol.toStringTag]() {
      return 'Robots';
    }
  }

  // The size of the module's memory in bytes: for the package's own memory tests and for
  // diagnosing leaks; not part of the semver-stable API.
  Object.defineProperty(Robots, Symbol.for('robots-eval.memoryBytes'), {
    get() {
      instance();
      return memory.buffer.byteLength;
    },
  });

  // `using robots = Robots.parse(...)` (explicit resource management) where the runtime has it.
  const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('nodejs.dispose');
  Object.defineProperty(Robots.prototype, dispose, {
    value: function dispose() { this.free(); },
    writable: true,
    configurable: true,
  });

  // ---- The fetch lifecycle -----------------------------------------------------------------

  const withSource = (robots, source, copy) => Robots[WITH_SOURCE](robots, source, copy);

  /**
   * Until when a copy fetched at `now` stays fresh (fetch::freshness through fetch_fresh_until),
   * from the response's cache headers (`headers`: a Headers, or null for none).
   */
  function freshUntilOf(d, now, headers) {
    instance();
    let at = 0;
    const header = (name) => {
      const value = headers?.get(name) ?? null;
      if (value === null) return NONE;
      const len = put(value, at);
      at += len;
      return len;
    };
    const cacheControl = header('cache-control');
    const expires = header('expires');
    const date = header('date');
    const age = header('age');
    return w.fetch_fresh_until(d, now, cacheControl, expires, date, age, 0);
  }

  /**
   * The core's policy for one fetch outcome (fetch::decide through fetch_decide): kind 0 a final
   * status, 1 a network error, 2 a timeout. `hasCopy`: a good copy is at hand; `since`: when the
   * current run of failures began (null: this one is the first). Also returns `failed` (the
   * outcome continues or starts a run of failures: the site is unreachable) and `failUntil`, the
   * lifetime of a failure's answer: the Retry-After time, else now + retryAfterMs, never later
   * than the dialect's longest lifetime nor than the time the same failure would be handled
   * differently (Google's 12 hours and 30 days, RFC 9309's 30 days).
   */
  function decideFetch(d, kind, status, now, redirects, hasCopy, since, retryAfter, retryAfterMs, siteDown) {
    instance();
    const retryAfterLen = retryAfter === undefined ? NONE : put(retryAfter, 0);
    const { policy, reason, message, retryAt, nextChangeAt, maxFailureMs } = outJson(
      w.fetch_decide(d, kind, status, now, redirects, hasCopy ? 1 : 0, since ?? NaN, siteDown ? 1 : 0, retryAfterLen),
    );
    const failUntil = Math.max(now, Math.min(retryAt ?? now + retryAfterMs, now + maxFailureMs, nextChangeAt ?? Infinity));
    const failed = kind !== 0 || status < 200 || status >= 500 || (status === 304 && !hasCopy) ||
      ((status === 408 || status === 429) && policy !== 'allow-all');
    return { policy, reason, message, failUntil, failed };
  }

  // For RobotRules (js/rules.js), which gets only { Robots, fetchRobots }: the same decisions and
  // lifetimes from the core, and the kept copy. Not part of the public API.
  const internals = {
    decide(dialect, status, now, hasCopy, since, retryAfterMs, siteDown) {
      try {
        return decideFetch(dialectIndex(dialect), status === 0 ? 1 : 0, status, now, 0, hasCopy, since, undefined, retryAfterMs, siteDown);
      } catch (e) {
        throw rethrow(e);
      }
    },
    /** The dialect's default lifetime of a copy fetched at `now` without cache headers. */
    defaultFreshUntil(dialect, now) {
      try {
        return freshUntilOf(dialectIndex(dialect), now, null);
      } catch (e) {
        throw rethrow(e);
      }
    },
    attach: withSource,
    options: optionsArg,
    numberOption,
    isMaxBytes,
    isNonNegative,
    copyOf: (robots) => Robots[COPY_OF](robots),
  };

  async function fetchRobots(url, options) {
    const where = 'fetchRobots(url, options)';
    url = urlArg(url, where);
    const {
      fetch: doFetch = globalThis.fetch, userAgent, dialect = 'rfc9309', timeoutMs = 10000, signal, maxBytes = DEFAULT_MAX_BYTES,
      retryAfterMs = DEFAULT_RETRY_AFTER_MS, previous = null, now: clock = Date.now, siteDown = false,
    } = optionsArg(options, where, FETCH_OPTIONS);
    if (typeof doFetch !== 'function') throw typeError(where, 'options.fetch must be a function', doFetch);
    if (userAgent !== undefined && typeof userAgent !== 'string') throw typeError(where, 'options.userAgent must be a string', userAgent);
    if (typeof dialect !== 'string') throw typeError(where, 'options.dialect must be a string', dialect);
    numberOption(timeoutMs, where, 'timeoutMs', (v) => v > 0, 'a positive number');
    numberOption(maxBytes, where, 'maxBytes', isMaxBytes, 'a non-negative integer or Infinity');
    numberOption(retryAfterMs, where, 'retryAfterMs', isNonNegative, 'a non-negative number');
    if (signal !== undefined && signal !== null && (typeof signal !== 'object' || typeof signal.addEventListener !== 'function')) {
      throw typeError(where, 'options.signal must be an AbortSignal', signal);
    }
    if (previous !== null && (!(previous instanceof Robots) || previous.source === null)) {
      throw typeError(where, 'options.previous must be a Robots returned by an earlier fetchRobots() of the same site', previous);
    }
    if (typeof clock !== 'function') throw typeError(where, 'options.now must be a function returning ms since the epoch', clock);
    if (typeof siteDown !== 'boolean') throw typeError(where, 'options.siteDown must be a boolean', siteDown);
    let base;
    try {
      base = new URL(url);
    } catch {
      throw new TypeError(`${PREFIX}${where}: url must be an absolute URL, got ${describe(url)}`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`${PREFIX}${where}: url must be http: or https:, got ${describe(url)}`);
    if (signal?.aborted) throw signal.reason;
    let d, limit;
    try {
      d = dialectIndex(dialect);
      instance();
      limit = inst.b.fetch_redirect_limit(d);
    } catch (e) {
      throw rethrow(e);
    }
    const robotsUrl = new URL('/robots.txt', base).href;
    if (previous !== null && previous.source.url !== robotsUrl) {
      throw new RangeError(`${PREFIX}${where}: options.previous is the robots.txt of ${previous.source.url}, not of ${robotsUrl}`);
    }
    // Read now: the caller may free `previous` while the fetch runs (its copy survives free()).
    const copy = previous === null ? null : Robots[COPY_OF](previous);
    const since = previous?.source.unreachableSince ?? null;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
    const onAbort = () => controller.abort(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const headers = userAgent === undefined ? undefined : { 'user-agent': userAgent };
    let current = robotsUrl;
    let redirects = 0;
    let kind = 0; // 0 status, 1 network error, 2 timeout
    let status = 0;
    let res = null;
    let body = null;
    let decision = null;
    const decideNow = (now = clock()) => decideFetch(d, kind, status, now, redirects, copy !== null, since, res?.headers.get('retry-after') ?? undefined, retryAfterMs, siteDown);
    try {
      for (;;) {
        res = null;
        try {
          res = await doFetch(current, { redirect: 'manual', signal: controller.signal, headers });
        } catch (e) {
          if (signal?.aborted) throw signal.reason;
          kind = timedOut ? 2 : 1;
          break;
        }
        status = res.status;
        if (status >= 300 && status < 400) {
          const location = res.headers.get('location');
          res.body?.cancel().catch(() => {});
          let next = null;
          try {
            if (location !== null) next = new URL(location, current);
          } catch {}
          if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
            kind = 1; // a 3xx without a usable Location is an invalid response
            break;
          }
          decision = decideNow();
          if (decision.policy === 'follow-redirect') {
            current = next.href;
            redirects++;
            decision = null;
            continue;
          }
          break; // too many redirects
        }
        if (status === 0) kind = 1; // an opaque redirect (browsers): no usable response
        else if (status >= 200 && status < 300) {
          try {
            body = await readCapped(res, maxBytes);
          } catch (e) {
            if (signal?.aborted) throw signal.reason;
            kind = timedOut ? 2 : 1;
          }
        } else {
          res.body?.cancel().catch(() => {});
        }
        break;
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (kind !== 0) status = 0;
    try {
      const fetchedAt = clock();
      decision ??= decideNow(fetchedAt);
      const { policy, reason, message, failUntil, failed } = decision;
      let freshUntil;
      if (policy === 'parse' || (policy === 'allow-all' && !failed)) {
        // A usable answer (a file, or a 4xx/redirect loop meaning "no file"): its cache headers.
        const h = kind === 0 && res !== null ? res.headers : null;
        freshUntil = h === null ? fetchedAt : freshUntilOf(d, fetchedAt, h);
      } else {
        // A failure (disallow-all because unreachable, defer, the cached copy or allow-all while
        // unreachable): ask again at the Retry-After time, else after retryAfterMs, capped.
        freshUntil = failUntil;
      }
      let text;
      let treatedAs = policy;
      // The good copy carried to the next fetch: this file, or the previous one while unreachable.
      let keep = failed ? copy : null;
      if (policy === 'parse') keep = text = body ?? new Uint8Array(0);
      else if (policy === 'allow-all') text = '';
      else if (policy === 'use-cached' && copy !== null) text = copy; // parsed again: `previous` stays the caller's
      else {
        text = DISALLOW_ALL;
        treatedAs = 'disallow-all';
      }
      if (policy === 'use-cached') keep = copy;
      const parsed = Robots.parse(text, { dialect: NAMES.dialects[d], maxBytes });
      const info = Object.freeze({
        url: robotsUrl,
        finalUrl: current,
        status,
        redirects,
        fetchedAt,
        freshUntil,
        policy,
        treatedAs,
        reason,
        message: treatedAs === policy ? message : `${message} Treated as disallow-all until robots.txt is fetched again.`,
        unreachableSince: failed ? since ?? fetchedAt : null,
      });
      return withSource(parsed, info, keep);
    } catch (e) {
      throw rethrow(e);
    }
  }

  Object.defineProperty(fetchRobots, Symbol.for('robots-eval.internals'), { value: internals });

  return { Robots, fetchRobots, parseContentUsage };
}
