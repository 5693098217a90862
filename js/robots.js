// The Robots class over the verdict module (wasm/src/lib.rs): parse, and the verdict queries
// (isAllowed, table, isExplicitlyDisallowed, crawlDelay, requestRate, sitemaps, host, truncated),
// the handle's lifetime (free, and the finalizer: js/finalize.js) and the hooks js/fetch.js and
// js/rich-methods.js build on. What it leans on, one job a file, each pointing down only:
//   js/arguments.js   the arguments read and checked (URL, agents, Robots.parse's options)
//   js/selections.js  the cache of group selections by agent
//   js/site.js        the file's site, and the error for a URL of another one
//   js/table.js       robots.table(urls, agents)
//   js/rich-stand-ins.js  the rich module's calls until 'robots-eval/rich' installs them
//   js/engine.js      the one place that touches wasm memory
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
import { PREFIX, typeError, optionsArg } from './common.js';
import { urlArg, dialectIndex, parseOptions, agentList } from './arguments.js';
import { addSelection } from './selections.js';
import { settleOnSite } from './site.js';
import { defineFinalization } from './finalize.js';
import { defineRichStandIns } from './rich-stand-ins.js';
// The core's names of dialects, read from the rich module by scripts/build-pkg.mjs when it builds
// the package (so no run pays for asking).
import NAMES from './names.js';

const TABLE_OPTIONS = ['ai'];

/** The key of defineApi's result under which js/fetch.js and js/rich-methods.js find what they need. */
export const CORE = Symbol('robots-eval.core');

/** `object[key]`, for the entries' pure reads (js/index.js). */
export function member(object, key) {
  return object[key];
}

/**
 * The Robots class over one verdict module (`loadModule` compiles it; js/engine.js holds the
 * instance and its memory). The calls the rich module answers throw until js/rich-methods.js
 * installs them ('robots-eval/rich'); `missingRich` ends their error (js/rich-stand-ins.js).
 */
