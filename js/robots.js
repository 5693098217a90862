// The Robots class: argument checking, typed errors, and the verdict module's answers (wasm/src/lib.rs:
// parse, isAllowed, table, isExplicitlyDisallowed, crawlDelay, requestRate, sitemaps, host). The
// rich module's calls (explain, diagnostics, records, aiPreferences, aiUse) are installed on the
// class by js/rich-methods.js, which only the 'robots-eval/rich' entry (and fetchAiUse) reaches:
// a bundle that never asks for them carries neither that code nor the rich module.
//
// The verdict module is compiled and instantiated synchronously on first use (js/engine.js), so
// no runtime needs an init call or top-level await. Should the instance ever trap (it should not:
// the core never panics and arguments are checked here), the trap becomes an Error and a fresh
// instance replaces it; objects parsed by the old instance then throw instead of answering from
// corrupted memory. Every call takes and returns numbers only; parsed files are handles whose
// lifetime this file owns.

import { defineEngine } from './engine.js';
// The numbers of the boundary (wasm-boundary/src/lib.rs), written by scripts/build-pkg.mjs.
import { OFF_SITE, SELECTION_KIND_MASK, SELECTION_SPECIFIC, VERDICT_ALLOWED } from './protocol.js';
import { decisionTable } from './table.js';
import { PREFIX, describe, typeError, optionsArg, numberOption, isMaxBytes, DEFAULT_MAX_BYTES } from './common.js';
// The core's names of dialects and reasons, read from the rich module by
// scripts/build-pkg.mjs when it builds the package (so no run pays for asking).
import NAMES from './names.js';

const MAX_U32 = 0xffffffff;

const PARSE_OPTIONS = ['dialect', 'maxBytes', 'url'];
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

// A microtask through a promise: Node's queueMicrotask adds async-hooks bookkeeping, and its first
// call costs a fifth of a millisecond of the cold start.
const resolved = Promise.resolve();
const later = (f) => {
  resolved.then(f);
};

/** Dialect index by the name given to Robots.parse (any case). */
const dialectIndexes = new Map();

/** The key of defineApi's result under which js/fetch.js and js/rich-methods.js find what they need. */
export const CORE = Symbol('robots-eval.core');

/** `object[key]`, for the entries' pure reads (js/index.js). */
export function member(object, key) {
  return object[key];
}

/**
 * The Robots class over one verdict module (`loadModule` compiles it; js/engine.js holds the
 * instance and its memory). The calls the rich module answers are installed by js/rich-methods.js
 * ('robots-eval/rich'); until then they throw an Error: `${PREFIX}${where} is answered by the
 * rich module${missingRich}` (each entry says what to do: js/index.js, js/verdict.js).
 */
