// robots.txt gate: a Cloudflare Worker in front of an origin. Every crawler (crawlers.js) is
// checked against the origin's robots.txt before its request reaches the origin: the group that
// names it, else the `*` group. People's browsers stream through untouched. Every crawler decision
// can be explained: the 403's X-Robots-Eval header, a Workers Analytics Engine data point, and in
// report-only mode a log line. See README.md.
import { getRobots } from './robots-cache.js';
import { classify, substrings } from './crawlers.js';
import { aiCrawlerTable, findAiCrawler } from './ai-crawlers.js';
import { refusal, serialize, withContentUsage } from './ai-preferences.js';
import { parseContentUsage } from 'robots-eval';

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
      aiEnforce: env.AI_PREFERENCES === 'enforce',
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
const BLOBS = ['verdict', 'mode', 'crawler', 'by', 'cfCategory', 'pathPrefix', 'rule', 'group', 'userAgent', 'aiPurposes', 'contentUsage'];
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

/** The robots.txt line that decided `key` of `field` (Content-Usage or Content-Signal) in `prefs`. */
function decidingLine(prefs, field, key) {
  return field === 'Content-Usage' ? prefs.why.contentUsage[key]?.line : prefs.why.contentSignal?.[key] ?? undefined;
}

/** The end of the X-Robots-Eval header: who the gate took for a crawler, and why. */
function whoHeader(who) {
  let header = `; crawler="${clean(who.name)}"; by=${who.by}`;
  if (who.cf?.category) header += `; cf-verified-bot="${clean(who.cf.category)}"`;
  if (who.cf?.score != null) header += `; cf-bot-score=${who.cf.score}`;
  return header;
}

/** The gate's 403: a short text saying why, and the decision header. */
function forbidden(target, header, why) {
  return new Response(`403 Forbidden\n${why}\nSee ${target.origin}/robots.txt\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-robots-eval': header, 'cache-control': 'no-store' },
  });
}

/** What a refusal says: its part of the header, of the 403's text and of the recorded rule. */
function refusalText(r, ai, where) {
  const statement = `${r.key}=${r.value}`;
  const purpose = `${r.purpose}, this crawler's declared purpose${ai.source ? ` (${ai.source})` : ''}`;
  return r.line === undefined
    ? { header: `refused; purpose=${r.purpose}; ${statement}; header="${clean(cut(where))}"`, why: `This page's Content-Usage header (${where}) refuses ${purpose}.`, rule: `Content-Usage header ${statement}` }
    : { header: `refused; purpose=${r.purpose}; ${statement}; line=${r.line}`, why: `robots.txt line ${r.line} (${r.field}: ${statement}) refuses ${purpose}.`, rule: `${r.field} ${statement} (line ${r.line})` };
}

/**
 * The gate's decision for one crawler request, or null when the request is not a crawler's (or
 * asks for /robots.txt) and passes untouched. A decision is `{ fields, response, usage, ai, who }`:
 * `fields` as recorded (README.md), `response` the 403 to answer with or null to pass the request
 * on, `usage` robots.txt's Content-Usage for the URL and crawler (null when it is disallowed),
 * `ai` the crawler's AI table row when AI_PREFERENCES enforces. Exported for bench.mjs, which times
 * it on its own.
 */
export async function decide(request, target, env, ctx) {
  if (target.pathname === '/robots.txt') return null;
  const ua = request.headers.get('user-agent') ?? '';
  const { lists, reportOnly, aiEnforce, aiTable } = settingsOf(env);
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
    contentUsage: '',
    line: verdict.line,
    robotsStatus: s.status,
    cfScore: who.cf?.score ?? -1,
  };
  const decision = { fields, response: null, usage: null, ai: aiEnforce ? ai : null, who, reportOnly };
  if (!verdict.allowed) {
    if (reportOnly) return decision;
    const header = failed
      ? `disallowed; robots-txt=${s.status || 'unreachable'}; policy=${s.policy}; reason=${clean(s.reason)}`
      : `disallowed; line=${verdict.line}; rule="${clean(rule)}"`;
    const why = failed
      ? `robots.txt could not be used (${s.status ? `HTTP ${s.status}` : 'no response'}): ${s.message}`
      : `robots.txt line ${verdict.line} (${rule}) disallows this URL for this crawler.`;
    decision.response = forbidden(target, header + whoHeader(who), why);
    return decision;
  }

  const prefs = robots.aiPreferences(target.href, ua);
  decision.usage = prefs.contentUsage;
  fields.contentUsage = serialize(prefs.contentUsage);
  const refused = decision.ai && refusal(decision.ai.purposes, prefs.contentUsage, prefs.contentSignal, (field, key) => decidingLine(prefs, field, key));
  if (refused) {
    const text = refusalText(refused, decision.ai);
    Object.assign(fields, { verdict: 'refused', rule: text.rule, line: refused.line });
    if (!reportOnly) decision.response = forbidden(target, text.header + whoHeader(who), text.why);
  }
  return decision;
}

/**
 * After the origin answered a crawler: a refusal by the origin's own Content-Usage header (with
 * AI_PREFERENCES = "enforce"), else the response with the combined Content-Usage header.
 */
function answer(decision, response, target) {
  const sent = decision.ai && response.headers.get('content-usage');
  const refused = sent ? refusal(decision.ai.purposes, parseContentUsage(sent), null) : null;
  if (refused) {
    const text = refusalText(refused, decision.ai, sent);
    Object.assign(decision.fields, { verdict: 'refused', rule: text.rule, line: 0 });
    if (!decision.reportOnly) {
      response.body?.cancel().catch(() => {});
      return forbidden(target, text.header + whoHeader(decision.who), text.why);
    }
  }
  return decision.usage ? withContentUsage(response, decision.usage) : response;
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    // ORIGIN (tests, or an origin on another host): forward there instead of to request.url.
    const target = env.ORIGIN ? new URL(url.pathname + url.search, env.ORIGIN) : url;
    const decision = await decide(request, target, env, ctx);
    const upstream = () => (env.ORIGIN ? fetch(new Request(target, request)) : fetch(request));
    if (decision === null) return upstream();
    let response = decision.response;
    try {
      response ??= answer(decision, await upstream(), target);
    } finally {
      record(env, decision.fields, decision.reportOnly);
    }
    return response;
  },
};
