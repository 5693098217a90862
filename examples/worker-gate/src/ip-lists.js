// The address ranges crawler operators publish, and the check of a User-Agent's claim against
// them: a request whose User-Agent names a crawler of this table comes from one of that
// crawler's lists (`ip-verified`) or not (`spoofed`). Each row: the product tokens of the
// crawlers that use the list's addresses, the list's URL, and the operator's documentation. A
// site owner adds rows from wrangler.toml (a row that names a built-in token takes that token
// over):
//
//   [[vars.IP_LISTS]]
//   tokens = ["ExampleBot"]
//   url = "https://example.com/examplebot.json"
//
// Lists are JSON in the shape Google, Bing and OpenAI use: `{ "prefixes": [{ "ipv4Prefix":
// "66.249.64.0/27" }, { "ipv6Prefix": "2001:4860:4801:10::/64" }] }` (a bare array of prefix
// strings is read too). A Cron Trigger (worker.js `scheduled`) refreshes them into the KV
// namespace CRAWLER_IPS; an isolate reads a list from KV on first use, or, without KV (or before
// the first refresh), fetches it; then keeps it in memory for LIST_TTL_MS.
import { PrefixSet } from './ip-prefixes.js';
import { isToken } from './product-tokens.js';

// Each row says what its operator documents the list to mean. What matters for the gate is who
// can send from the addresses: a list whose addresses only the operator's own fetchers use proves
// the claim (`ip-verified`); a list whose addresses third parties send from too (`shared`: cloud
// customers' apps) proves nothing about the operator, so an address in it is no verification
// (`unverified`, reason `address-in-shared-list`): never `ip-verified`, never a reason to skip
// robots.txt (USER_TRIGGERED = "pass").
const GOOGLE = 'https://developers.google.com/static/crawling/ipranges';
// "Verifying Google's crawlers and fetchers": common-crawlers.json (crawl-*.googlebot.com),
// special-crawlers.json (rate-limited-proxy-*.google.com), user-triggered-fetchers-google.json
// ("Fetchers controlled by Google ... resolve to a google.com hostname") and
// user-triggered-fetchers.json (gae.googleusercontent.com: "used, for example, if a site running
// on Google Cloud (GCP) has a feature that requires fetching external RSS feeds on the request of
// the user of that site": Google Cloud customers' apps send from it).
const GOOGLE_DOCS = 'https://developers.google.com/crawling/docs/crawlers-fetchers/verifying-googlebot';
const GOOGLE_USER_DOCS = 'https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers';
// "Overview of OpenAI Crawlers": each bot's own published IP addresses.
const OPENAI_DOCS = 'https://developers.openai.com/api/docs/bots';

// `userTriggered`: the operator says these fetch on a user's request and robots.txt does not
// govern them (USER_TRIGGERED in wrangler.toml says what the gate does with them once verified).
// `shared`: third parties send from these addresses too (above).
export const IP_LISTS = [
  {
    tokens: ['Googlebot', 'Googlebot-Image', 'Googlebot-News', 'Googlebot-Video', 'Storebot-Google', 'Google-InspectionTool', 'GoogleOther', 'GoogleOther-Image', 'GoogleOther-Video', 'Google-CloudVertexBot'],
    url: `${GOOGLE}/common-crawlers.json`, docs: GOOGLE_DOCS,
  },
  { tokens: ['AdsBot-Google', 'AdsBot-Google-Mobile', 'Mediapartners-Google', 'APIs-Google', 'Google-Safety'], url: `${GOOGLE}/special-crawlers.json`, docs: GOOGLE_DOCS },
  // Google's user-triggered fetchers come from either list: Google's own, or Google Cloud's, where
  // any customer's app can send the same User-Agent.
  { tokens: ['FeedFetcher-Google', 'Google-Read-Aloud', 'Google-Site-Verification', 'GoogleProducer', 'Google-NotebookLM'], url: `${GOOGLE}/user-triggered-fetchers-google.json`, docs: GOOGLE_USER_DOCS, userTriggered: true },
  { tokens: ['FeedFetcher-Google', 'Google-Read-Aloud', 'Google-Site-Verification', 'GoogleProducer', 'Google-NotebookLM'], url: `${GOOGLE}/user-triggered-fetchers.json`, docs: GOOGLE_USER_DOCS, userTriggered: true, shared: true },
  // "Verifying Bingbot": Bing's crawlers (bingbot, AdIdxBot, MicrosoftPreview) from Bing's list.
  { tokens: ['bingbot', 'AdIdxBot', 'MicrosoftPreview'], url: 'https://www.bing.com/toolbox/bingbot.json', docs: 'https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26' },
  { tokens: ['GPTBot'], url: 'https://openai.com/gptbot.json', docs: OPENAI_DOCS },
  { tokens: ['OAI-SearchBot'], url: 'https://openai.com/searchbot.json', docs: OPENAI_DOCS },
  // OpenAI's fetcher for ChatGPT users and Custom GPTs: the user picks the page, OpenAI sends.
  { tokens: ['ChatGPT-User'], url: 'https://openai.com/chatgpt-user.json', docs: OPENAI_DOCS, userTriggered: true },
];

