// RobotRules: the WWW::RobotRules API (seed 002: `new`, `parse($url, $content, $fresh_until)`,
// `allowed($url)`) for crawlers, in plain JavaScript on top of Robots and fetchRobots. One object
// holds the rules of many sites for one crawler, keyed by origin, each until its freshness ends,
// in a bounded LRU that frees the evicted Robots objects.
//
// `defineRobotRules({ Robots, fetchRobots })` builds the class for one instance of the API, as
// defineApi does for Robots, so every entry (index.js, workerd.js) gets a class bound to its own
// WebAssembly instance.

const PREFIX = 'robots-eval: ';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

// The lifetime of a copy when the caller gives no freshUntil: the dialect's default from
// docs/fetch-policy.md section 2.2 (no Cache-Control, no Expires).
const DEFAULT_TTL = { rfc9309: DAY, google: DAY, draft1996: 7 * DAY, original1994: DAY, revisited: DAY };

const OLD = new Set(['draft1996', 'original1994', 'revisited']);

// The longest a failure's answer (disallow-all because unreachable, defer) is kept: the same
// bound fetchRobots applies (the dialect's cap on a copy's lifetime, or its default lifetime when
// it has none; for Google also the 12 hours after which a failure is handled differently).
const FAILURE_CAP = { rfc9309: DAY, google: 12 * HOUR, draft1996: 7 * DAY, original1994: 7 * DAY, revisited: 7 * DAY };
// When to ask again after a failure, without a freshUntil or Retry-After: as fetchRobots.
const DEFAULT_RETRY_AFTER_MS = 300_000;

/**
 * The dialect's policy for a final HTTP status, without a cached copy and for a first failure:
 * the same table fetchRobots applies (docs/fetch-policy.md section 1; the test
 * tests/js/rules.test.mjs checks this mapping against fetchRobots for every dialect). Status 0
 * means a network error or timeout.
 */
