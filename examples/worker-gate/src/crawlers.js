// Who is a crawler. The robots.txt groups decide which rules a crawler obeys; this module decides
// only whether a request comes from a crawler at all, so that every crawler obeys at least the
// `*` group. In order:
// 1. NOT_CRAWLERS (the site owner's escape hatch) - never a crawler;
// 2. Cloudflare's verified-bot signals in `request.cf`, when the platform sends them;
// 3. CRAWLERS (the site owner's additions);
// 4. isbot, the maintained User-Agent pattern list (search engines, SEO tools, AI crawlers,
//    feed readers, headless browsers, HTTP libraries);
// 5. a token of the AI crawler table (ai-crawlers.js, with the site owner's AI_CRAWLERS rows), or
//    of the address lists (ip-lists.js, with the site owner's IP_LISTS rows).
// Anything else is a person's browser (or an unidentified client) and is never gated, unless it
// signs its requests (worker.js).
import { isbotMatch } from 'isbot';

/**
 * A comma-separated var as lower-case substrings. Wrangler passes a `[vars]` array as an
 * array, so both forms are accepted.
 */
export function substrings(value) {
  const items = Array.isArray(value) ? value : String(value ?? '').split(',');
  return items.map((s) => String(s).trim().toLowerCase()).filter(Boolean);
}

/**
 * What Cloudflare says about the client: `{ category, verified, score }`, or null when `cf`
 * carries no bot signal. `verifiedBotCategory` is set for verified bots on every plan;
 * `botManagement` only with Bot Management.
 */
export function cloudflareBot(cf) {
  if (!cf) return null;
  const category = typeof cf.verifiedBotCategory === 'string' ? cf.verifiedBotCategory : '';
  const bm = cf.botManagement;
  const verified = category !== '' || bm?.verifiedBot === true;
  const score = typeof bm?.score === 'number' ? bm.score : null;
  return verified || score !== null ? { category, verified, score } : null;
}

/**
 * The crawler's name for reports: the User-Agent token that holds `hint` (what identified it,
 * e.g. `Googlebot` in `Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)`), else its last
 * `product/version` token, without the version.
 */
export function crawlerName(ua, hint) {
  const tokens = ua.split(/[\s;()[\],]+/).filter((t) => t && !t.includes('://') && !t.startsWith('+'));
  // isbot's match can be the whole `Mozilla/5.0 (compatible; ...` prefix: no hint at all.
  const want = (hint ?? '').toLowerCase().replace(/[/;\s].*$/, '').replace(/^mozilla$/, '');
  const named = (want && tokens.find((t) => t.toLowerCase().includes(want)))
    || tokens.findLast((t) => t.includes('/') && !/^mozilla\//i.test(t))
    || tokens.at(-1)
    || '';
  return named.replace(/\/.*$/, '').slice(0, 64);
}

/**
 * The product tokens of the crawler tables as one pattern (every browser request is tested
 * against it, so one regular expression rather than a loop of substring searches):
 * `{ pattern, by }`, `by` mapping each lower-case token to the table that has it.
 */
export function tokenPattern(tables) {
  const by = new Map();
  for (const [name, tokens] of Object.entries(tables)) for (const t of tokens) if (!by.has(t.toLowerCase())) by.set(t.toLowerCase(), name);
  const alternatives = [...by.keys()].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { pattern: alternatives.length ? new RegExp(alternatives.join('|')) : null, by };
}

/**
 * Classifies one request: `{ crawler: false, by }` or `{ crawler: true, by, name, cf }`, where
 * `by` says what decided (`NOT_CRAWLERS`, `cloudflare`, `CRAWLERS`, `isbot`, `AI_CRAWLERS`,
 * `IP_LISTS`, `browser`). `lists`: lower-case `crawlers` and `notCrawlers`, and `tokens`
 * (tokenPattern() of the AI crawler table and the address lists).
 */
export function classify(ua, cf, lists) {
  const lowered = ua.toLowerCase();
  if (lists.notCrawlers.some((s) => lowered.includes(s))) return { crawler: false, by: 'NOT_CRAWLERS' };
  const bot = cloudflareBot(cf);
  const listed = lists.crawlers.find((s) => lowered.includes(s));
  const match = listed ?? isbotMatch(ua);
  const token = match === null ? lists.tokens.pattern?.exec(lowered)?.[0] : undefined;
  const by = bot?.verified ? 'cloudflare' : listed ? 'CRAWLERS' : match !== null ? 'isbot' : token ? lists.tokens.by.get(token) : null;
  return by ? { crawler: true, by, name: crawlerName(ua, match ?? token), cf: bot } : { crawler: false, by: 'browser' };
}