// A list in isolate memory is read again (from KV, or fetched) after this long.
const LIST_TTL_MS = 6 * 3600_000;
// A list that could not be had is asked for again after this long (its old copy, if any, is kept).
const LIST_FAILURE_TTL_MS = 60_000;
const LIST_TIMEOUT_MS = 10_000;
const LIST_MAX_BYTES = 4 * 1024 * 1024;
const KV_PREFIX = 'ip-list:';

/**
 * The table with the site owner's rows (`IP_LISTS`: an array of `{ tokens, url, userTriggered?,
 * shared? }`, or the same as a JSON string) added: `Map(lower-case token -> { token, urls,
 * shared, userTriggered })`, `shared` the Set of its URLs third parties send from too.
 * A configured row's tokens leave the built-in rows; `builtIn: false` leaves out the built-in
 * table altogether (IP_LISTS_BUILT_IN = "off"). Malformed rows are an error.
 */
export function ipListTable(extra, { builtIn = true } = {}) {
  const rows = typeof extra === 'string' && extra.trim() !== '' ? JSON.parse(extra) : extra ?? [];
  if (!Array.isArray(rows)) throw new TypeError('IP_LISTS must be an array of { tokens, url }');
  for (const row of rows) {
    // https only: a list fetched in the clear could be rewritten on the way to verify anyone.
    if (!Array.isArray(row?.tokens) || row.tokens.length === 0 || !row.tokens.every(isToken) || !/^https:\/\/./.test(row?.url)) {
      throw new TypeError(`IP_LISTS: ${JSON.stringify(row)} needs tokens (product tokens) and an https url`);
    }
  }
  const mine = new Set(rows.flatMap((r) => r.tokens.map((t) => t.toLowerCase())));
  const table = new Map();
  const add = (row, keep) => {
    for (const token of row.tokens) {
      const key = token.toLowerCase();
      if (!keep(key)) continue;
      const entry = table.get(key) ?? { token, urls: [], shared: new Set(), userTriggered: false };
      if (!entry.urls.includes(row.url)) entry.urls.push(row.url);
      if (row.shared === true) entry.shared.add(row.url);
      entry.userTriggered ||= row.userTriggered === true;
      table.set(key, entry);
    }
  };
  if (builtIn) for (const row of IP_LISTS) add(row, (key) => !mine.has(key));
  for (const row of rows) add(row, () => true);
  return table;
}

/** The prefixes of a list document (`{ prefixes: [{ ipv4Prefix } | { ipv6Prefix } | "..."] }` or an array). */
export function listPrefixes(doc) {
  const items = Array.isArray(doc) ? doc : Array.isArray(doc?.prefixes) ? doc.prefixes : null;
  if (!items) throw new Error('not a list of prefixes');
  const out = [];
  for (const item of items) {
    const p = typeof item === 'string' ? item : item?.ipv4Prefix ?? item?.ipv6Prefix ?? item?.ip_prefix ?? item?.ipv6_prefix;
    if (typeof p === 'string') out.push(p);
  }
  // An operator that moves a list has been seen answering 200 with other JSON at the old URL: a
  // list with no prefix is a failure, never "nobody is this crawler".
  if (out.length === 0) throw new Error('no prefixes');
  return out;
}

