// Key directories (draft-ietf-webbotauth-httpsig-protocol-01, "Key Distribution and Discovery"):
// the JWK Set a signer names in Signature-Agent, fetched so that a signer cannot make the gate
// fetch inside a network ("Server-Side Request Forgery"): https only, port 443, no user info, no
// IP literal, no private-use name; no redirect followed; a size cap, a key-count cap and a
// timeout. The checks run on the URL the signer named, before any fetch, whatever fetch function
// carries it. Keys are indexed by their RFC 7638 thumbprint (the `keyid`), computed here rather
// than read from `kid`. Directories are cached for their Cache-Control lifetime in isolate memory
// and, through the Cache API, per data centre; a failure is cached briefly and never evicts keys
// the gate already holds (the draft's "Discovery Failure"), and keys held serve while a refresh
// runs or cannot start.
import { PrefixSet, parseAddress } from './ip-prefixes.js';
import { cachedFetch, readCapped } from './shared-cache.js';

export const WELL_KNOWN = '/.well-known/http-message-signatures-directory';
export const DIRECTORY_MAX_BYTES = 64 * 1024;
export const DIRECTORY_MAX_KEYS = 32;
const DEFAULT_TTL_MS = 3600_000; // no Cache-Control: an hour
const MIN_TTL_MS = 60_000;
const MAX_TTL_MS = 24 * 3600_000;
// The draft's "Negative Caching and Retry": no more than five minutes.
export const FAILURE_TTL_MS = 60_000;
// Keys of a directory that has since failed stay usable this long past their lifetime.
const STALE_MS = 24 * 3600_000;
// Signers choose the URLs, so what an unknown signer can make the gate hold or fetch is bounded:
// directories held per isolate (least recently used first out), and per host name; fetches in
// flight, and per host name, so that one signer's names cannot take every slot. The directories
// of configured signers (SIGNATURE_AGENTS) are kept apart: never evicted by others, fetched
// outside these budgets (one fetch each at a time), so no flood of made-up names starves them.
export const MAX_DIRECTORIES = 1000;
export const MAX_HOST_DIRECTORIES = 4;
export const MAX_FETCHES = 16;
export const MAX_HOST_FETCHES = 2;
let fetching = 0;
const fetchingHost = new Map(); // host -> fetches in flight

// Special-purpose addresses (IANA IPv4 and IPv6 Special-Purpose Address Registries, RFC 6890):
// this network, private use, shared (CGN), loopback, link-local, IETF protocol assignments,
// documentation, benchmarking, multicast, reserved, broadcast; unique local, site-local, NAT64 and
// 6to4 (which carry an IPv4 address), discard, ORCHID, documentation. IPv4-mapped IPv6 is
// looked up as IPv4 (ip-prefixes.js).
const SPECIAL = new PrefixSet([
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/3',
  '::/127', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8',
]);
// Names that reach inside a network, never the public Internet: RFC 6761 localhost, RFC 6762
// .local (mDNS), RFC 8375 home.arpa, ICANN's .internal (2024), reverse-DNS zones; and any name
// of one label (resolved through a search domain).
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|home\.arpa|in-addr\.arpa|ip6\.arpa)$/;

/**
 * Why the gate refuses to fetch `url` (a reason code), or null when it may: the draft's SSRF
 * precautions. `url` is a URL object (WHATWG parsing has already turned 0x7f.1, 2130706433 and
 * 017700000001 into 127.0.0.1, and ::ffff:127.0.0.1 into [::ffff:7f00:1]).
 */
export function refusal(url) {
  if (url.protocol !== 'https:') return 'directory-not-https';
  if (url.username !== '' || url.password !== '') return 'directory-credentials';
  if (url.port !== '') return 'directory-port';
  const host = url.hostname.replace(/\.$/, '');
  const address = parseAddress(host);
  if (address !== null) return SPECIAL.hasParsed(address) ? 'directory-private-address' : 'directory-ip-literal';
  if (!host.includes('.') || PRIVATE_NAMES.test(host)) return 'directory-private-name';
  return null;
}

/**
 * Where a Signature-Agent member sends the gate: `{ url, id, wellKnown }` or `{ refused }`. An
 * origin (no path) means its well-known directory; any other URL is the directory itself. `id`:
 * the identifier the draft defines (the URL without its query), `wellKnown`: the directory is the
 * origin's well-known one, so its keys are bound to the origin (the draft's "Binding a Key to a
 * Web Origin").
 */
export function directoryOf(member) {
  let url;
  try {
    url = new URL(member);
  } catch {
    return { refused: 'signature-agent-not-url' };
  }
  const refused = refusal(url);
  if (refused) return { refused };
  if (url.pathname === '/' && url.search === '') url = new URL(WELL_KNOWN, url);
  url.hash = '';
  const id = `${url.origin}${url.pathname}`;
  return { url: url.href, id, origin: url.origin, wellKnown: url.pathname === WELL_KNOWN };
}

// Reasons that come from the URL alone, before any fetch.
const URL_REFUSALS = new Set(['directory-not-https', 'directory-credentials', 'directory-port', 'directory-private-address', 'directory-ip-literal', 'directory-private-name']);