export function defineApi(loadModule, missingRich) {
  const needsRich = (where) => new Error(`${PREFIX}${where} is answered by the rich module${missingRich}`);
  const E = defineEngine(loadModule, null, 'robots_free');
  const { put, putUrl } = E;
  // Robots objects not registered for finalization yet (see Robots.#enlist).
  let pending = [];

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
  const QUERY = Symbol('robots-eval.query');
  const LIVE = Symbol('robots-eval.live');
  const RICH_FILE = Symbol('robots-eval.richFile');
  // For js/robots-parser.js, which reaches the package by its name only: see [READ_AGENTS] below.
  const READ_AGENTS = Symbol.for('robots-eval.readAgents');

  class Robots {
    #handle; // the file in the module (wasm/src/lib.rs, parse); 0 once freed
    #inst; // the instance that holds it
    #registered = false; // registered with its instance's FinalizationRegistry
    #sitemaps = null;
    #dialect;
    // What the rich module needs to parse the same file again (its first rich call, js/rich-methods.js):
    // the text as given to the verdict module (a string, or bytes this object owns), its dialect
    // index and size cap; and then that parse, { file, owner } (freed with this object).
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

    static [WITH_SOURCE](robots, source, copy = null) {
      robots.#source = source;
      robots.#setOrigin(new URL(source.url).origin);
      robots.#copy = copy;
      return robots;
    }

    /** The site's origin, here and in the module (whose `allowed` compares a URL with it). */
    #setOrigin(origin) {
      this.#origin = origin;
      if (origin !== null && this.#handle !== 0 && this.#inst === E.current) E.w.set_site(this.#handle, put(origin, 0));
    }

    static [COPY_OF](robots) {
      return robots.#copy;
    }

    /** For js/rich-methods.js: the checked arguments of a query, [url as text, the deciding agent]. */
    static [QUERY](robots, where, url, agent) {
      const [, u, a] = robots.#query(where, url, agent);
      return [u, a];
    }

    /** For js/rich-methods.js: the check that the object is live. */
    static [LIVE](robots, where) {
      robots.#live(where);
    }

    /**
     * For js/rich-methods.js: the rich module's parse of this file, made by `parse(text, dialect
     * index, maxBytes)` on the first call and again when `owner` (the rich instance) changed.
     */
    static [RICH_FILE](robots, owner, parse) {
      let r = robots.#rich;
      if (r === null || r.owner !== owner) r = robots.#rich = { file: parse(robots.#text, robots.#d, robots.#maxBytes), owner };
      return r.file;
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
        if (r.#handle !== 0 && r.#inst === E.current && E.registry !== null) {
          E.registry.register(r, r.#handle, r);
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
        const current = E.instance();
        let len;
        if (typeof text === 'string') {
          len = put(text, 0, maxBytes + 1);
        } else {
          len = text.length;
          E.putBytes(text, 0);
        }
        // The rich module parses the same text again when first asked: bytes are copied, so
        // that a caller who reuses their buffer changes neither parse.
        const kept = typeof text === 'string' || owned ? text : text.slice();
        const robots = new Robots(INTERNAL, E.w.parse(len, d, maxBytes), current, kept, d, maxBytes);
        if (origin !== null) robots.#setOrigin(origin);
        E.trim();
        Robots.#enlist(robots);
        return robots;
      } catch (e) {
        throw E.rethrow(e);
      }
    }

    /** The handle, or the error of a call on a freed object or one of a dropped instance. */
    #live(where) {
      if (this.#handle === 0) throw new Error(`${PREFIX}${where}: this Robots object was freed; parse the file again`);
      if (this.#inst !== E.current) {
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
        selection = E.w.selection(handle, put(read === null ? agent : String(read(agent)), 0));
        if (agent.length <= 1024) {
          if (cache.size >= 256) cache.clear();
          cache.set(agent, selection);
        }
      }
      return selection;
    }

    /**
     * The product token that decides among a list of them (Robots::pick_agent): the first with a
     * group of its own (a specific selection: SELECTION_SPECIFIC), else the first. A
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
        for (const agent of agents) if ((this.#select(handle, agent) & SELECTION_KIND_MASK) === SELECTION_SPECIFIC) return agent;
      } catch (e) {
        throw E.rethrow(e);
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
        verdict = E.w.allowed(handle, putUrl(url), selection);
      } catch (e) {
        throw E.rethrow(e);
      }
      // OFF_SITE: the module found the URL not plainly on the file's site (wasm/src/lib.rs, allowed).
      if ((verdict & OFF_SITE) !== 0) this.#onSite(url, 'isAllowed(url, agent)');
      return (verdict & VERDICT_ALLOWED) !== 0;
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

    // The rich module's calls: js/rich-methods.js replaces these ('robots-eval/rich').
    explain() {
      throw needsRich('explain(url, agent)');
    }

    aiPreferences() {
      throw needsRich('aiPreferences(url, agent, options)');
    }

    aiUse() {
      throw needsRich('aiUse(url, agent, options)');
    }

    get records() {
      throw needsRich('records');
    }

    get diagnostics() {
      throw needsRich('diagnostics');
    }

    table(urls, agents, options) {
      const where = 'table(urls, agents)';
      optionsArg(options, 'table(urls, agents, options)', TABLE_OPTIONS);
      const handle = this.#live(where);
      return decisionTable(E, handle, urls, agents, {
        urlArg,
        pick: (a, w) => this.#pick(handle, a, w),
        select: (a) => this.#select(handle, a),
        onSite: (u, w) => this.#onSite(u, w),
        // The preference columns (`{ ai: true }`): each cell's aiPreferences(url, agent).
        ai: options?.ai === true ? (url, agent) => this.aiPreferences(url, agent) : null,
      });
    }

    crawlDelay(agent) {
      const handle = this.#live('crawlDelay(agent)');
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, 'crawlDelay(agent)');
      try {
        const delay = E.w.crawl_delay(handle, put(agent, 0));
        return Number.isNaN(delay) ? undefined : delay;
      } catch (e) {
        throw E.rethrow(e);
      }
    }

    isExplicitlyDisallowed(url, agent) {
      let handle;
      [handle, url, agent] = this.#query('isExplicitlyDisallowed(url, agent)', url, agent);
      try {
        // Only a group naming the agent itself (a specific selection).
        const selection = this.#select(handle, agent);
        return (selection & SELECTION_KIND_MASK) === SELECTION_SPECIFIC && (E.w.allowed(handle, put(url, 0), selection) & VERDICT_ALLOWED) === 0;
      } catch (e) {
        throw E.rethrow(e);
      }
    }

    requestRate(agent) {
      const handle = this.#live('requestRate(agent)');
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, 'requestRate(agent)');
      try {
        const seconds = E.w.request_rate(handle, put(agent, 0));
        if (Number.isNaN(seconds)) return undefined;
        return { requests: E.u32s(1)[0], seconds };
      } catch (e) {
        throw E.rethrow(e);
      }
    }

    get host() {
      const handle = this.#live('host');
      try {
        const len = E.w.host(handle);
        return len === 0 ? null : E.text(len - 1);
      } catch (e) {
        throw E.rethrow(e);
      }
    }

    get sitemaps() {
      const handle = this.#live('sitemaps');
      try {
        // Each URL after a '\n' (wasm/src/lib.rs, sitemaps).
        this.#sitemaps ??= E.text(E.w.sitemaps(handle)).split('\n').slice(1);
      } catch (e) {
        throw E.rethrow(e);
      }
      return this.#sitemaps.slice();
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
        return E.w.truncated(handle) === 1;
      } catch (e) {
        throw E.rethrow(e);
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
      this.#sitemaps = this.#selections = null;
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
      if (owner === E.current) {
        try {
          E.w.robots_free(handle);
        } catch (e) {
          throw E.rethrow(e);
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
    get: E.memoryBytes,
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
    rethrow: E.rethrow,
    query: (robots, where, url, agent) => Robots[QUERY](robots, where, url, agent),
    live: (robots, where) => Robots[LIVE](robots, where),
    richFile: (robots, owner, parse) => Robots[RICH_FILE](robots, owner, parse),
    /** Robots.parse of text this package owns (a fetched body): kept without a copy. */
    parseOwned: (text, options) => Robots[PARSE](text, options, true),
    withSource: (robots, source, copy) => Robots[WITH_SOURCE](robots, source, copy),
    copyOf: (robots) => Robots[COPY_OF](robots),
  };

  return { Robots, [CORE]: core };
}
