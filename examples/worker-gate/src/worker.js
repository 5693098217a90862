// robots.txt gate: a Cloudflare Worker in front of an origin. Who is asking comes first
// (identity.js: a Web Bot Auth signature, or a claim checked against its crawler's published
// addresses), then every crawler (crawlers.js) is checked against the origin's robots.txt before
// its request reaches the origin: the group of its verified product token, else the group that
// names it, else the `*` group. People's browsers stream through untouched. Every crawler decision
// can be explained: the 403's X-Robots-Eval header, a Workers Analytics Engine data point, and in
// report-only mode a log line. See README.md.
// The verdicts are explained (robots.explain, aiUse): Robots' rich calls, installed by this import.
import 'robots-eval/rich';
import { getRobots } from './robots-cache.js';
import { isbotMatch } from 'isbot';
import { classify, crawlerName, substrings, tokenPattern } from './crawlers.js';
import { identify, identifyByAddress, identityConfig, UNCHECKED_CLAIM } from './identity.js';
import { refreshLists } from './ip-lists.js';
import { aiCrawlerTable } from './ai-crawlers.js';
import { tokenFinder } from './product-tokens.js';
import { serialize, withContentUsage } from './ai-preferences.js';
import { answerOf, hasAiHeaders, nameOf, refusalOf, withHead } from './ai-use.js';
import { getTdmrep, TDMREP_PATH } from './tdmrep-cache.js';
import { numberVar, parsedVar } from './vars.js';
import { publicReason } from './directory.js';

// The Durable Object class behind NONCE_STORE (replay.js), exported for the platform.
export { NonceStore } from './replay.js';

const HEAD_MAX_BYTES = 512 * 1024;
// How long an HTML page's head may be held back, by default (AI_HEAD_MAX_MS): an origin that
// stalls in its head holds a crawler's response, and the gate's memory for it, no longer.
const HEAD_MAX_MS = 2000;

