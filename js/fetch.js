// fetchRobots (and, through its internals, RobotRules: js/rules.js): fetch a site's robots.txt,
// follow redirects, read at most the size cap, and apply the dialect's policy to each outcome.
// The policy is the core's (robots_eval::fetch), in the policy module (wasm-policy/src/lib.rs),
// compiled on the first fetchRobots or RobotRules decision: a program that only parses files it
// got otherwise never compiles it, and a bundle that never calls fetchRobots leaves it out (with
// this file: every declaration here is free of side effects).
//
// Its boundary is the verdict module's: numbers-only calls, strings through the input buffer of
// the instance's Engine (js/engine.js).

import { loadPolicyModule } from './load.js';
// An absent optional string argument (wasm-boundary/src/lib.rs, `optional`).
import { NONE } from './protocol.js';
import { CORE } from './robots.js';
import { defineEngine, f64s } from './engine.js';
import { PREFIX, describe, typeError, optionsArg, numberOption, isMaxBytes, isNonNegative, DEFAULT_MAX_BYTES } from './common.js';
import NAMES from './names.js';

/** How long fetchRobots keeps a failure's answer (5xx, network error, timeout, Google's 429, a deferral) when the server sent no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 300_000;
const FETCH_OPTIONS = ['fetch', 'userAgent', 'dialect', 'timeoutMs', 'signal', 'maxBytes', 'retryAfterMs', 'previous', 'now', 'siteDown'];

/** The first `size` bytes of the chunks read, as one array. */
function joined(chunks, size) {
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

/**
 * Reads a response body until it ends, `limit` bytes are read, or `stop(chunk)` says enough, then
 * cancels the rest (what is not read is never downloaded). Returns { bytes: at most `limit` of
 * them, done: the body ended within what was read }.
 */
export async function readBody(res, limit, stop = null) {
  if (!res.body) {
    const all = new Uint8Array(await res.arrayBuffer());
    return all.length > limit ? { bytes: all.subarray(0, limit), done: false } : { bytes: all, done: true };
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
      if (stop?.(r.value)) break;
    }
  } finally {
    if (!done) reader.cancel().catch(() => {});
  }
  return { bytes: joined(chunks, Math.min(total, limit)), done };
}

/** Reads at most maxBytes + 1 bytes of a response body (so the parser still sees it was longer), then cancels the rest. */
export async function readCapped(res, maxBytes) {
  return (await readBody(res, maxBytes === Infinity ? Infinity : maxBytes + 1)).bytes;
}

/**
 * fetchRobots over the API `api` (defineApi's result: its Robots, and what this file needs of
 * it); `loadModule`: compiles the policy module. Returns { Robots, fetchRobots }, what
 * defineRobotRules needs.
 */
export function defineFetch(api, loadModule = loadPolicyModule) {
  const { Robots } = api;
  const { dialectIndex, urlArg, parseOwned, withSource, copyOf } = api[CORE];
  // The policy module's engine (js/engine.js), made on the first fetch decision.
  const P = defineEngine(loadModule);
  const withPolicy = (f) => P.run(f, '');

  /**
   * Until when a copy fetched at `now` stays fresh (fetch::freshness through fetch_fresh_until),
   * from the response's cache headers (`headers`: a Headers, or null for none).
   */
  function freshUntilOf(d, now, headers) {
    return withPolicy(({ w, put }) => {
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
    });
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
    return withPolicy((e) => {
      const { w, put, text } = e;
      const retryAfterLen = retryAfter === undefined ? NONE : put(retryAfter, 0);
      // policy, reason and message as text; the times as f64s, NaN for none (wasm-policy/src/lib.rs, fetch_decide).
      const [policy, reason, message] = text(
        w.fetch_decide(d, kind, status, now, redirects, hasCopy ? 1 : 0, since ?? NaN, siteDown ? 1 : 0, retryAfterLen),
      ).split('\n');
      const [retryAt, nextChangeAt, maxFailureMs] = f64s(e, 3);
      const failUntil = Math.max(now, Math.min(Number.isNaN(retryAt) ? now + retryAfterMs : retryAt, now + maxFailureMs, Number.isNaN(nextChangeAt) ? Infinity : nextChangeAt));
      const failed = kind !== 0 || status < 200 || status >= 500 || (status === 304 && !hasCopy) ||
        ((status === 408 || status === 429) && policy !== 'allow-all');
      return { policy, reason, message, failUntil, failed };
    });
  }

  /** The complete disallow a crawler obeys when it may fetch nothing (the core's fetch::DISALLOW_ALL). */
  const disallowAll = () => withPolicy(({ w, text }) => text(w.fetch_disallow_all()));

  // For RobotRules (js/rules.js), which gets only { Robots, fetchRobots }: the same decisions and
  // lifetimes from the core, and the kept copy. Not part of the public API.
  const internals = {
    decide(dialect, status, now, hasCopy, since, retryAfterMs, siteDown) {
      return decideFetch(dialectIndex(dialect), status === 0 ? 1 : 0, status, now, 0, hasCopy, since, undefined, retryAfterMs, siteDown);
    },
    /** The dialect's default lifetime of a copy fetched at `now` without cache headers. */
    defaultFreshUntil(dialect, now) {
      return freshUntilOf(dialectIndex(dialect), now, null);
    },
    disallowAll,
    attach: withSource,
    options: optionsArg,
    numberOption,
    isMaxBytes,
    isNonNegative,
    copyOf,
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
    const d = dialectIndex(dialect);
    const limit = withPolicy(({ w }) => w.fetch_redirect_limit(d));
    const robotsUrl = new URL('/robots.txt', base).href;
    if (previous !== null && previous.source.url !== robotsUrl) {
      throw new RangeError(`${PREFIX}${where}: options.previous is the robots.txt of ${previous.source.url}, not of ${robotsUrl}`);
    }
    // Read now: the caller may free `previous` while the fetch runs (its copy survives free()).
    const copy = previous === null ? null : copyOf(previous);
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
      text = disallowAll();
      treatedAs = 'disallow-all';
    }
    if (policy === 'use-cached') keep = copy;
    // The body is this package's own copy: kept without another.
    const parsed = parseOwned(text, { dialect: NAMES.dialects[d], maxBytes });
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
  }

  Object.defineProperty(fetchRobots, Symbol.for('robots-eval.internals'), { value: internals });

  return { Robots, fetchRobots };
}
