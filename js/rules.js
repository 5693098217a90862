// RobotRules: the WWW::RobotRules API (seed 002: `new`, `parse($url, $content, $fresh_until)`,
// `allowed($url)`) for crawlers, in plain JavaScript on top of Robots and fetchRobots. One object
// holds the rules of many sites for one crawler, keyed by origin, each until its freshness ends,
// in a bounded LRU that frees the evicted Robots objects.
//
// `defineRobotRules({ Robots, fetchRobots })` builds the class for one instance of the API, as
// defineApi does for Robots, so every entry (index.js, workerd.js) gets a class bound to its own
// WebAssembly instance.

import { PREFIX, describe } from './common.js';

// When to ask again after a failure, without a freshUntil or Retry-After: as fetchRobots.
const DEFAULT_RETRY_AFTER_MS = 300_000;

// The policy for each status, the lifetimes and the time a site has been unreachable are the
// core's (fetch::decide, fetch::freshness), reached through fetchRobots' internals: the same
// decisions fetchRobots makes, from one place (tests/js/rules.test.mjs compares the two).

/** A copy of the caller's text that the caller cannot change later (strings are immutable). */
function ownCopy(text) {
  if (text instanceof Uint8Array) return text.slice();
  if (text instanceof ArrayBuffer) return new Uint8Array(text.slice(0));
  return typeof text === 'string' ? text : '';
}

/** The site a URL belongs to: its origin (scheme, host lower-cased and IDNA-encoded, port without the default). */
function siteOf(url, where) {
  let u;
  if (typeof URL === 'function' && url instanceof URL) u = url;
  else if (typeof url === 'string') {
    try {
      u = new URL(url);
    } catch {
      throw new TypeError(`${PREFIX}${where}: url must be an absolute http: or https: URL, got ${describe(url)}`);
    }
  } else {
    throw new TypeError(`${PREFIX}${where}: url must be a string or a URL, got ${describe(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new TypeError(`${PREFIX}${where}: url must be an absolute http: or https: URL, got ${describe(u.href)}`);
  }
  return u;
}

function timeArg(value, where, name) {
  if (value instanceof Date) value = value.getTime();
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${PREFIX}${where}: ${name} must be a number (ms since the epoch) or a Date, got ${describe(value)}`);
  }
  return value;
}

// The options each method accepts (anything else is a TypeError naming them).
const RULES_OPTIONS = ['dialect', 'maxSites', 'now', 'maxBytes', 'minTtlMs', 'retryAfterMs'];
const PARSE_OPTIONS = ['status', 'freshUntil', 'siteDown'];
// fetchRobots' options but those this object sets itself (dialect, now, previous).
const FETCH_OPTIONS = ['fetch', 'userAgent', 'timeoutMs', 'signal', 'maxBytes', 'retryAfterMs', 'siteDown'];

