// robots.txt for the gate: fetched with the package's fetchRobots (the dialect's rules for
// redirects, errors, timeouts and size), parsed once, and cached at two levels.
import { fetchRobots } from 'robots-eval';

// Two cache levels for robots.txt:
// 1. the parsed Robots per origin in isolate memory, until its freshUntil (no I/O at all);
// 2. the robots.txt response in the Cache API (caches.default), shared by the isolates of a
//    data centre, so a new isolate does not refetch it from the origin. Only a 200 whose size is
//    known and within the limit is stored there; its remaining lifetime comes back as `Age`.
const cache = new Map(); // origin -> { robots, until } | { pending: Promise }
// A copy's lifetime is at least MIN_TTL_MS (a `no-store` robots.txt is not refetched for every
// request). A failure (5xx, timeout, no response, Google's 429) is kept until its Retry-After,
// else for ROBOTS_FAILURE_TTL_MS (default 10 s; fetchRobots' retryAfterMs), so one 503 does not
// block crawlers for the cache headers' lifetime.
const MIN_TTL_MS = 1000;
const STORED_AT = 'x-robots-eval-stored-at';

function numberVar(value, fallback) {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** A fetch for fetchRobots that goes through caches.default first (when the platform has one). */
function cachedFetch(ctx, maxBytes) {
  const shared = globalThis.caches?.default;
  return async (url, init) => {
    if (shared) {
      try {
        const hit = await shared.match(url);
        if (hit) {
          const headers = new Headers(hit.headers);
          const storedAt = Number(headers.get(STORED_AT));
          headers.delete(STORED_AT);
          if (storedAt > 0) {
            const age = Number(headers.get('age')) || 0;
            headers.set('age', String(age + Math.max(0, Math.floor((Date.now() - storedAt) / 1000))));
          }
          headers.set('x-robots-eval-cache', 'hit');
          return new Response(hit.body, { status: hit.status, headers });
        }
      } catch {
        // No Cache API here (e.g. workerd without a cache service): the origin it is.
      }
    }
    const res = await fetch(url, init);
    if (shared && res.status === 200 && !(Number(res.headers.get('content-length')) > maxBytes)) {
      const put = store(shared, url, res.clone(), maxBytes).catch(() => {});
      if (ctx?.waitUntil) ctx.waitUntil(put);
    }
    return res;
  };
}

/** Puts a robots.txt response into the Cache API, unless its body turns out longer than maxBytes. */
async function store(shared, url, res, maxBytes) {
  const reader = res.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      reader.cancel().catch(() => {});
      return;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  const headers = new Headers(res.headers);
  headers.set(STORED_AT, String(Date.now()));
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  await shared.put(url, new Response(body, { status: 200, headers }));
}

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
