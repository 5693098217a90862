// Replay protection for Web Bot Auth signatures (RFC 9421 §7.2.2; the draft leaves it to
// deployments): a verified signature is used once within its validity window. The key is the
// signer's `nonce` when it sends one (unique per signer within the window, so a nonce-bearing
// signature is single-use whatever request it is replayed on), else the signature's bytes with
// the request's method and target (the same request sent again; a signature that covers only
// `@authority` and carries no nonce can still be moved to another path: SIGNATURE_COVERAGE =
// "request" refuses those, README.md).
//
// Where the keys are kept, strongest first:
// - NONCE_STORE, a Durable Object namespace (NonceStore below): one object per signer, so every
//   isolate and data centre sees every use, and one signer's volume fills only its own store;
// - NONCE_KV, a KV namespace: every isolate sees a use once KV has propagated it (KV is eventually
//   consistent: a replay within about a minute, in another data centre, can pass);
// - always, this isolate's memory (bounded below), which also spares the stores a round trip for
//   a replay to the same isolate.
// A store that cannot answer leaves the signature unused (`replay-store-unavailable`: the request
// goes on as unsigned), never a verified identity that was not checked.

// Keys held in isolate memory, at most; past it, expired keys go first, then the oldest.
export const MEMORY_MAX_KEYS = 20_000;
// Keys one signer's Durable Object holds, at most: past it (after dropping expired ones) that
// signer's new signatures are refused as `replay-store-full`: only its own volume fills it.
export const SIGNER_MAX_KEYS = 100_000;

const memory = new Map(); // key -> until (ms)

/** The isolate's entry for `key`: true when it was unused (now recorded until `until`), false when seen. */
function rememberLocally(key, until, now) {
  const seen = memory.get(key);
  if (seen !== undefined && seen > now) return false;
  memory.delete(key);
  if (memory.size >= MEMORY_MAX_KEYS) {
    // Map order is insertion order: the oldest first. Drop the expired among the oldest, then
    // the oldest itself, so one insertion costs O(1) amortized.
    for (const [k, t] of memory) {
      if (memory.size < MEMORY_MAX_KEYS && t > now) break;
      memory.delete(k);
    }
  }
  memory.set(key, until);
  return true;
}

/** How many keys this isolate holds (the state test reads it). */
export function memoryKeys() {
  return memory.size;
}

const encoder = new TextEncoder();
// A key longer than this is replaced by its SHA-256 digest (KV keys are at most 512 bytes). Most
// keys are shorter, and need no digest: WebCrypto's digest is asynchronous, a thread-pool round
// trip in Node, as long as the Ed25519 verification itself on a loaded machine.
const RAW_MAX = 400;

/** `text` as a key: itself when short (`r:`), else its SHA-256, base64url (`h:`). */
async function keyOf(text) {
  if (text.length <= RAW_MAX) return `r:${text}`;
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return `h:${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/**
 * The replay key of a verified signature: its signer (directory id), key and nonce; or, without
 * a nonce, its bytes and the request's method and target. Nonces and key ids are Structured Field
 * strings (no newline), directory ids URLs: the fields cannot run into each other.
 */
export function replayKey(signer, keyid, nonce, signature, method, url) {
  if (nonce !== undefined) return keyOf(`n\n${signer}\n${keyid}\n${nonce}`);
  return keyOf(`s\n${signer}\n${btoa(String.fromCharCode(...signature))}\n${method} ${url.pathname}${url.search}`);
}

/**
 * Whether the signature with replay key `key` (replayKey) is used for the first time: `null` when
 * it is, else the reason it is not (`replayed`: seen within its window; `replay-store-full`,
 * `replay-store-unavailable`: the bound store could not record it). `until`: when the signature
 * stops being valid (ms); `signer`: the signer's directory id (the Durable Object it goes to).
 */
export async function firstUse(key, until, signer, env, now) {
  if (memory.get(key) > now) return 'replayed';
  try {
    if (env.NONCE_STORE) {
      const stub = env.NONCE_STORE.get(env.NONCE_STORE.idFromName(signer));
      const res = await stub.fetch('https://nonce-store/use', { method: 'POST', body: JSON.stringify({ key, until }) });
      const { outcome } = await res.json();
      if (outcome !== 'first-use') return outcome === 'replayed' || outcome === 'replay-store-full' ? outcome : 'replay-store-unavailable';
    } else if (env.NONCE_KV) {
      if ((await env.NONCE_KV.get(`nonce:${key}`)) !== null) return 'replayed';
      // KV's shortest lifetime is a minute.
      await env.NONCE_KV.put(`nonce:${key}`, '1', { expirationTtl: Math.max(60, Math.ceil((until - now) / 1000)) });
    }
  } catch (e) {
    console.error(`worker-gate: replay store: ${e?.message ?? e}`);
    return 'replay-store-unavailable';
  }
  return rememberLocally(key, until, now) ? null : 'replayed';
}

/**
 * The Durable Object behind NONCE_STORE: one per signer (idFromName of its directory id). It
 * holds the keys of that signer's signatures until each one's validity ends, in memory and in
 * its storage (so a restart forgets nothing), at most SIGNER_MAX_KEYS; expired keys are dropped
 * when room is needed and by an alarm. Requests to one object run one at a time, so a key is
 * never recorded twice. `POST { key, until }` -> `{ outcome: 'first-use' | 'replayed' |
 * 'replay-store-full' }`.
 */
export class NonceStore {
  constructor(state) {
    this.state = state;
    this.keys = new Map(); // key -> until (ms)
    state.blockConcurrencyWhile(async () => {
      const now = Date.now();
      for (const [key, until] of await state.storage.list()) if (until > now) this.keys.set(key, until);
    });
  }

  async fetch(request) {
    const { key, until } = await request.json();
    const now = Date.now();
    if (typeof key !== 'string' || !Number.isFinite(until)) return Response.json({ outcome: 'bad-request' }, { status: 400 });
    if (this.keys.get(key) > now) return Response.json({ outcome: 'replayed' });
    if (this.keys.size >= SIGNER_MAX_KEYS) await this.sweep(now);
    if (this.keys.size >= SIGNER_MAX_KEYS) return Response.json({ outcome: 'replay-store-full' });
    this.keys.set(key, until);
    await this.state.storage.put(key, until);
    if ((await this.state.storage.getAlarm()) === null) await this.state.storage.setAlarm(until);
    return Response.json({ outcome: 'first-use' });
  }

  /** Drops the expired keys, from memory and storage. */
  async sweep(now) {
    const expired = [];
    for (const [key, until] of this.keys) if (until <= now) expired.push(key);
    for (const key of expired) this.keys.delete(key);
    // storage.delete takes at most 128 keys at a time.
    for (let i = 0; i < expired.length; i += 128) await this.state.storage.delete(expired.slice(i, i + 128));
  }

  async alarm() {
    const now = Date.now();
    await this.sweep(now);
    let next = Infinity;
    for (const until of this.keys.values()) next = Math.min(next, until);
    if (next !== Infinity) await this.state.storage.setAlarm(Math.max(next, now + 60_000));
  }
}