export function defineRobotRules({ Robots, fetchRobots }) {
  const core = fetchRobots[Symbol.for('robots-eval.internals')];
  const { isMaxBytes, isNonNegative } = core;

  class RobotRules {
    #agent;
    #dialect;
    #maxSites;
    #now;
    #maxBytes;
    #minTtlMs;
    #retryAfterMs;
    #sites = new Map(); // origin -> { robots, source }, least recently used first; robots carries the last good copy
    #hits = 0;
    #misses = 0;
    #expired = 0;
    #evictions = 0;

    constructor(agent, options) {
      const where = 'new RobotRules(agent, options)';
      if (typeof agent !== 'string' || agent.trim() === '') {
        throw new TypeError(`${PREFIX}${where}: agent must be a non-empty string (the crawler's product token or User-Agent), got ${describe(agent)}`);
      }
      const {
        dialect = 'rfc9309', maxSites = 1000, now = Date.now, maxBytes, minTtlMs = 0, retryAfterMs = DEFAULT_RETRY_AFTER_MS,
      } = core.options(options, where, RULES_OPTIONS);
      if (typeof dialect !== 'string') throw new TypeError(`${PREFIX}${where}: options.dialect must be a string, got ${describe(dialect)}`);
      const canonical = Robots.dialects.find((d) => d.toLowerCase() === dialect.toLowerCase());
      if (canonical === undefined) {
        throw new RangeError(`${PREFIX}${where}: unknown dialect ${JSON.stringify(dialect)}; the dialects are ${Robots.dialects.map((d) => `'${d}'`).join(', ')}`);
      }
      core.numberOption(maxSites, where, 'maxSites', (v) => Number.isInteger(v) && v >= 1, 'a positive integer');
      if (typeof now !== 'function') throw new TypeError(`${PREFIX}${where}: options.now must be a function returning ms since the epoch, got ${describe(now)}`);
      if (maxBytes !== undefined) {
        core.numberOption(maxBytes, where, 'maxBytes', isMaxBytes, 'a non-negative integer or Infinity');
      }
      core.numberOption(minTtlMs, where, 'minTtlMs', isNonNegative, 'a non-negative number');
      core.numberOption(retryAfterMs, where, 'retryAfterMs', isNonNegative, 'a non-negative number');
      this.#agent = agent;
      this.#dialect = canonical;
      this.#maxSites = maxSites;
      this.#now = now;
      this.#maxBytes = maxBytes;
      this.#minTtlMs = minTtlMs;
      this.#retryAfterMs = retryAfterMs;
    }

    /** The crawler the rules are evaluated for. */
    get agent() { return this.#agent; }

    /** The dialect every file is parsed and every failure is handled with. */
    get dialect() { return this.#dialect; }

    /** Counters: sites held now, and lookups since construction. */
    get stats() {
      return { sites: this.#sites.size, hits: this.#hits, misses: this.#misses, evictions: this.#evictions, expired: this.#expired };
    }

    #store(origin, robots, source, copy) {
      // The Robots carries its source and the last good copy, so that fetch() can pass it to
      // fetchRobots as `previous`.
      core.attach(robots, source, copy);
      const old = this.#sites.get(origin);
      if (old !== undefined) {
        this.#sites.delete(origin);
        if (old.robots !== robots) old.robots.free();
      }
      this.#sites.set(origin, { robots, source });
      while (this.#sites.size > this.#maxSites) {
        const [oldest, entry] = this.#sites.entries().next().value;
        this.#sites.delete(oldest);
        entry.robots.free();
        this.#evictions++;
      }
      return source;
    }

    /**
     * Stores the rules of the site of `robotsUrl` (any URL of the site; normally its
     * `/robots.txt`). `text` is the body when the status is 2xx, and is ignored otherwise: the
     * dialect's policy decides (allow all, disallow all). Returns what was stored.
     */
    parse(robotsUrl, text, options) {
      const where = 'RobotRules.parse(robotsUrl, text, options)';
      const u = siteOf(robotsUrl, where);
      let { freshUntil, status = 200, siteDown = false } = core.options(options, where, PARSE_OPTIONS);
      if (typeof siteDown !== 'boolean') throw new TypeError(`${PREFIX}${where}: options.siteDown must be a boolean, got ${describe(siteDown)}`);
      core.numberOption(status, where, 'status', (v) => Number.isInteger(v) && v >= 0 && v <= 599 && (v < 300 || v >= 400 || v === 304),
        'the final HTTP status (0 for a network error or timeout; follow redirects first, as rules.fetch() does)');
      const now = this.#now();
      if (freshUntil !== undefined) freshUntil = Math.max(timeArg(freshUntil, where, 'options.freshUntil'), now + this.#minTtlMs);
      const origin = u.origin;
      const cached = this.#sites.get(origin);
      const copy = cached === undefined ? null : core.copyOf(cached.robots);
      if (status === 304) {
        if (cached !== undefined) {
          freshUntil ??= Math.max(core.defaultFreshUntil(this.#dialect, now), now + this.#minTtlMs);
          const source = Object.freeze({
            ...cached.source, status, fetchedAt: now, freshUntil, policy: 'use-cached', reason: 'not-modified',
            message: '304 Not Modified: the cached copy is used again.', unreachableSince: null,
          });
          return this.#store(origin, cached.robots, source, copy);
        }
        status = 0; // 304 without a cached copy: an invalid response, as a network error
      }
      const { policy, reason, message, failUntil, failed } = core.decide(
        this.#dialect, status, now, copy !== null, cached?.source.unreachableSince ?? null, this.#retryAfterMs, siteDown,
      );
      let body;
      let treatedAs = policy;
      let keep = failed ? copy : null; // while unreachable, the last good copy is carried on
      if (policy === 'parse') {
        body = text ?? '';
      } else if (policy === 'allow-all') {
        body = '';
      } else if (policy === 'use-cached' && copy !== null) {
        body = copy;
      } else {
        treatedAs = 'disallow-all';
        body = core.disallowAll();
      }
      // Without a freshUntil: a file or "no file" (allow-all) keeps the dialect's default lifetime;
      // a failure is asked again after retryAfterMs (capped as in fetchRobots).
      freshUntil ??= Math.max(policy === 'parse' || (policy === 'allow-all' && !failed)
        ? core.defaultFreshUntil(this.#dialect, now)
        : failUntil, now + this.#minTtlMs);
      const robots = Robots.parse(body, this.#maxBytes === undefined ? { dialect: this.#dialect } : { dialect: this.#dialect, maxBytes: this.#maxBytes });
      if (policy === 'parse') keep = ownCopy(text);
      const source = Object.freeze({
        url: new URL('/robots.txt', u).href,
        status,
        fetchedAt: now,
        freshUntil,
        policy,
        treatedAs,
        reason,
        message: treatedAs === policy ? message : `${message} Treated as disallow-all until robots.txt is fetched again.`,
        unreachableSince: failed ? cached?.source.unreachableSince ?? now : null,
      });
      return this.#store(origin, robots, source, keep);
    }

    /**
     * Fetches the site's robots.txt with fetchRobots (redirects, timeouts, size limit and the
     * dialect's failure policy) and stores it. Its lifetime is measured on this object's clock.
     */
    async fetch(url, options) {
      const where = 'RobotRules.fetch(url, options)';
      const u = siteOf(url, where);
      options = core.options(options, where, FETCH_OPTIONS);
      // The site's current copy, even expired, is `previous`: after a failure the core decides
      // whether it still applies (use-cached), from how long the site has been unreachable.
      const previous = this.#sites.get(u.origin)?.robots ?? null;
      const robots = await fetchRobots(u.origin, {
        userAgent: this.#agent,
        retryAfterMs: this.#retryAfterMs,
        ...(this.#maxBytes === undefined ? {} : { maxBytes: this.#maxBytes }),
        ...options,
        dialect: this.#dialect,
        now: this.#now,
        previous,
      });
      const s = robots.source;
      const now = this.#now();
      const source = Object.freeze({ ...s, fetchedAt: now, freshUntil: Math.max(now + (s.freshUntil - s.fetchedAt), now + this.#minTtlMs) });
      return this.#store(u.origin, robots, source, core.copyOf(robots));
    }

    #lookup(url, where, count) {
      const u = siteOf(url, where);
      const origin = u.origin;
      const entry = this.#sites.get(origin);
      if (entry === undefined) {
        if (count) this.#misses++;
        return { u, origin, entry: undefined, state: 'unknown' };
      }
      if (entry.source.freshUntil <= this.#now()) {
        if (count) this.#expired++;
        return { u, origin, entry, state: 'expired' };
      }
      if (count) {
        this.#hits++;
        this.#sites.delete(origin); // most recently used last
        this.#sites.set(origin, entry);
      }
      return { u, origin, entry, state: 'fresh' };
    }

    /**
     * May this crawler fetch `url`? `true` or `false` from a fresh copy of its site's rules;
     * `undefined` when there is none (never parsed, evicted, or expired): fetch robots.txt
     * first. `explain(url)` says which.
     */
    allowed(url) {
      const { u, entry, state } = this.#lookup(url, 'RobotRules.allowed(url)', true);
      return state === 'fresh' ? entry.robots.isAllowed(u.href, this.#agent) : undefined;
    }

    /** The verdict and why, or why there is none. */
    explain(url) {
      const { u, origin, entry, state } = this.#lookup(url, 'RobotRules.explain(url)', true);
      if (state === 'unknown') {
        return { known: false, site: origin, code: 'unknown-site', reason: `no robots.txt parsed for ${origin}` };
      }
      const { source } = entry;
      if (state === 'expired') {
        return {
          known: false, site: origin, code: 'expired', reason: `the robots.txt of ${origin} expired at ${new Date(source.freshUntil).toISOString()}`,
          expiredAt: source.freshUntil, source,
        };
      }
      const verdict = entry.robots.explain(u.href, this.#agent);
      return { known: true, site: origin, allowed: verdict.allowed, verdict, source };
    }

    /**
     * Whether the site's robots.txt must be fetched (again) before `allowed(url)` can answer:
     * `true` when its copy has expired or none is held, `false` while a fresh copy is held.
     */
    expired(url) {
      return this.#lookup(url, 'RobotRules.expired(url)', false).state !== 'fresh';
    }

    /** The Crawl-delay in seconds for this crawler from a fresh copy, or undefined. */
    crawlDelay(url) {
      const { entry, state } = this.#lookup(url, 'RobotRules.crawlDelay(url)', false);
      return state === 'fresh' ? entry.robots.crawlDelay(this.#agent) : undefined;
    }

    /** Forgets one site (frees its rules). Returns whether it was held. */
    forget(url) {
      const origin = siteOf(url, 'RobotRules.forget(url)').origin;
      const entry = this.#sites.get(origin);
      if (entry === undefined) return false;
      this.#sites.delete(origin);
      entry.robots.free();
      return true;
    }

    /** Forgets every site and frees its rules. The object stays usable. */
    clear() {
      for (const entry of this.#sites.values()) entry.robots.free();
      this.#sites.clear();
    }

    get [Symbol.toStringTag]() {
      return 'RobotRules';
    }
  }

  const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('nodejs.dispose');
  Object.defineProperty(RobotRules.prototype, dispose, {
    value: function dispose() { this.clear(); },
    writable: true,
    configurable: true,
  });

  return RobotRules;
}