/**
 * A reason as the client is told it (the 403's header): a directory's failures coarse, so that the
 * gate's answers are no probe of what its network reaches (`directory-timeout` against
 * `directory-status` against `directory-unreachable` would say which names answer, and how):
 * `directory-refused` (the URL is not one the gate fetches) or `directory-unavailable`. The site
 * owner's record (Analytics Engine, the report-only log) keeps the precise reason.
 */
export function publicReason(reason) {
  if (!reason.startsWith('directory-')) return reason;
  return URL_REFUSALS.has(reason) ? 'directory-refused' : 'directory-unavailable';
}

class DirectoryError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * A JWK's RFC 7638 thumbprint: base64url SHA-256 of the JSON of its required members in
 * lexicographic order, no whitespace (OKP: crv, kty, x - RFC 8037 A.3; RSA: e, kty, n).
 */
export async function thumbprint(jwk) {
  const canonical = jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
    : jwk.kty === 'RSA' ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
      : jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : null;
  if (canonical === null || Object.values(canonical).some((v) => typeof v !== 'string')) return null;
  return b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(canonical))));
}

/**
 * A verification key from a JWK: `{ key, alg }` with `alg` the RFC 9421 algorithm name, or null
 * for a key this gate does not verify with. Ed25519 (the draft's), and RSASSA-PSS SHA-512 (the
 * draft's other test vectors) when the JWK says PS512 or no `alg`.
 */
async function importKey(jwk) {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string') {
    return { key: await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']), alg: 'ed25519' };
  }
  if (jwk.kty === 'RSA' && (jwk.alg === undefined || jwk.alg === 'PS512') && typeof jwk.n === 'string' && typeof jwk.e === 'string') {
    return { key: await crypto.subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e }, { name: 'RSA-PSS', hash: 'SHA-512' }, false, ['verify']), alg: 'rsa-pss-sha512' };
  }
  return null;
}

/** The keys of a JWK Set document: Map(thumbprint -> { key, alg }). */
export async function directoryKeys(doc) {
  if (!Array.isArray(doc?.keys)) throw new DirectoryError('directory-not-jwks');
  if (doc.keys.length > DIRECTORY_MAX_KEYS) throw new DirectoryError('directory-too-many-keys');
  const keys = new Map();
  for (const jwk of doc.keys) {
    if (jwk === null || typeof jwk !== 'object') continue;
    try {
      const imported = await importKey(jwk);
      const id = imported && (await thumbprint(jwk));
      if (id) keys.set(id, imported);
    } catch {
      // A malformed key is skipped ("A verifier SHOULD validate the directory format and reject
      // malformed entries"); the others stay usable.
    }
  }
  if (keys.size === 0) throw new DirectoryError('directory-no-keys');
  return keys;
}

/** The lifetime Cache-Control gives a response (less its Age), clamped; DEFAULT_TTL_MS without one. */
function lifetime(res) {
  const cc = res.headers.get('cache-control') ?? '';
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(cc)) return MIN_TTL_MS;
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cc);
  if (!m) return DEFAULT_TTL_MS;
  const ms = (Number(m[1]) - (Number(res.headers.get('age')) || 0)) * 1000;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ms));
}

/** Fetches and reads one directory: `{ keys, ttl }`, or throws a DirectoryError. */
async function fetchDirectory(url, fetchFn, timeoutMs) {
  const signal = AbortSignal.timeout(timeoutMs);
  let text;
  let res;
  try {
    res = await fetchFn(url, {
      redirect: 'manual',
      signal,
      headers: { accept: 'application/http-message-signatures-directory+json, application/jwk-set+json;q=0.9, application/json;q=0.8' },
    });
    if (res.status !== 200) {
      res.body?.cancel().catch(() => {});
      // "MUST NOT automatically follow HTTP redirects"; any other status is a discovery failure.
      throw new DirectoryError(res.status >= 300 && res.status < 400 ? 'directory-redirect' : 'directory-status');
    }
    const bytes = Number(res.headers.get('content-length')) > DIRECTORY_MAX_BYTES ? null : await readCapped(res.body, DIRECTORY_MAX_BYTES);
    if (bytes === null) {
      res.body?.cancel().catch(() => {});
      throw new DirectoryError('directory-too-large');
    }
    text = new TextDecoder().decode(bytes);
  } catch (e) {
    if (e instanceof DirectoryError) throw e;
    throw new DirectoryError(signal.aborted ? 'directory-timeout' : 'directory-unreachable');
  }
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new DirectoryError('directory-not-json');
  }
  return { keys: await directoryKeys(doc), ttl: lifetime(res) };
}

// The directories of unknown signers (id -> entry, least recently used first), how many each host
// has, and the configured signers' (never evicted). An entry: { keys?, until, fetchedAt, reason?,
// retryAt, pending? }.
const directories = new Map();
const hostDirectories = new Map(); // host -> entries in `directories`
const pinned = new Map();

