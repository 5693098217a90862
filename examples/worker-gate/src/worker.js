// robots.txt gate: a Cloudflare Worker in front of an origin. Crawlers that robots.txt names (or
// that match CRAWLERS) are checked against the origin's robots.txt before their request reaches
// the origin; everything else streams through untouched. See README.md.
import { fetchRobots } from 'robots-eval';

// Parsed robots.txt per origin, kept in isolate memory until its freshUntil.
const cache = new Map(); // origin -> { robots, until } | { pending: Promise }
// When robots.txt could not be fetched, the answer has no lifetime of its own: do not refetch
// it for every crawler request.
const MIN_TTL_MS = 10_000;

/** A browser: a Mozilla/ User-Agent without a crawler's marks. Browsers are never blocked. */
function isBrowser(ua) {
  return /^Mozilla\/\d/.test(ua) && !/bot|crawl|spider|slurp|archiver|fetcher|\(compatible;/i.test(ua);
}

function getRobots(origin, env) {
  const hit = cache.get(origin);
  const now = Date.now();
  if (hit?.pending) return hit.pending;
  if (hit && hit.until > now) return Promise.resolve(hit.robots);
  const pending = fetchRobots(origin, {
    dialect: env.DIALECT || 'rfc9309',
    userAgent: env.ROBOTS_USER_AGENT || 'robots-eval-worker-gate',
    timeoutMs: Number(env.ROBOTS_TIMEOUT_MS) || 5000,
  }).then(
    (robots) => {
      const s = robots.source;
      cache.set(origin, { robots, until: Math.max(s.freshUntil, s.fetchedAt + MIN_TTL_MS) });
      return robots;
    },
    (e) => {
      cache.delete(origin);
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

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    // ORIGIN (tests, or an origin on another host): forward there instead of to request.url.
    const target = env.ORIGIN ? new URL(url.pathname + url.search, env.ORIGIN) : url;
    const pass = () => (env.ORIGIN ? fetch(new Request(target, request)) : fetch(request));

    if (url.pathname === '/robots.txt') return pass();
    const ua = request.headers.get('user-agent') ?? '';
    if (ua === '' || isBrowser(ua)) return pass();

    let robots;
    try {
      robots = await getRobots(target.origin, env);
    } catch (e) {
      // fetchRobots rejects only on bad configuration; never block traffic because of the gate.
      console.error(`worker-gate: ${e?.message ?? e}`);
      return pass();
    }
    const verdict = robots.explain(target.href, ua);
    const lowered = ua.toLowerCase();
    const named = verdict.group !== null && verdict.group.agents.some((a) => a.trim() !== '*');
    const listed = crawlerList(env).some((c) => lowered.includes(c));
    if ((!named && !listed) || verdict.allowed) return pass();

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
      return pass();
    }
    return new Response(`403 Forbidden\n${why}\nSee ${target.origin}/robots.txt\n`, {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-robots-eval': header, 'cache-control': 'no-store' },
    });
  },
};
