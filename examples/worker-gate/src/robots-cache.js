// robots.txt for the gate: fetched with the package's fetchRobots (the dialect's rules for
// redirects, errors, timeouts and size), parsed once, and cached at two levels.
import { fetchRobots } from 'robots-eval';
import { cachedFetch, setBounded } from './shared-cache.js';
import { numberVar } from './vars.js';

// Two cache levels for robots.txt:
// 1. the parsed Robots per origin in isolate memory, until its freshUntil (no I/O at all);
// 2. the robots.txt response in the Cache API (caches.default, shared-cache.js), shared by the
//    isolates of a data centre, so a new isolate does not refetch it from the origin.
const cache = new Map(); // origin -> { robots, until } | { pending: Promise }, least recently used first
// Origins held at most: one with ORIGIN set; behind a route, each host name the route serves. A
// parsed robots.txt of ROBOTS_MAX_BYTES (500 KiB) takes about as much WebAssembly memory again,
// so 32 of them stay well inside an isolate's 128 MB.
export const MAX_ORIGINS = 32;

/** How many origins' robots.txt this isolate holds (the state test reads it). */
export function robotsState() {
  return { origins: cache.size };
}

/**
 * Frees a copy the cache no longer holds once the requests that hold it have used it (they use it
 * synchronously right after their await, so the next task is late enough). The timer is kept
 * alive with waitUntil: workerd drops a request's timers once its response is sent, and runs no
 * FinalizationRegistry, so a copy freed by a bare timer would never be freed at all.
 */
function release(robots, ctx) {
  const freed = new Promise((done) => {
    setTimeout(() => {
      robots.free();
      done();
    }, 0);
  });
  ctx?.waitUntil?.(freed);
}

/** Holds `entry` for `origin` (most recently used), releasing the copy it evicts. */
function hold(origin, entry, ctx) {
  setBounded(cache, origin, entry, { max: MAX_ORIGINS, evicted: (old) => old.robots && release(old.robots, ctx) });
}
// A copy's lifetime is at least MIN_TTL_MS (a `no-store` robots.txt is not refetched for every
// request). A failure (5xx, timeout, no response, Google's 429) is kept until its Retry-After,
// else for ROBOTS_FAILURE_TTL_MS (default 10 s; fetchRobots' retryAfterMs), so one 503 does not
// block crawlers for the cache headers' lifetime.
const MIN_TTL_MS = 1000;

/** The parsed robots.txt of `origin` (a Promise), from isolate memory when fresh. */
export function getRobots(origin, env, ctx, fetchFn) {
  const hit = cache.get(origin);
  const now = Date.now();
  if (hit?.pending) return hit.pending;
  if (hit && hit.until > now) {
    hold(origin, hit, ctx); // most recently used
    return Promise.resolve(hit.robots);
  }
  const maxBytes = numberVar(env.ROBOTS_MAX_BYTES, 512000);
  const pending = fetchRobots(origin, {
    dialect: env.DIALECT || 'rfc9309',
    userAgent: env.ROBOTS_USER_AGENT || 'robots-eval-worker-gate',
    timeoutMs: numberVar(env.ROBOTS_TIMEOUT_MS, 0) || 5000,
    maxBytes,
    retryAfterMs: numberVar(env.ROBOTS_FAILURE_TTL_MS, 10_000),
    fetch: cachedFetch(ctx, maxBytes, fetchFn),
  }).then(
    (robots) => {
      const s = robots.source;
      hold(origin, { robots, until: Math.max(s.freshUntil, s.fetchedAt + MIN_TTL_MS) }, ctx);
      // The copy this one replaces.
      if (hit?.robots) release(hit.robots, ctx);
      return robots;
    },
    (e) => {
      if (hit?.robots) hold(origin, hit, ctx);
      else cache.delete(origin);
      throw e;
    },
  );
  hold(origin, { pending }, ctx);
  return pending;
}
