// robots.txt for the gate: fetched with the package's fetchRobots (the dialect's rules for
// redirects, errors, timeouts and size), parsed once, and cached at two levels.
import { fetchRobots } from 'robots-eval';
import { cachedFetch } from './shared-cache.js';
import { numberVar } from './vars.js';

// Two cache levels for robots.txt:
// 1. the parsed Robots per origin in isolate memory, until its freshUntil (no I/O at all);
// 2. the robots.txt response in the Cache API (caches.default, shared-cache.js), shared by the
//    isolates of a data centre, so a new isolate does not refetch it from the origin.
const cache = new Map(); // origin -> { robots, until } | { pending: Promise }
// A copy's lifetime is at least MIN_TTL_MS (a `no-store` robots.txt is not refetched for every
// request). A failure (5xx, timeout, no response, Google's 429) is kept until its Retry-After,
// else for ROBOTS_FAILURE_TTL_MS (default 10 s; fetchRobots' retryAfterMs), so one 503 does not
// block crawlers for the cache headers' lifetime.
const MIN_TTL_MS = 1000;

/** The parsed robots.txt of `origin` (a Promise), from isolate memory when fresh. */
export function getRobots(origin, env, ctx) {
  const hit = cache.get(origin);
  const now = Date.now();
  if (hit?.pending) return hit.pending;
  if (hit && hit.until > now) return Promise.resolve(hit.robots);
  const maxBytes = numberVar(env.ROBOTS_MAX_BYTES, 512000);
  const pending = fetchRobots(origin, {
    dialect: env.DIALECT || 'rfc9309',
    userAgent: env.ROBOTS_USER_AGENT || 'robots-eval-worker-gate',
    timeoutMs: numberVar(env.ROBOTS_TIMEOUT_MS, 0) || 5000,
    maxBytes,
    retryAfterMs: numberVar(env.ROBOTS_FAILURE_TTL_MS, 10_000),
    fetch: cachedFetch(ctx, maxBytes),
  }).then(
    (robots) => {
      const s = robots.source;
      cache.set(origin, { robots, until: Math.max(s.freshUntil, s.fetchedAt + MIN_TTL_MS) });
      // Free the copy this one replaces once the requests that already hold it have answered
      // (they use it synchronously right after their await, so the next task is late enough).
      if (hit?.robots) setTimeout(() => hit.robots.free(), 0);
      return robots;
    },
    (e) => {
      if (hit?.robots) cache.set(origin, hit);
      else cache.delete(origin);
      throw e;
    },
  );
  cache.set(origin, { pending });
  return pending;
}