export function defineApi(loadModule, missingRich) {
  const E = defineEngine(loadModule, null, 'robots_free');
  const { put, putUrl } = E;

  const INTERNAL = Symbol('robots-eval');
  // What js/fetch.js and js/rich-methods.js build on (not part of the public API), made in the
  // class's static block, where it reaches the objects' private state.
  let core;
  // For js/robots-parser.js, which reaches the package by its name only: see [READ_AGENTS] below.
  const READ_AGENTS = Symbol.for('robots-eval.readAgents');

  class Robots {
    #handle; // the file in the module (wasm/src/lib.rs, parse); 0 once freed
    #inst; // the instance that holds it
    #registered = false; // registered with its instance's FinalizationRegistry (js/finalize.js)
    #sitemaps = null;
    #dialect;
    // What the rich and AI-use modules need to parse the same file again (their first call,
    // js/rich-methods.js): the text as given to the verdict module (a string, or bytes this object
    // owns), its dialect index and size cap; and then those parses, one { e, owner, file } per
    // module (freed with this object).
    #text;
    #d;
    #maxBytes;
    #rich = null;
    #source = null;
    // The origin of the site this robots.txt belongs to, when known (fetchRobots, RobotRules, the
    // `url` option), here and in the module, which flags a URL not plainly on it (OFF_SITE; then
    // js/site.js settles it). null: any URL is taken as this site's.
    #origin = null;
    // For the fetch lifecycle (fetchRobots, RobotRules): the text of the last good copy of the
    // site's robots.txt (a string or bytes we own), kept so that a later failure can fall back on
    // it (policy use-cached); null when there is none. Survives free().
    #copy = null;
    // The selection cache by agent (js/selections.js), made on the first query (a file parsed and
    // freed unqueried never needs it), and how it reads agents (null: as given; [READ_AGENTS]).
    #selections = null;
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

    // Registered with the finalizer when the current job ends, if still live then (js/finalize.js).
    static #enlist = defineFinalization(E, (robots) => robots.#claim());

    /** The handle to register this object with (marking it registered), or 0 when it is freed or its instance gone. */
    #claim() {
      if (this.#handle === 0 || this.#inst !== E.current || E.registry === null) return 0;
      this.#registered = true;
      return this.#handle;
    }

    /** The site's origin, here and in the module (whose `allowed` compares a URL with it). */
    #setOrigin(origin) {
      this.#origin = origin;
      if (origin !== null && this.#handle !== 0 && this.#inst === E.current) E.w.set_site(this.#handle, put(origin, 0));
    }

    static {
      core = {
        dialectIndex,
        urlArg,
        rethrow: E.rethrow,
        /** For js/rich-methods.js: the checked arguments of a query, [url as text, the deciding agent]. */
        query(robots, where, url, agent) {
          const [, u, a] = robots.#query(where, url, agent);
          return [u, a];
        },
        /** For js/rich-methods.js: the check that the object is live. */
        live(robots, where) {
          robots.#live(where);
        },
        /**
         * For js/rich-methods.js: the parse of this file in the module of engine `e` (the rich
         * module or the AI-use one, js/engine.js), made by `parse(text, dialect index, maxBytes)`
         * on the first call and again when that module's instance (`e.current`) changed.
         */
        richFile(robots, e, parse) {
          const files = (robots.#rich ??= []);
          let r = files.find((f) => f.e === e);
          if (r === undefined) files.push((r = { e, owner: null, file: null }));
          if (r.owner !== e.current) {
            r.file = parse(robots.#text, robots.#d, robots.#maxBytes);
            r.owner = e.current;
          }
          return r.file;
        },
        /** Robots.parse of text this package owns (a fetched body): kept without a copy. */
        parseOwned: (text, options) => Robots.#parse(text, options, true),
        /** For js/fetch.js: where a fetched file came from, its site, and the good copy carried on. */
        withSource(robots, source, copy = null) {
          robots.#source = source;
          robots.#setOrigin(new URL(source.url).origin);
          robots.#copy = copy;
          return robots;
        },
        copyOf: (robots) => robots.#copy,
      };
    }

    /**
     * Not part of the API: `read(agent)` is the agent each selection is made for, in isAllowed,
     * isExplicitlyDisallowed and table (js/selections.js; the robots-parser entry's check of each
     * agent cost its isAllowed about an eighth when it ran per query).
     */
    static [READ_AGENTS](robots, read) {
      if (read !== null && typeof read !== 'function') throw new TypeError(`${PREFIX}readAgents: a function or null`);
      robots.#readAgent = read;
      robots.#selections = null;
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
      return Robots.#parse(text, options, false);
    }

    /** Robots.parse; `owned`: the bytes are this package's (fetchRobots), kept without a copy. */
    static #parse(text, options, owned) {
      const where = 'Robots.parse(text, options)';
      const isBytes = text instanceof Uint8Array;
      if (typeof text !== 'string' && !isBytes) {
        if (text instanceof ArrayBuffer) {
          text = new Uint8Array(text);
        } else {
          throw typeError(where, 'text must be a string or Uint8Array', text);
        }
      }
      const { d, maxBytes, origin } = parseOptions(options, where);
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

    /** The packed selection of `agent` (cached: js/selections.js). */
    #select(handle, agent) {
      const cache = (this.#selections ??= new Map());
      const selection = cache.get(agent);
      return selection === undefined ? addSelection(cache, E, handle, agent, this.#readAgent) : selection;
    }

    /**
     * The product token that decides among a list of them (Robots::pick_agent): the first with a
     * group of its own (a specific selection: SELECTION_SPECIFIC), else the first. A
     * TypeError for anything but a non-empty array of strings. Only called for an agent that is
     * not a string: a string skips it.
     */
    #pick(handle, agents, where) {
      agentList(agents, where);
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
      if ((verdict & OFF_SITE) !== 0) settleOnSite(url, this.#origin, 'isAllowed(url, agent)');
      return (verdict & VERDICT_ALLOWED) !== 0;
    }

    /**
     * The arguments of a query of the rich module (url, agent), checked: the handle, the URL as
     * text and the agent that decides; a URL the verdict module finds not plainly on the file's
     * known site is settled by js/site.js.
     */
    #query(where, url, agent) {
      const handle = this.#live(where);
      url = urlArg(url, where);
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, where);
      if (this.#origin !== null) {
        let off;
        try {
          off = E.w.off_site(handle, put(url, 0));
        } catch (e) {
          throw E.rethrow(e);
        }
        if (off !== 0) settleOnSite(url, this.#origin, where);
      }
      return [handle, url, agent];
    }

    table(urls, agents, options) {
      const where = 'table(urls, agents)';
      optionsArg(options, 'table(urls, agents, options)', TABLE_OPTIONS);
      const handle = this.#live(where);
      return decisionTable(E, handle, urls, agents, {
        urlArg,
        pick: (a, w) => this.#pick(handle, a, w),
        select: (a) => this.#select(handle, a),
        onSite: (u, w) => settleOnSite(u, this.#origin, w),
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
      const where = 'isExplicitlyDisallowed(url, agent)';
      const handle = this.#live(where);
      url = urlArg(url, where);
      if (typeof agent !== 'string') agent = this.#pick(handle, agent, where);
      let selection;
      let verdict;
      try {
        selection = this.#select(handle, agent);
        verdict = E.w.allowed(handle, put(url, 0), selection);
      } catch (e) {
        throw E.rethrow(e);
      }
      if ((verdict & OFF_SITE) !== 0) settleOnSite(url, this.#origin, where);
      // Only a group naming the agent itself (a specific selection).
      return (selection & SELECTION_KIND_MASK) === SELECTION_SPECIFIC && (verdict & VERDICT_ALLOWED) === 0;
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
      const files = this.#rich;
      if (files !== null) {
        this.#rich = null;
        // Its instance may have been reset since: then its memory went with it.
        for (const r of files) {
          try {
            r.file.free();
          } catch {}
        }
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

  defineRichStandIns(Robots.prototype, missingRich);

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

  return { Robots, [CORE]: core };
}
