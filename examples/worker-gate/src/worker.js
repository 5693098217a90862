// robots.txt gate: a Cloudflare Worker in front of an origin. Every crawler (crawlers.js) is
// checked against the origin's robots.txt before its request reaches the origin: the group that
// names it, else the `*` group. People's browsers stream through untouched. Every crawler decision
// can be explained: the 403's X-Robots-Eval header, a Workers Analytics Engine data point, and in
// report-only mode a log line. See README.md.
import { getRobots } from './robots-cache.js';
import { classify, substrings } from './crawlers.js';
import { aiCrawlerTable, findAiCrawler } from './ai-crawlers.js';

/** AI_CRAWLERS parsed, or (when it is malformed: never break traffic over configuration) the built-in table. */
function aiTableOf(env) {
  try {
    return aiCrawlerTable(env.AI_CRAWLERS);
  } catch (e) {
    console.error(`worker-gate: ${e.message}; using the built-in AI crawler table`);
    return aiCrawlerTable();
  }
}

/** The parsed vars, kept while the platform passes the same `env` object. */
let settings = null;
function settingsOf(env) {
  if (settings?.env !== env) {
    const aiTable = aiTableOf(env);
    settings = {
      env,
      lists: { crawlers: substrings(env.CRAWLERS), notCrawlers: substrings(env.NOT_CRAWLERS), aiTokens: [...aiTable.keys()] },
      reportOnly: env.MODE === 'report-only',
      aiTable,
    };
  }
  return settings;
}

/** Header-safe (ASCII printable, quotes escaped) version of a rule, reason or name. */
function clean(s) {
  return String(s).replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
}

/** `s` cut to `n` characters (a robots.txt line can be 500 KiB long; a header or a blob should not). */
function cut(s, n = 256) {
  return s.length > n ? `${s.slice(0, n - 3)}...` : s;
}

/** The first segment of a path (`/private/` for `/private/a/b`), for grouping in reports. */
function pathPrefix(pathname) {
  const slash = pathname.indexOf('/', 1);
  return (slash < 0 ? pathname : pathname.slice(0, slash + 1)).slice(0, 64);
}

// The Analytics Engine data point of a decision: `index1` is the crawler; blobs and doubles in
// this order (README.md: "Observability" has the column names and a query).
const BLOBS = ['verdict', 'mode', 'crawler', 'by', 'cfCategory', 'pathPrefix', 'rule', 'group', 'userAgent', 'aiPurposes'];
const DOUBLES = ['line', 'robotsStatus', 'cfScore'];

/** Sends the decision to Analytics Engine (binding ANALYTICS, when configured) and, in report-only mode, to the log. */
function record(env, fields, reportOnly) {
  if (env.ANALYTICS) {
    try {
      env.ANALYTICS.writeDataPoint({
        indexes: [fields.crawler.slice(0, 96)],
        blobs: BLOBS.map((k) => fields[k]),
        doubles: DOUBLES.map((k) => fields[k]),
      });
    } catch (e) {
      console.error(`worker-gate: Analytics Engine write failed: ${e?.message ?? e}`);
    }
  }
  if (reportOnly) console.log(`worker-gate report-only: ${JSON.stringify(fields)}`);
}

/**
 * The gate's decision for one request, or null when the request is not a crawler's (or asks for
 * /robots.txt) and passes untouched. A decision is `{ fields, response }`: `fields` as recorded
 * (README.md), `response` the 403 to answer with, or null to pass the request on. Exported for
 * bench.mjs, which times it on its own.
 */
export async function decide(request, target, env, ctx) {
  if (target.pathname === '/robots.txt') return null;
  const ua = request.headers.get('user-agent') ?? '';
  const { lists, reportOnly, aiTable } = settingsOf(env);
  const who = classify(ua, request.cf, lists);
  if (!who.crawler) return null;

  let robots;
  try {
    robots = await getRobots(target.origin, env, ctx);
  } catch (e) {
    // fetchRobots rejects only on bad configuration; never block traffic because of the gate.
    console.error(`worker-gate: ${e?.message ?? e}`);
    return null;
  }
  const verdict = robots.explain(target.href, ua);
  const s = robots.source;
  const failed = s.treatedAs === 'disallow-all';
  const rule = verdict.rule ? cut(`${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.pattern}`) : '';
  const ai = findAiCrawler(aiTable, ua);
  const fields = {
    verdict: verdict.allowed ? 'allowed' : 'disallowed',
    mode: reportOnly ? 'report-only' : 'enforce',
    crawler: who.name,
    by: who.by,
    cfCategory: who.cf?.category ?? '',
    pathPrefix: pathPrefix(target.pathname),
    rule: failed ? `robots.txt ${s.status || 'unreachable'}: ${s.reason}` : rule,
    group: cut(verdict.group?.agents.join(',') ?? ''),
    userAgent: cut(ua),
    aiPurposes: ai?.purposes.join(',') ?? '',
    line: verdict.line,
    robotsStatus: s.status,
    cfScore: who.cf?.score ?? -1,
  };
  record(env, fields, reportOnly);
  if (verdict.allowed || reportOnly) return { fields, response: null };

  let header;
  let why;
  if (failed) {
    header = `disallowed; robots-txt=${s.status || 'unreachable'}; policy=${s.policy}; reason=${clean(s.reason)}`;
    why = `robots.txt could not be used (${s.status ? `HTTP ${s.status}` : 'no response'}): ${s.message}`;
  } else {
    header = `disallowed; line=${verdict.line}; rule="${clean(rule)}"`;
    why = `robots.txt line ${verdict.line} (${rule}) disallows this URL for this crawler.`;
  }
  // Who the gate took for a crawler, and why (isbot, CRAWLERS, or Cloudflare's verified-bot signal).
  header += `; crawler="${clean(who.name)}"; by=${who.by}`;
  if (who.cf?.category) header += `; cf-verified-bot="${clean(who.cf.category)}"`;
  if (who.cf?.score != null) header += `; cf-bot-score=${who.cf.score}`;
  const response = new Response(`403 Forbidden\n${why}\nSee ${target.origin}/robots.txt\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-robots-eval': header, 'cache-control': 'no-store' },
  });
  return { fields, response };
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    // ORIGIN (tests, or an origin on another host): forward there instead of to request.url.
    const target = env.ORIGIN ? new URL(url.pathname + url.search, env.ORIGIN) : url;
    const decision = await decide(request, target, env, ctx);
    if (decision?.response) return decision.response;
    return env.ORIGIN ? fetch(new Request(target, request)) : fetch(request);
  },
};