/** Fetches a list: its prefix strings. Rejects on any failure. */
export async function fetchList(url, fetchFn) {
  const res = await fetchFn(url, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (res.status !== 200) {
    res.body?.cancel().catch(() => {});
    throw new Error(`HTTP ${res.status}`);
  }
  const text = await res.text();
  if (text.length > LIST_MAX_BYTES) throw new Error('too large');
  return listPrefixes(JSON.parse(text));
}

// One entry per list URL of the table (the site's configuration): no client adds one.
const lists = new Map(); // url -> { set, until, error?, pending? }

/** How many lists this isolate holds (the state test reads it). */
export function listState() {
  return { lists: lists.size };
}

/** A list's PrefixSet (a Promise): isolate memory, else KV (CRAWLER_IPS), else the operator. */
export function getList(url, env, fetchFn, now) {
  const hit = lists.get(url);
  if (hit?.set && hit.until > now) return Promise.resolve(hit.set);
  // While a refresh runs, requests go on with the old copy.
  if (hit?.pending) return hit.set ? Promise.resolve(hit.set) : hit.pending;
  if (hit?.error && hit.until > now) return Promise.reject(hit.error);
  const pending = (async () => {
    const kv = env.CRAWLER_IPS;
    let prefixes = null;
    if (kv) {
      const stored = await kv.get(KV_PREFIX + url, 'json').catch(() => null);
      if (Array.isArray(stored?.prefixes) && stored.prefixes.length > 0) prefixes = stored.prefixes;
    }
    if (prefixes === null) {
      prefixes = await fetchList(url, fetchFn);
      if (kv) await kv.put(KV_PREFIX + url, JSON.stringify({ fetchedAt: now, prefixes })).catch(() => {});
    }
    return new PrefixSet(prefixes);
  })().then(
    (set) => {
      lists.set(url, { set, until: now + LIST_TTL_MS });
      return set;
    },
    (error) => {
      // An operator's outage is not a new list: keep the old copy, ask again a minute later.
      lists.set(url, hit?.set ? { set: hit.set, until: now + LIST_FAILURE_TTL_MS } : { error, until: now + LIST_FAILURE_TTL_MS });
      if (hit?.set) return hit.set;
      throw error;
    },
  );
  lists.set(url, { set: hit?.set, until: 0, pending });
  return hit?.set ? Promise.resolve(hit.set) : pending;
}

/**
 * The Cron Trigger's work: every list of the table fetched and stored in KV (CRAWLER_IPS).
 * Resolves to `[{ url, prefixes } | { url, error }]`; a list that fails keeps its stored copy.
 */
export async function refreshLists(table, env, fetchFn) {
  const urls = [...new Set([...table.values()].flatMap((e) => e.urls))];
  return Promise.all(urls.map(async (url) => {
    try {
      const prefixes = await fetchList(url, fetchFn);
      if (env.CRAWLER_IPS) await env.CRAWLER_IPS.put(KV_PREFIX + url, JSON.stringify({ fetchedAt: Date.now(), prefixes }));
      lists.delete(url);
      return { url, prefixes: prefixes.length };
    } catch (e) {
      return { url, error: String(e?.message ?? e) };
    }
  }));
}

/**
 * The client's address, as something the client cannot write vouches for it, or null.
 * `header`: CLIENT_ADDRESS_HEADER. Unset: CF-Connecting-IP, only on Cloudflare (`request.cf`
 * carries the data centre, `colo`): Cloudflare's edge sets that header from the connection and
 * replaces a client's own; anywhere else (self-hosted workerd, a proxy that passes headers on)
 * any client can send it, so it is not read. A header name: the header the operator's own proxy
 * sets (and strips from clients), read everywhere; of a list (X-Forwarded-For) the last address,
 * the one that proxy added. `none`: no address (no claim is checked against a list).
 */
export function clientAddress(request, header) {
  if (header === 'none') return null;
  const name = header || (typeof request.cf?.colo === 'string' ? 'cf-connecting-ip' : null);
  const value = name === null ? null : request.headers.get(name);
  return value === null ? null : value.slice(value.lastIndexOf(',') + 1).trim() || null;
}

/**
 * The address check of a User-Agent's claim: null when the User-Agent names no crawler of the
 * table (`find`: product-tokens.js tokenFinder over it, the engine's reading), else `{ identity,
 * token, reason }`: `ip-verified` (the client's address, clientAddress(), is in one of the
 * crawler's own lists),
 * `unverified` with `address-in-shared-list` (only in a list third parties send from too: the
 * crawler may be there, and so may anyone), `spoofed` (in none of them), or `unverified` when
 * there is no client address or a list could not be had (then nothing is known: never a block
 * over the gate's own failure).
 */
export async function checkClaim(request, find, env, fetchFn, now) {
  const entry = find(request.headers.get('user-agent') ?? '');
  if (entry === null) return null;
  const address = clientAddress(request, env.CLIENT_ADDRESS_HEADER);
  if (!address) return { identity: 'unverified', token: null, reason: 'no-client-address' };
  let unavailable = false;
  let shared = false;
  for (const url of entry.urls) {
    try {
      if ((await getList(url, env, fetchFn, now)).has(address)) {
        if (!entry.shared.has(url)) return { identity: 'ip-verified', token: entry.token, reason: 'address-in-list' };
        shared = true;
      }
    } catch {
      unavailable = true;
    }
  }
  if (shared) return { identity: 'unverified', token: null, reason: 'address-in-shared-list' };
  return unavailable
    ? { identity: 'unverified', token: null, reason: 'ip-list-unavailable' }
    : { identity: 'spoofed', token: entry.token, reason: 'address-not-in-list' };
}