/** How many directories this isolate holds: `{ unknown, pinned, fetching }` (the state test reads it). */
export function directoryState() {
  return { unknown: directories.size, pinned: pinned.size, hosts: hostDirectories.size, fetching };
}

const hostOf = (id) => new URL(id).host;

/** Holds `entry` as `id`'s, evicting the least recently used unknown directory (of its host first) past the bounds. */
function hold(id, entry, isPinned) {
  if (isPinned) {
    pinned.set(id, entry);
    return;
  }
  const host = hostOf(id);
  if (!directories.has(id)) {
    if ((hostDirectories.get(host) ?? 0) >= MAX_HOST_DIRECTORIES) {
      for (const other of directories.keys()) if (hostOf(other) === host) { drop(other); break; }
    }
    if (directories.size >= MAX_DIRECTORIES) drop(directories.keys().next().value);
    hostDirectories.set(host, (hostDirectories.get(host) ?? 0) + 1);
  }
  directories.delete(id);
  directories.set(id, entry);
}

function drop(id) {
  if (!directories.delete(id)) return;
  const host = hostOf(id);
  const n = hostDirectories.get(host) - 1;
  if (n > 0) hostDirectories.set(host, n);
  else hostDirectories.delete(host);
}

/**
 * The key with thumbprint `keyid` in the directory `dir` (directoryOf: its `url`, fetched, and
 * its `id`, the URL without its query, which keys the cache): `{ key, alg }`, or `{ reason }`
 * when the gate cannot have it (a failure code, or `unknown-key`: the directory answered without
 * it). `pinnedIds`: the ids of configured signers' directories. A `keyid` the cached copy lacks
 * refetches the directory (a key rotation), at most once per FAILURE_TTL_MS. Concurrent requests
 * for one directory share one fetch, and while it runs keys the gate already holds (even past
 * their lifetime, for STALE_MS) answer at once; when the budgets are spent a directory is not
 * fetched (`directory-busy`) and held keys answer too.
 */
export async function directoryKey(dir, keyid, { fetch: fetchFn, now, ctx, timeoutMs, pinnedIds }) {
  const isPinned = pinnedIds?.has(dir.id) === true;
  let entry = isPinned ? pinned.get(dir.id) : directories.get(dir.id);
  if (entry && !isPinned) hold(dir.id, entry, false); // most recently used
  const fresh = entry?.keys && entry.until > now;
  if (fresh && entry.keys.has(keyid)) return entry.keys.get(keyid);
  // Keys past their lifetime serve while the directory cannot be fetched, for STALE_MS.
  const held = entry?.keys?.get(keyid) && entry.until + STALE_MS > now ? entry.keys.get(keyid) : null;
  if (!entry?.pending && (!entry || (entry.retryAt <= now && (!fresh || entry.fetchedAt + FAILURE_TTL_MS <= now)))) {
    const host = hostOf(dir.id);
    if (!isPinned && (fetching >= MAX_FETCHES || (fetchingHost.get(host) ?? 0) >= MAX_HOST_FETCHES)) return held ?? { reason: 'directory-busy' };
    entry = refresh(dir, entry, isPinned, fetchFn, now, ctx, timeoutMs);
  }
  if (entry.pending) {
    if (held) return held;
    entry = await entry.pending;
  }
  const key = entry.keys?.get(keyid);
  if (key && entry.until + STALE_MS > now) return key;
  return { reason: entry.reason ?? 'unknown-key' };
}

/** Starts fetching `dir` (the entry now holds the pending fetch); returns the entry. */
function refresh(dir, old, isPinned, fetchFn, now, ctx, timeoutMs) {
  const host = hostOf(dir.id);
  if (!isPinned) {
    fetching++;
    fetchingHost.set(host, (fetchingHost.get(host) ?? 0) + 1);
  }
  const pending = fetchDirectory(dir.url, cachedFetch(ctx, DIRECTORY_MAX_BYTES, fetchFn), timeoutMs).then(
    ({ keys, ttl }) => ({ keys, until: now + ttl, fetchedAt: now, retryAt: now }),
    // A failure keeps the keys the gate holds (an outage must not revoke them) and is not retried
    // for FAILURE_TTL_MS.
    (e) => ({ keys: old?.keys, until: old?.until ?? 0, fetchedAt: old?.fetchedAt ?? now, reason: e.reason ?? 'directory-unreachable', retryAt: now + FAILURE_TTL_MS }),
  ).then((done) => {
    if (!isPinned) {
      fetching--;
      const n = fetchingHost.get(host) - 1;
      if (n > 0) fetchingHost.set(host, n);
      else fetchingHost.delete(host);
      // Replace the entry only if it is still held (it may have been evicted meanwhile).
      if (directories.get(dir.id) === entry) hold(dir.id, done, false);
    } else {
      pinned.set(dir.id, done);
    }
    return done;
  });
  const entry = { ...(old ?? { until: 0, fetchedAt: 0, retryAt: 0 }), pending };
  hold(dir.id, entry, isPinned);
  ctx?.waitUntil?.(pending);
  return entry;
}
