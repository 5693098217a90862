// The public API of the npm package: argument checking, typed errors, and the results of the two
// WebAssembly modules. The verdict module (wasm/src/lib.rs) answers what a crawler asks of every
// site and URL: parse, isAllowed, table, isExplicitlyDisallowed, crawlDelay, requestRate,
// sitemaps, host, and the fetch policy. The rich module (wasm-rich/src/lib.rs, through
// js/rich.js) answers the rest (explain, diagnostics, records, aiPreferences), from its own parse
// of the same text, made on the first such call of each Robots. Every entry point (index.js,
// verdict.js, workerd.js, the CommonJS builds) is this file plus a way to obtain the compiled
// modules; verdict.js gives no rich module, and the calls that need it then throw.
//
// The verdict module is compiled and instantiated synchronously on first use, so no runtime needs
// an init call or top-level await. Should the instance ever trap (it should not: the core never
// panics and arguments are checked here), the trap becomes an Error and a fresh instance replaces
// it; objects parsed by the old instance then throw instead of answering from corrupted memory.
//
// Every call on the verdict module takes and returns numbers only: arguments go through the input
// buffer of the instance's Engine, results come back as numbers or through its output buffers,
// and parsed files are handles whose lifetime this file owns.

import { createBindings } from './glue.js';
import {
  PREFIX, describe, typeError, optionsArg, decodeUtf8, instanceFailure, numberOption, isMaxBytes, DEFAULT_MAX_BYTES,
} from './common.js';
// The core's names of dialects and reasons, read from the rich module by
// scripts/build-pkg.mjs when it builds the package (so no run pays for asking).
import NAMES from './names.js';

const MAX_U32 = 0xffffffff;

const PARSE_OPTIONS = ['dialect', 'maxBytes', 'url'];
const AI_OPTIONS = ['header'];
const TABLE_OPTIONS = ['ai'];

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
// A microtask through a promise: Node's queueMicrotask adds async-hooks bookkeeping, and its first
// call costs a fifth of a millisecond of the cold start.
const resolved = Promise.resolve();
const later = (f) => {
  resolved.then(f);
};

/** Dialect index by the name given to Robots.parse (any case). */
const dialectIndexes = new Map();


/** The key of defineApi's result under which js/fetch.js finds what it needs. */
export const CORE = Symbol('robots-eval.core');

/** `object[key]`, for the entries' pure reads (js/index.js). */
export function member(object, key) {
  return object[key];
}

/**
 * The API over one verdict module (`loadModule` compiles it) and the rich module's `withRich`
 * (js/rich.js), or null for an entry without it; `ai`: aiUse's argument checking and answer
 * (js/rich.js `aiUseInputs`, `aiUseAnswer`), which only an entry with the rich module carries.
 */
