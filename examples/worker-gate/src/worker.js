// robots.txt gate: a Cloudflare Worker in front of an origin. Crawlers that robots.txt names (or
// that match CRAWLERS) are checked against the origin's robots.txt before their request reaches
// the origin; everything else streams through untouched. See README.md.
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

/** A browser: a Mozilla/ User-Agent without a crawler's marks. Browsers are never blocked. */
function isBrowser(ua) {
  return /^Mozilla\/\d/.test(ua) && !/bot|crawl|spider|slurp|archiver|fetcher|\(compatible;/i.test(ua);
}

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

function getRobots(origin, env, ctx) {
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

function crawlerList(env) {
  return (env.CRAWLERS || '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

/** Header-safe (ASCII printable, no quotes) version of a rule or reason. */
function clean(s) {
  return s.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
}

/**
 * The gate's decision for one request: null to pass it on, or the 403 to answer with. Exported
 * for bench.mjs, which times it on its own.
 */
export async function decide(request, target, env, ctx) {
  const ua = request.headers.get('user-agent') ?? '';
  if (target.pathname === '/robots.txt' || ua === '' || isBrowser(ua)) return null;

  let robots;
  try {
    robots = await getRobots(target.origin, env, ctx);
  } catch (e) {
    // fetchRobots rejects only on bad configuration; never block traffic because of the gate.
    console.error(`worker-gate: ${e?.message ?? e}`);
    return null;
  }
  const verdict = robots.explain(target.href, ua);
  const lowered = ua.toLowerCase();
  const named = verdict.group !== null && verdict.group.agents.some((a) => a.trim() !== '*');
  const listed = crawlerList(env).some((c) => lowered.includes(c));
  if ((!named && !listed) || verdict.allowed) return null;

  const s = robots.source;
  let header;
  let why;
  if (s.treatedAs === 'disallow-all') {
    header = `disallowed; robots-txt=${s.status || 'unreachable'}; policy=${s.policy}; reason=${clean(s.reason)}`;
    why = `robots.txt could not be used (${s.status ? `HTTP ${s.status}` : 'no response'}): ${s.message}`;
  } else {
    const rule = verdict.rule ? `${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.pattern}` : '';
    header = `disallowed; line=${verdict.line}; rule="${clean(rule)}"`;
    why = `robots.txt line ${verdict.line} (${rule}) disallows this URL for this crawler.`;
  }
  if (env.MODE === 'report-only') {
    console.log(`worker-gate report-only: would block ${JSON.stringify(ua)} ${target.pathname}: ${header}`);
    return null;
  }
  return new Response(`403 Forbidden\n${why}\nSee ${target.origin}/robots.txt\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-robots-eval': header, 'cache-control': 'no-store' },
  });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    // ORIGIN (tests, or an origin on another host): forward there instead of to request.url.
    const target = env.ORIGIN ? new URL(url.pathname + url.search, env.ORIGIN) : url;
    const blocked = await decide(request, target, env, ctx);
    if (blocked !== null) return blocked;
    return env.ORIGIN ? fetch(new Request(target, request)) : fetch(request);
  },
};