/** The parsed vars, kept while the platform passes the same `env` object. */
let settings = null;
function settingsOf(env) {
  if (settings?.env !== env) {
    const aiTable = parsedVar(env, 'AI_CRAWLERS', aiCrawlerTable);
    const ipTable = identityConfig(env).lists;
    settings = {
      env,
      lists: {
        crawlers: substrings(env.CRAWLERS),
        notCrawlers: substrings(env.NOT_CRAWLERS),
        // Tokens isbot would catch anyway (every built-in list token) are left out of the pattern.
        tokens: tokenPattern({
          AI_CRAWLERS: [...aiTable.keys()],
          IP_LISTS: [...ipTable.keys()].filter((t) => isbotMatch(t) === null),
        }),
      },
      reportOnly: env.MODE === 'report-only',
      aiEnforce: env.AI_PREFERENCES === 'enforce',
      // The resolver's own head limit (robots_eval::meta::HEAD_SCAN_LIMIT): no more is read.
      headMaxBytes: Math.min(numberVar(env.AI_HEAD_MAX_BYTES, HEAD_MAX_BYTES), HEAD_MAX_BYTES),
      headMaxMs: numberVar(env.AI_HEAD_MAX_MS, 0) || HEAD_MAX_MS,
      aiTable,
      // The AI crawler a User-Agent names, read by the engine in the configured dialect.
      findAi: tokenFinder(aiTable, env.DIALECT),
      ipTable,
      // The policies, each with its safe default (README.md, "Identity").
      spoofed: env.SPOOFED === 'unknown' ? 'unknown' : 'block',
      invalid: env.INVALID_SIGNATURE === 'unverified' ? 'unverified' : 'block',
      userTriggered: env.USER_TRIGGERED === 'pass' ? 'pass' : 'robots',
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
const BLOBS = ['verdict', 'mode', 'crawler', 'by', 'cfCategory', 'pathPrefix', 'rule', 'group', 'userAgent', 'aiPurposes', 'contentUsage',
  'identity', 'identityReason', 'token', 'signatureAgent', 'aiSignals', 'aiInputs'];
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
 * The end of the X-Robots-Eval header: who the gate took for a crawler and why, the identity
 * (identity.js), the product token whose group applied (`*`: the `*` group only) and the
 * verified signature agent.
 */
function whoHeader(who, fields) {
  let header = `; crawler="${clean(who.name)}"; by=${who.by}`;
  if (who.cf?.category) header += `; cf-verified-bot="${clean(who.cf.category)}"`;
  if (who.cf?.score != null) header += `; cf-bot-score=${who.cf.score}`;
  header += `; identity=${fields.identity}; identity-reason=${publicReason(fields.identityReason)}; token="${clean(fields.token)}"`;
  if (fields.signatureAgent) header += `; signature-agent="${clean(fields.signatureAgent)}"`;
  return header;
}

/**
 * The robots.txt agent an identity is held to, and its name for reports: a verified agent's
 * configured token, a verified address's crawler; '' (the `*` group only) for a claim its
 * addresses contradict or that could not be checked; else the User-Agent. `null` when the policy
 * blocks the identity outright.
 */
function agentOf(id, ua, who, policy) {
  // Held to the `*` group, a claim still names the crawler whose declared AI purposes and
  // crawler-addressed signals (a META tag naming it) the AI preferences are read for: `aiAgent`.
  const star = { agent: '', token: '*', aiAgent: ua };
  switch (id.identity) {
    case 'verified':
      if (id.token) return { agent: id.token, token: id.token };
      return id.reason === 'claim-outside-list' || id.reason === 'claim-unchecked' ? star : { agent: ua, token: who.name };
    case 'ip-verified':
      return { agent: id.token, token: id.token };
    case 'spoofed':
      return policy.spoofed === 'block' ? null : star;
    case 'invalid':
      return null;
    default:
      return UNCHECKED_CLAIM.has(id.reason) ? star : { agent: ua, token: who.name };
  }
}

/**
 * Whether a request is a user-triggered fetch the site lets pass (USER_TRIGGERED = "pass"): its
 * operator says robots.txt does not govern it, and its identity is proven (its published
 * addresses, or a signature from an origin SIGNATURE_AGENTS names), never only claimed.
 */
function passesAsUserTriggered(id, token, s) {
  if (s.userTriggered !== 'pass' || !(id.identity === 'ip-verified' || (id.identity === 'verified' && id.token))) return false;
  return s.ipTable.get(token.toLowerCase())?.userTriggered === true || s.findAi(token)?.kind === 'user-fetcher';
}

/** The gate's 403: a short text saying why, and the decision header. */
function forbidden(target, header, why) {
  return new Response(`403 Forbidden\n${why}\nSee ${target.origin}/robots.txt\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-robots-eval': header, 'cache-control': 'no-store' },
  });
}

/**
 * Records a refusal (ai-use.js refusalOf) in the decision, found `at` (`before-origin`,
 * `headers` or `head`), and in enforce mode makes its 403: the header names the purposes and
 * every trace entry that decided them (its signal, where, what it said), and the robots.txt
 * line when one is among them. Returns the 403, or null in report-only mode.
 */
function refuse(decision, r, at, target) {
  const { fields, ai } = decision;
  const names = r.by.map((e) => nameOf(e, cut));
  const line = r.by.find((e) => e.where?.line !== undefined)?.where.line;
  Object.assign(fields, {
    verdict: 'refused',
    rule: cut(names[0] ?? ''),
    line: line ?? 0,
    aiSignals: cut(names.join('; '), 1024),
    aiInputs: `${fields.aiInputs}; refused-at=${at}`,
  });
  if (decision.reportOnly) return null;
  const header = `refused; purpose=${r.purposes.join(',')}; at=${at}; signals="${clean(cut(names.join('; '), 1024))}"${line === undefined ? '' : `; line=${line}`}`;
  const why = `This site's AI preferences deny ${r.purposes.join(' and ')}, the purpose${r.purposes.length > 1 ? 's' : ''} this crawler's operator declares${ai.source ? ` (${ai.source})` : ''}. Decided by:\n${names.map((n) => `- ${n}`).join('\n')}`;
  return forbidden(target, header + whoHeader(decision.who, fields), why);
}

/**
 * The gate's decision for one crawler request, or null when the request is not a crawler's (or
 * asks for /robots.txt) and passes untouched. A decision is `{ fields, response, usage, ai, who }`:
 * `fields` as recorded (README.md), `response` the 403 to answer with or null to pass the request
 * on, `usage` robots.txt's Content-Usage for the URL and crawler (null when it is disallowed),
 * `ai` the crawler's AI table row when AI_PREFERENCES enforces. `options`: `{ now, fetch }`, the
 * clock identify() reads and the fetch the gate goes out with (robots.txt, tdmrep.json, key
 * directories, address lists). Exported for bench.mjs, which times it on its own.
 */
export async function decide(request, target, env, ctx, options = {}) {
  if (target.pathname === '/robots.txt' || target.pathname === TDMREP_PATH) return null;
  const ua = request.headers.get('user-agent') ?? '';
  const s = settingsOf(env);
  const { lists, reportOnly, aiTable } = s;
  let who = classify(ua, request.cf, lists);
  // A browser passes at once, unless it signs its requests (signed agents often send a
  // browser's User-Agent; a Signature without Signature-Input is no Web Bot Auth signature);
  // NOT_CRAWLERS passes whatever it sends.
  if (!who.crawler && (who.by === 'NOT_CRAWLERS' || !request.headers.has('signature-input'))) return null;
  if (!who.crawler) who = { crawler: true, by: 'signature', name: crawlerName(ua) || 'unnamed', cf: null };

  let id = await identify(request, env, { ...options, ctx });
  if (id.identity === 'invalid' && s.invalid === 'unverified') {
    // INVALID_SIGNATURE = "unverified": the signature is ignored, the address check still applies.
    const byAddress = await identifyByAddress(request, env, options);
    id = byAddress.reason === 'no-claim' ? { ...byAddress, reason: `ignored-${id.reason}` } : byAddress;
  }
  const held = agentOf(id, ua, who, s);
  const fields = {
    verdict: 'allowed',
    mode: reportOnly ? 'report-only' : 'enforce',
    crawler: who.name,
    by: who.by,
    cfCategory: who.cf?.category ?? '',
    pathPrefix: pathPrefix(target.pathname),
    rule: '',
    group: '',
    userAgent: cut(ua),
    aiPurposes: '',
    contentUsage: '',
    identity: id.identity,
    identityReason: id.reason,
    token: held?.token ?? id.token ?? '',
    signatureAgent: id.signatureAgent ?? '',
    aiSignals: '',
    aiInputs: '',
    line: 0,
    robotsStatus: 0,
    cfScore: who.cf?.score ?? -1,
  };
  const decision = { fields, response: null, usage: null, ai: null, who, reportOnly };
  if (held === null) {
    fields.verdict = 'forbidden';
    fields.rule = `identity ${id.identity}: ${id.reason}`;
    if (!reportOnly) decision.response = forbidden(target, `forbidden${whoHeader(who, fields)}`, id.identity === 'spoofed'
      ? `This request claims to be ${id.token}, and does not come from ${id.token}'s published addresses.`
      : `This request's Web Bot Auth signature is invalid (${id.reason}).`);
    return decision;
  }
  if (passesAsUserTriggered(id, held.token, s)) {
    fields.verdict = 'passed';
    fields.rule = 'user-triggered fetch (USER_TRIGGERED = "pass")';
    return decision;
  }

  const { agent } = held;
  const aiAgent = held.aiAgent ?? agent;
  const ai = aiAgent === '' ? null : s.findAi(aiAgent);
  const enforcing = s.aiEnforce && ai !== null && ai.purposes.length > 0;
  let robots;
  try {
    robots = await getRobots(target.origin, env, ctx, options.fetch);
  } catch (e) {
    // fetchRobots rejects only on bad configuration; never block traffic because of the gate.
    console.error(`worker-gate: ${e?.message ?? e}`);
    return null;
  }
  const verdict = robots.explain(target.href, agent);
  const src = robots.source;
  const failed = src.treatedAs === 'disallow-all';
  const rule = verdict.rule ? cut(`${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.pattern}`) : '';
  Object.assign(fields, {
    verdict: verdict.allowed ? 'allowed' : 'disallowed',
    rule: failed ? `robots.txt ${src.status || 'unreachable'}: ${src.reason}` : rule,
    group: cut(verdict.group?.agents.join(',') ?? ''),
    aiPurposes: ai?.purposes.join(',') ?? '',
    line: verdict.line,
    robotsStatus: src.status,
  });
  decision.ai = enforcing ? ai : null;
  if (!verdict.allowed) {
    if (reportOnly) return decision;
    const header = failed
      ? `disallowed; robots-txt=${src.status || 'unreachable'}; policy=${src.policy}; reason=${clean(src.reason)}`
      : `disallowed; line=${verdict.line}; rule="${clean(rule)}"`;
    const why = failed
      ? `robots.txt could not be used (${src.status ? `HTTP ${src.status}` : 'no response'}): ${src.message}`
      : `robots.txt line ${verdict.line} (${rule}) disallows this URL for this crawler.`;
    decision.response = forbidden(target, header + whoHeader(who, fields), why);
    return decision;
  }

  const prefs = robots.aiPreferences(target.href, aiAgent);
  decision.usage = prefs.contentUsage;
  fields.contentUsage = serialize(prefs.contentUsage);
  if (decision.ai) {
    // The site's tdmrep.json (only for a URL robots.txt lets the crawler fetch); then the
    // current robots.txt, used synchronously after the await as robots-cache.js wants.
    const tdmrep = await getTdmrep(target.origin, env, ctx, options.fetch);
    robots = await getRobots(target.origin, env, ctx, options.fetch);
    Object.assign(decision, { agent: aiAgent, tdmrep, headMaxBytes: s.headMaxBytes, headMaxMs: s.headMaxMs });
    fields.aiInputs = `tdmrep=${tdmrep.state}`;
    const refused = refusalOf(answerOf(robots, target.href, aiAgent, decision.ai, tdmrep), decision.ai);
    if (refused) decision.response = refuse(decision, refused, 'before-origin', target);
  }
  return decision;
}

/**
 * After the origin answered a crawler: with AI_PREFERENCES = "enforce", the resolver asked again
 * with the page's own headers, then its head (ai-use.js), and a 403 when they refuse (the
 * origin's body cancelled); else the response with the combined Content-Usage header.
 */
async function answer(decision, response, target, env, ctx, fetchFn) {
  if (decision.ai && decision.fields.verdict !== 'refused') {
    // The current parsed robots.txt (the copy decide() used may have been replaced and freed
    // while the origin answered); used synchronously after the await, as robots-cache.js wants.
    const ask = async (inputs) => {
      const robots = await getRobots(target.origin, env, ctx, fetchFn);
      return refusalOf(answerOf(robots, target.href, decision.agent, decision.ai, decision.tdmrep, inputs), decision.ai);
    };
    const { headers } = response;
    let refused = hasAiHeaders(headers) ? await ask({ headers }) : null;
    let at = 'headers';
    if (!refused) {
      const read = await withHead(response, decision.headMaxBytes, decision.headMaxMs);
      response = read.response;
      if (read.head) decision.fields.aiInputs += `; head=${read.head}`;
      if (read.html !== null) {
        refused = await ask({ headers, html: read.html });
        at = 'head';
      }
    }
    const out = refused && refuse(decision, refused, at, target);
    if (out) {
      response.body?.cancel().catch(() => {});
      return out;
    }
  }
  return decision.usage ? withContentUsage(response, decision.usage) : response;
}

/** ORIGIN's scheme, host and port (`https://origin.example`), or null when it is no http(s) URL. */
export function originOf(value) {
  let u;
  try {
    u = new URL(String(value));
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
}

/**
 * Where a request goes with ORIGIN set: that origin, with the request's path and query, whatever
 * the path holds. The path is never resolved against the origin as a reference (`//evil.example/x`
 * and `/\\evil.example/x` are network-path references: they would name another host); it is put
 * after the origin as the path it already is (`request.url` was parsed, so it starts with `/`,
 * holds no tab or newline, and its `..` segments are resolved). The result's origin is checked
 * again, so no spelling can send a client's cookies or a signer's headers to a host it picked.
 */
export function forwardTarget(base, url) {
  const target = new URL(`${base}${url.pathname}${url.search}`);
  if (target.origin !== base) throw new Error(`worker-gate: ${url.pathname} moved the target off ${base}`);
  return target;
}

/**
 * The Worker's fetch, with `options` (`{ now, fetch }`, as decide() takes them; `fetch` also
 * carries the request to the origin): tests pass a fetch that carries test host names to servers
 * on loopback; the Worker passes none.
 */
export async function handle(request, env, ctx, options = {}) {
  const url = new URL(request.url);
  let target = url;
  if (env.ORIGIN) {
    const base = originOf(env.ORIGIN);
    if (base === null) {
      console.error(`worker-gate: ORIGIN ${JSON.stringify(String(env.ORIGIN).slice(0, 100))} is not an http(s) origin; nothing is forwarded`);
      return new Response('502 Bad Gateway\nThe gate is misconfigured (ORIGIN).\n', { status: 502, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    target = forwardTarget(base, url);
  }
  const decision = await decide(request, target, env, ctx, options);
  const out = options.fetch ?? ((r) => fetch(r));
  const upstream = () => out(env.ORIGIN ? new Request(target, request) : request);
  if (decision === null) return upstream();
  let response = decision.response;
  try {
    response ??= await answer(decision, await upstream(), target, env, ctx, options.fetch);
  } finally {
    record(env, decision.fields, decision.reportOnly);
  }
  return response;
}

export default {
  fetch: (request, env, ctx) => handle(request, env, ctx),
  /** The Cron Trigger: the crawlers' address lists refreshed into KV (CRAWLER_IPS). */
  async scheduled(controller, env, ctx) {
    const run = refreshLists(identityConfig(env).lists, env, (u, i) => fetch(u, i)).then((results) => {
      for (const r of results) {
        if (r.error) console.error(`worker-gate: address list ${r.url}: ${r.error}; the stored copy is kept`);
        else console.log(`worker-gate: address list ${r.url}: ${r.prefixes} prefixes`);
      }
      if (!env.CRAWLER_IPS) console.error('worker-gate: no KV namespace bound as CRAWLER_IPS; each isolate fetches the lists itself');
      return results;
    });
    ctx.waitUntil(run);
    await run;
  },
};
