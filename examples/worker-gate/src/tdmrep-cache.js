// The site's TDMRep file (/.well-known/tdmrep.json, W3C TDM Reservation Protocol §6), fetched and
// cached as robots.txt is (robots-cache.js): per origin in isolate memory, and the file itself
// in the Cache API (shared-cache.js) for the isolates of a data centre. What the resolver
// (Robots.aiUse) needs is the file's bytes, or null when the site has none.
import { cachedFetch, readPrefix, setBounded } from './shared-cache.js';
import { numberVar } from './vars.js';

export const TDMREP_PATH = '/.well-known/tdmrep.json';
// The core's tdmrep::MAX_FILE_BYTES: one byte more lets the resolver say the file was too large.
const MAX_BYTES = 1024 * 1024;
// A copy is kept for its Cache-Control max-age, at least MIN_TTL_MS and at most MAX_TTL_MS (the
// longest RFC 9309 keeps a robots.txt); without one, DEFAULT_TTL_MS. A failure (5xx, a timeout,
// no response) counts as no file, and is kept only ROBOTS_FAILURE_TTL_MS (default 10 s), so one
// bad answer does not hide a reservation for long.
const MIN_TTL_MS = 1000;
const DEFAULT_TTL_MS = 3600_000;
const MAX_TTL_MS = 86_400_000;

const cache = new Map(); // origin -> { file, until } | { pending: Promise }, least recently used first
// Origins held at most, and the bytes of their files together (a file may be 1 MiB).
export const MAX_ORIGINS = 256;
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024;
const weigh = (entry) => entry.file?.body?.length ?? 0;

/** How many origins' files this isolate holds, and their bytes (the state test reads it). */
export function tdmrepState() {
  let bytes = 0;
  for (const e of cache.values()) bytes += weigh(e);
  return { origins: cache.size, bytes };
}

const hold = (origin, entry) => setBounded(cache, origin, entry, { max: MAX_ORIGINS, weigh, maxWeight: MAX_TOTAL_BYTES });

/** How long a response may be kept (ms): its Cache-Control max-age, within the bounds. */
function lifetime(res) {
  const cc = res.headers.get('cache-control') ?? '';
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/i.test(cc)) return MIN_TTL_MS;
  const m = /(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*"?(\d+)/i.exec(cc);
  const age = Number(res.headers.get('age')) || 0;
  const ttl = m ? (Number(m[1]) - age) * 1000 : DEFAULT_TTL_MS;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ttl));
}

/**
 * The outcome of fetching the file: `{ body, status, state }`, `body` its bytes (a 200) or null;
 * `state` `present` (a 200), `absent` (any other answer: a 404 or 410 says there is none, a 3xx
 * fetch could not follow or a 4xx leaves none to read) or `unavailable` (5xx, timeout, no
 * response), as recorded in the decision (`tdmrep` field).
 */
async function fetchFile(origin, env, ctx, outbound) {
  // A 404 or 410 is kept in the Cache API too: most sites have no file, and a new isolate should
  // not ask the origin again for that.
  const fetchFn = cachedFetch(ctx, MAX_BYTES, outbound, [200, 404, 410]);
  const timeoutMs = numberVar(env.ROBOTS_TIMEOUT_MS, 0) || 5000;
  const failureMs = numberVar(env.ROBOTS_FAILURE_TTL_MS, 10_000);
  let res;
  try {
    res = await fetchFn(`${origin}${TDMREP_PATH}`, {
      headers: { 'user-agent': env.ROBOTS_USER_AGENT || 'robots-eval-worker-gate', accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    return { file: { body: null, status: 0, state: 'unavailable', error: String(e?.message ?? e) }, ttl: failureMs };
  }
  if (res.status >= 500 || res.status === 429) {
    res.body?.cancel().catch(() => {});
    return { file: { body: null, status: res.status, state: 'unavailable' }, ttl: failureMs };
  }
  if (res.status !== 200) {
    res.body?.cancel().catch(() => {});
    return { file: { body: null, status: res.status, state: 'absent' }, ttl: lifetime(res) };
  }
  try {
    // Past the limit: its first MAX_BYTES + 1 bytes, which the resolver reports as too large.
    const body = res.body ? await readPrefix(res.body, MAX_BYTES + 1) : new Uint8Array(0);
    return { file: { body, status: 200, state: 'present' }, ttl: lifetime(res) };
  } catch (e) {
    return { file: { body: null, status: 200, state: 'unavailable', error: String(e?.message ?? e) }, ttl: failureMs };
  }
}

/** The TDMRep file of `origin` (a Promise of `{ body, status, state }`), from isolate memory when fresh. */
export function getTdmrep(origin, env, ctx, fetchFn) {
  const hit = cache.get(origin);
  if (hit?.pending) return hit.pending;
  if (hit && hit.until > Date.now()) {
    hold(origin, hit); // most recently used
    return Promise.resolve(hit.file);
  }
  const pending = fetchFile(origin, env, ctx, fetchFn).then(({ file, ttl }) => {
    hold(origin, { file, until: Date.now() + ttl });
    return file;
  });
  hold(origin, { pending });
  return pending;
}
