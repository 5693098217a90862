// Key directories (draft-ietf-webbotauth-httpsig-protocol-01, "Key Distribution and Discovery"):
// the JWK Set a signer names in Signature-Agent, fetched so that a signer cannot make the gate
// fetch inside a network ("Server-Side Request Forgery"): https only, port 443, no user info, no
// IP literal, no private-use name; no redirect followed; a size cap, a key-count cap and a
// timeout. The checks run on the URL the signer named, before any fetch, whatever fetch function
// carries it. Keys are indexed by their RFC 7638 thumbprint (the `keyid`), computed here rather
// than read from `kid`. Directories are cached for their Cache-Control lifetime in isolate memory
// and, through the Cache API, per data centre; a failure is cached briefly and never evicts keys
// the gate already holds (the draft's "Discovery Failure").
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
// Signers choose the URLs: directories held per isolate, and fetches in flight, are bounded so
// that a flood of made-up names can neither fill memory nor turn the gate into a fetch cannon.
export const MAX_DIRECTORIES = 1000;
export const MAX_FETCHES = 16;
let fetching = 0;

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

const directories = new Map(); // url -> { keys?, until, fetchedAt, reason?, retryAt, pending? }

/**
 * The key with thumbprint `keyid` in the directory at `url`: `{ key, alg }`, or `{ reason }` when
 * the gate cannot have it (a failure code, or `unknown-key`: the directory answered without it).
 * A `keyid` the cached copy lacks refetches the directory (a key rotation), at most once per
 * FAILURE_TTL_MS. Concurrent requests for one directory share one fetch; beyond MAX_FETCHES
 * directories in flight, a new one is not fetched (`directory-busy`).
 */
export async function directoryKey(url, keyid, { fetch: fetchFn, now, ctx, timeoutMs }) {
  let entry = directories.get(url);
  const fresh = entry?.keys && entry.until > now;
  if (fresh && entry.keys.has(keyid)) return entry.keys.get(keyid);
  if (entry?.pending) {
    entry = await entry.pending;
  } else if (!entry || (entry.retryAt <= now && (!fresh || entry.fetchedAt + FAILURE_TTL_MS <= now))) {
    if (fetching >= MAX_FETCHES) return { reason: 'directory-busy' };
    entry = await refresh(url, entry, fetchFn, now, ctx, timeoutMs);
  }
  const key = entry.keys?.get(keyid);
  // Keys past their lifetime serve while the directory cannot be fetched, for STALE_MS.
  if (key && entry.until + STALE_MS > now) return key;
  return { reason: entry.reason ?? 'unknown-key' };
}

function refresh(url, old, fetchFn, now, ctx, timeoutMs) {
  fetching++;
  const pending = fetchDirectory(url, cachedFetch(ctx, DIRECTORY_MAX_BYTES, fetchFn), timeoutMs).then(
    ({ keys, ttl }) => ({ keys, until: now + ttl, fetchedAt: now, retryAt: now }),
    // A failure keeps the keys the gate holds (an outage must not revoke them) and is not retried
    // for FAILURE_TTL_MS.
    (e) => ({ keys: old?.keys, until: old?.until ?? 0, fetchedAt: old?.fetchedAt ?? now, reason: e.reason ?? 'directory-unreachable', retryAt: now + FAILURE_TTL_MS }),
  ).then((entry) => {
    fetching--;
    directories.set(url, entry);
    return entry;
  });
  // The oldest entry makes room (Map order is insertion order; a refreshed entry is reinserted).
  directories.delete(url);
  if (directories.size >= MAX_DIRECTORIES) directories.delete(directories.keys().next().value);
  directories.set(url, { ...(old ?? { until: 0, fetchedAt: 0, retryAt: 0 }), pending });
  ctx?.waitUntil?.(pending);
  return pending;
}