function decide(dialect, status) {
  const old = OLD.has(dialect);
  const temporary = ['defer', 'temporary-failure', 'Temporary failure: defer visits to the site until robots.txt can be retrieved.'];
  const unreachable = dialect === 'google'
    ? ['disallow-all', 'server-error', 'Server error, 429 or network failure: crawling stops for the first 12 hours while robots.txt is retried.']
    : ['disallow-all', 'unreachable', 'robots.txt is unreachable (server or network error): assume complete disallow until it can be fetched.'];
  const failure = old ? temporary : unreachable;
  if (status >= 200 && status < 300) return ['parse', 'success', 'robots.txt was fetched: obey its rules.'];
  if (status >= 400 && status < 500) {
    if (!old) {
      if (status === 429 && dialect === 'google') return unreachable;
      return ['allow-all', 'unavailable', 'A 4xx status means robots.txt is unavailable: the crawler may access any resource.'];
    }
    if (status === 401 || status === 403) return ['disallow-all', 'forbidden', '401 or 403: access to the whole site is restricted.'];
    if (status === 404 || status === 410) return ['allow-all', 'not-found', 'No robots.txt: access is not restricted.'];
    if (status === 408 || status === 429) return temporary;
    return ['allow-all', 'client-error', 'Another 4xx status: treated as an absent file, so access is not restricted.'];
  }
  // 5xx, a network error (0), and an invalid final status (1xx, 304 without a cached copy).
  return failure;
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 60 ? 'a string' : JSON.stringify(value);
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'null prototype'})`;
  return typeof value === 'undefined' ? 'undefined' : `${typeof value} ${String(value)}`;
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

export function defineRobotRules({ Robots, fetchRobots }) {
  const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

  class RobotRules {
    #agent;
    #dialect;
    #maxSites;
    #now;
    #maxBytes;
    #minTtlMs;
    #retryAfterMs;
    #sites = new Map(); // origin -> { robots, source }, least recently used first
    #hits = 0;
    #misses = 0;
    #expired = 0;
    #evictions = 0;

    constructor(agent, options) {
      const where = 'new RobotRules(agent, options)';
      if (typeof agent !== 'string' || agent.trim() === '') {
        throw new TypeError(`${PREFIX}${where}: agent must be a non-empty string (the crawler's product token or User-Agent), got ${describe(agent)}`);
      }
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError(`${PREFIX}${where}: options must be an object, got ${describe(options)}`);
      }
      const { dialect = 'rfc9309', maxSites = 1000, now = Date.now, maxBytes, minTtlMs = 0, retryAfterMs = DEFAULT_RETRY_AFTER_MS } = options ?? {};
      if (typeof dialect !== 'string') throw new TypeError(`${PREFIX}${where}: options.dialect must be a string, got ${describe(dialect)}`);
      const canonical = Robots.dialects.find((d) => d.toLowerCase() === dialect.toLowerCase());
      if (canonical === undefined) {
        throw new RangeError(`${PREFIX}${where}: unknown dialect ${JSON.stringify(dialect)}; the dialects are ${Robots.dialects.map((d) => `'${d}'`).join(', ')}`);
      }
      if (typeof maxSites !== 'number' || !Number.isInteger(maxSites) || maxSites < 1) {
        throw new RangeError(`${PREFIX}${where}: options.maxSites must be a positive integer, got ${describe(maxSites)}`);
      }
      if (typeof now !== 'function') throw new TypeError(`${PREFIX}${where}: options.now must be a function returning ms since the epoch, got ${describe(now)}`);
      if (typeof minTtlMs !== 'number' || !(minTtlMs >= 0)) {
        throw new RangeError(`${PREFIX}${where}: options.minTtlMs must be a non-negative number, got ${describe(minTtlMs)}`);
      }
      if (typeof retryAfterMs !== 'number' || !(retryAfterMs >= 0)) {
        throw new RangeError(`${PREFIX}${where}: options.retryAfterMs must be a non-negative number, got ${describe(retryAfterMs)}`);
      }
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

    #store(origin, robots, source) {
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
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError(`${PREFIX}${where}: options must be an object, got ${describe(options)}`);
      }
      let { freshUntil, status = 200 } = options ?? {};
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 599 || (status >= 300 && status < 400 && status !== 304)) {
        throw new RangeError(`${PREFIX}${where}: options.status must be the final HTTP status (0 for a network error or timeout; follow redirects first, as rules.fetch() does), got ${describe(status)}`);
      }
      const now = this.#now();
      if (freshUntil !== undefined) freshUntil = Math.max(timeArg(freshUntil, where, 'options.freshUntil'), now + this.#minTtlMs);
      const origin = u.origin;
      if (status === 304) {
        const cached = this.#sites.get(origin);
        if (cached !== undefined) {
          freshUntil ??= now + Math.max(DEFAULT_TTL[this.#dialect], this.#minTtlMs);
          const source = Object.freeze({ ...cached.source, status, fetchedAt: now, freshUntil, policy: 'use-cached', reason: 'not-modified', message: '304 Not Modified: the cached copy is used again.' });
          return this.#store(origin, cached.robots, source);
        }
        status = 0; // 304 without a cached copy: an invalid response, as a network error
      }
      const [policy, reason, message] = decide(this.#dialect, status);
      let body;
      let treatedAs = policy;
      if (policy === 'parse') {
        body = text ?? '';
      } else if (policy === 'allow-all') {
        body = '';
      } else {
        treatedAs = 'disallow-all';
        body = DISALLOW_ALL;
      }
      // Without a freshUntil: a file or "no file" (allow-all) keeps the dialect's default lifetime;
      // a failure is asked again after retryAfterMs (capped as in fetchRobots).
      freshUntil ??= now + Math.max(policy === 'parse' || policy === 'allow-all'
        ? DEFAULT_TTL[this.#dialect]
        : Math.min(this.#retryAfterMs, FAILURE_CAP[this.#dialect]), this.#minTtlMs);
      const robots = Robots.parse(body, this.#maxBytes === undefined ? { dialect: this.#dialect } : { dialect: this.#dialect, maxBytes: this.#maxBytes });
      const source = Object.freeze({
        url: new URL('/robots.txt', u).href,
        status,
        fetchedAt: now,
        freshUntil,
        policy,
        treatedAs,
        reason,
        message: treatedAs === policy ? message : `${message} Treated as disallow-all until robots.txt is fetched again.`,
      });
      return this.#store(origin, robots, source);
    }

    /**
     * Fetches the site's robots.txt with fetchRobots (redirects, timeouts, size limit and the
     * dialect's failure policy) and stores it. Its lifetime is measured on this object's clock.
     */
    async fetch(url, options) {
      const where = 'RobotRules.fetch(url, options)';
      const u = siteOf(url, where);
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError(`${PREFIX}${where}: options must be an object, got ${describe(options)}`);
      }
      const robots = await fetchRobots(u.origin, {
        userAgent: this.#agent,
        retryAfterMs: this.#retryAfterMs,
        ...(this.#maxBytes === undefined ? {} : { maxBytes: this.#maxBytes }),
        ...options,
        dialect: this.#dialect,
      });
      const s = robots.source;
      const now = this.#now();
      const source = Object.freeze({ ...s, fetchedAt: now, freshUntil: Math.max(now + (s.freshUntil - s.fetchedAt), now + this.#minTtlMs) });
      return this.#store(u.origin, robots, source);
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