export function defineApi(loadModule, withRich, ai = null) {
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

  /** A Content-Usage header: one field value, or its field lines (joined with ", ", RFC 9110 section 5.3). */
  function headerArg(header, where) {
    if (typeof header === 'string') return header;
    if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header.join(', ');
    throw typeError(where, 'a Content-Usage header must be a string or an array of strings (its field lines)', header);
  }

  /** The rich module's bindings to `f` (js/rich.js); an Error naming the entry to use when this one has none. */
  function rich(where, f) {
    if (withRich === null) {
      throw new Error(`${PREFIX}${where} is answered by the rich module, which the 'robots-eval/verdict' entry leaves out; import it from 'robots-eval'`);
    }
    return withRich(f);
  }

  /** A Content-Usage header alone: each category's value. */
  function parseContentUsage(header) {
    const where = 'parseContentUsage(header)';
    const value = headerArg(header, where);
    return rich(where, (b) => b.content_usage(value));
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
  const PARSE = Symbol('robots-eval.parse');
  // For js/robots-parser.js, which reaches the package by its name only: see [READ_AGENTS] below.
  const READ_AGENTS = Symbol.for('robots-eval.readAgents');

  class Robots {
    #handle; // the file in the module (wasm/src/lib.rs, parse); 0 once freed
    #inst; // the instance that holds it
    #registered = false; // registered with its instance's FinalizationRegistry
    #sitemaps = null;
    #diagnostics = null;
    #records = null;
    #dialect;
    // What the rich module needs to parse the same file again (its first rich call): the text as
    // given to the verdict module (a string, or bytes this object owns), its dialect index and size
    // cap; and then { file, owner }: the rich module's parse (a File of wasm-rich/src/lib.rs) and
    // the bindings of the instance that holds it.
    #text;
    #d;
    #maxBytes;
    #rich = null;
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
    // How the agents given to the selection-based queries are read first (null: as given); set by
    // js/robots-parser.js, whose agents are robots-parser's (cut at `/`, trimmed, `*` for none).
    #readAgent = null;

    constructor(token, handle, instance, text, d, maxBytes) {
      if (token !== INTERNAL) {
        throw new TypeError(`${PREFIX}use Robots.parse(text, options) to create a Robots object`);
      }
      this.#handle = handle;
      this.#inst = instance;
      this.#dialect = NAMES.dialects[d];
      this.#text = text;
      this.#d = d;
      this.#maxBytes = maxBytes;
    }

    /**
     * Calls `f` with the rich module's bindings and its parse of this file (made on the first
     * call, and again after that instance was reset): explain, diagnostics, records, aiPreferences.
     */
    #withFile(where, f) {
      return rich(where, (b) => {
        let r = this.#rich;
        if (r === null || r.owner !== b) {
          const text = this.#text;
          const file = typeof text === 'string' ? b.File.parse(text, this.#d, this.#maxBytes) : b.File.parse_bytes(text, this.#d, this.#maxBytes);
          r = this.#rich = { file, owner: b };
        }
        return f(r.file);
      });
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

    /**
     * Not part of the API: `read(agent)` is the agent each selection is made for, in isAllowed,
     * isExplicitlyDisallowed and table. It runs once per agent (#select's cache is keyed by the
     * agent as given), so a wrapper that reads agents its own way pays nothing per query (the
     * robots-parser entry's check of each agent cost its isAllowed about an eighth).
     */
    static [READ_AGENTS](robots, read) {
      if (read !== null && typeof read !== 'function') throw new TypeError(`${PREFIX}readAgents: a function or null`);
      robots.#readAgent = read;
      robots.#selections = null;
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
      return Robots[PARSE](text, options, false);
    }

    /** Robots.parse; `owned`: the bytes are this package's (fetchRobots), kept without a copy. */
    static [PARSE](text, options, owned) {
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
        // The rich module parses the same text again when first asked: bytes are copied, so
        // that a caller who reuses their buffer changes neither parse.
        const kept = typeof text === 'string' || owned ? text : text.slice();
        const robots = new Robots(INTERNAL, w.parse(len, d, maxBytes), current, kept, d, maxBytes);
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
        const read = this.#readAgent;
        selection = w.selection(handle, put(read === null ? agent : String(read(agent)), 0));
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
      [, url, agent] = this.#query(where, url, agent);
      return this.#withFile(where, (file) => file.explain(url, agent));
    }

    aiPreferences(url, agent, options) {
      const where = 'aiPreferences(url, agent, options)';
      [, url, agent] = this.#query(where, url, agent);
      optionsArg(options, where, AI_OPTIONS);
      const header = options?.header === undefined ? undefined : headerArg(options.header, where);
      return this.#withFile(where, (file) => file.ai_preferences(url, agent, header));
    }

    /**
     * "May this crawler use this page for AI?" per purpose, from every signal given (docs/ai-use.md):
     * the options are checked before the rich module is compiled; a Robots from fetchRobots
     * brings how robots.txt was fetched.
     */
    aiUse(url, agent, options) {
      const where = 'aiUse(url, agent, options)';
      [, url, agent] = this.#query(where, url, agent);
      if (ai === null) return rich(where);
      const inputs = ai.inputs(options, where);
      const source = this.#source;
      return this.#withFile(where, (file) => ai.answer(file, url, agent, inputs, source));
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
        const len = w.host(handle);
        return len === 0 ? null : outText(len - 1);
      } catch (e) {
        throw rethrow(e);
      }
    }

    get records() {
      const where = 'records';
      this.#live(where);
      this.#records ??= this.#withFile(where, (file) => file.records()).map((r) => {
        if (r.agents !== null) Object.freeze(r.agents);
        return Object.freeze(r);
      });
      return this.#records.slice();
    }

    get sitemaps() {
      const handle = this.#live('sitemaps');
      try {
        // Each URL after a '\n' (wasm/src/lib.rs, sitemaps).
        this.#sitemaps ??= outText(w.sitemaps(handle)).split('\n').slice(1);
      } catch (e) {
        throw rethrow(e);
      }
      return this.#sitemaps.slice();
    }

    get diagnostics() {
      const where = 'diagnostics';
      this.#live(where);
      this.#diagnostics ??= this.#withFile(where, (file) => file.diagnostics()).map(Object.freeze);
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
      const r = this.#rich;
      if (r !== null) {
        this.#rich = null;
        // Its instance may have been reset since: then its memory went with it.
        try {
          r.file.free();
        } catch {}
      }
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

  // What js/fetch.js builds fetchRobots from (not part of the public API).
  const core = {
    dialectIndex,
    urlArg,
    rethrow,
    /** Robots.parse of text this package owns (a fetched body): kept without a copy. */
    parseOwned: (text, options) => Robots[PARSE](text, options, true),
    withSource: (robots, source, copy) => Robots[WITH_SOURCE](robots, source, copy),
    copyOf: (robots) => Robots[COPY_OF](robots),
  };

  return { Robots, parseContentUsage, [CORE]: core };
}
