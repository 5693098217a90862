// fetchAiUse: robots.aiUse (js/rich-methods.js) from what a site serves, fetched here: its
// robots.txt (fetchRobots), its /.well-known/tdmrep.json and the page's response headers and head.
// Apart from fetchRobots (js/fetch.js), so that a bundle of fetchRobots carries neither the rich
// nor the AI-use module.

import { CORE } from './robots.js';
import { readBody, readCapped } from './fetch.js';
import { TDMREP_LIMIT } from './ai.js';
import { PREFIX, HEAD_SCAN_LIMIT, typeError, optionsArg, numberOption } from './common.js';
const AI_FETCH_OPTIONS = ['fetch', 'userAgent', 'dialect', 'timeoutMs', 'signal', 'maxBytes', 'purposes', 'policyTokens', 'maxHtmlBytes', 'robots', 'tdmrep', 'html', 'headers'];

/**
 * Reads a page's body up to the end of its head (`</head` or `<body`, in any case) or `limit`
 * bytes, whichever comes first, then cancels the rest: the body of a large page is never
 * downloaded. Returns { bytes, truncated } (truncated: the body went on).
 */
async function readHead(res, limit) {
  const latin1 = new TextDecoder('latin1');
  let tail = ''; // the last characters read, so a marker split between chunks is found
  const headEnded = (chunk) => {
    const text = tail + latin1.decode(chunk).toLowerCase();
    tail = text.slice(-5);
    return text.includes('</head') || text.includes('<body');
  };
  const { bytes, done } = await readBody(res, limit, headEnded);
  return { bytes, truncated: !done };
}

/**
 * fetchAiUse over the API `api` (defineApi's result) and `fetchRobots` (defineFetch's);
 * `installRich` (js/rich-methods.js) installs robots.aiUse, which it calls.
 */
export function defineFetchAiUse(api, { fetchRobots }, installRich) {
  const { Robots } = api;
  const { urlArg, copyOf } = api[CORE];

  /**
   * robots.aiUse from what the site serves: its robots.txt (fetchRobots, the status policy), its
   * /.well-known/tdmrep.json and the page's response headers and head; `fetched` says what each
   * request gave. Bad options are a TypeError; a failed request is a `fetched` note, not a throw.
   */
  async function fetchAiUse(url, agent, options) {
    installRich();
    const where = 'fetchAiUse(url, agent, options)';
    url = urlArg(url, where);
    if (typeof agent !== 'string' && !(Array.isArray(agent) && agent.length > 0 && agent.every((a) => typeof a === 'string'))) {
      throw typeError(where, 'agent must be a string or a non-empty array of strings', agent);
    }
    const o = optionsArg(options, where, AI_FETCH_OPTIONS);
    const {
      fetch: doFetch = globalThis.fetch, userAgent = typeof agent === 'string' ? agent : agent[0], dialect, timeoutMs = 10000, signal,
      maxBytes, purposes, policyTokens, maxHtmlBytes = HEAD_SCAN_LIMIT, robots: given = null, headers,
    } = o;
    if (typeof doFetch !== 'function') throw typeError(where, 'options.fetch must be a function', doFetch);
    numberOption(maxHtmlBytes, where, 'maxHtmlBytes', (v) => Number.isInteger(v) && v >= 0, 'a non-negative integer');
    if (given !== null && !(given instanceof Robots)) throw typeError(where, 'options.robots must be a Robots (then robots.txt is not fetched)', given);
    if (headers !== undefined && o.html === undefined) throw new TypeError(`${PREFIX}${where}: options.headers are the page's: give them with options.html (then the page is not fetched)`);
    let page;
    try {
      page = new URL(url);
    } catch {}
    if (page === undefined || (page.protocol !== 'http:' && page.protocol !== 'https:')) {
      throw typeError(where, 'url must be an absolute http: or https: URL', url);
    }
    const fetched = [];
    let robots = given;
    if (robots === null) {
      const robotsOptions = { fetch: doFetch, userAgent, timeoutMs };
      if (dialect !== undefined) robotsOptions.dialect = dialect;
      if (signal !== undefined) robotsOptions.signal = signal;
      if (maxBytes !== undefined) robotsOptions.maxBytes = maxBytes;
      robots = await fetchRobots(page.origin, robotsOptions);
      const s = robots.source;
      fetched.push({ what: 'robots.txt', url: s.url, status: s.status, bytes: s.policy === 'parse' ? copyOf(robots)?.length ?? 0 : 0, note: `${s.message} (${s.reason})` });
    }
    /** One GET with the timeout and the caller's signal; { res: null, error } on a network error or timeout. */
    const get = async (target, read) => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const onAbort = () => controller.abort(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const res = await doFetch(target, { signal: controller.signal, headers: { 'user-agent': userAgent } });
        return { res, ...(await read(res)) };
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        return { res: null, error: controller.signal.aborted ? 'timed out' : `fetch failed: ${e?.message ?? e}` };
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    };
    try {
      let tdmrep = o.tdmrep;
      if (tdmrep === undefined) {
        const tdmUrl = new URL('/.well-known/tdmrep.json', page).href;
        const tdm = await get(tdmUrl, async (res) => {
          if (res.status >= 200 && res.status < 300) return { body: await readCapped(res, TDMREP_LIMIT) };
          res.body?.cancel().catch(() => {});
          return { body: null };
        });
        tdmrep = tdm.body ?? null;
        fetched.push({
          what: 'tdmrep.json', url: tdmUrl, status: tdm.res?.status ?? 0, bytes: tdmrep?.length ?? 0,
          note: tdm.res === null ? `${tdm.error}: read as absent` : tdmrep === null ? `HTTP ${tdm.res.status}: absent` : 'read',
        });
      }
      let html = o.html;
      let pageHeaders = headers ?? null;
      if (html === undefined) {
        const got = await get(page.href, async (res) => readHead(res, maxHtmlBytes));
        html = got.bytes ?? null;
        pageHeaders = got.res?.headers ?? null;
        fetched.push({
          what: 'page', url: page.href, status: got.res?.status ?? 0, bytes: html?.length ?? 0, truncated: got.truncated ?? false,
          note: got.res === null ? `${got.error}: no headers or head read` : got.truncated ? 'its head read, the rest of the body not downloaded' : 'read whole (no end of head before the end)',
        });
      }
      const answer = robots.aiUse(page.href, agent, { headers: pageHeaders, html, tdmrep, purposes, policyTokens });
      answer.fetched = fetched;
      return answer;
    } finally {
      if (given === null) robots.free();
    }
  }

  return fetchAiUse;
}
