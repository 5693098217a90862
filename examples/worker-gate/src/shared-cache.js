// The Cache API (caches.default) in front of a fetch: shared by the isolates of a data centre, so
// a new isolate does not go back to the origin for a robots.txt (robots-cache.js) or a signer for
// its key directory (directory.js), or a site's tdmrep.json (tdmrep-cache.js). Only a 200 (and
// what `statuses` adds: tdmrep.json's 404 and 410, which say the site has none) whose size is
// known and within the limit is stored; the platform's cache honours its Cache-Control, and the time it spent there comes back
// as `Age`, so a copy is never used past its lifetime. Where there is no Cache API (plain workerd
// without a cache service), every call goes to `fetchFn`.

const STORED_AT = 'x-robots-eval-stored-at';

/**
 * Sets `key` in `map` as its most recently used entry, first dropping the least recently used
 * ones (Map order: insertion order) while more than `max` would be held, or while `weigh` (an
 * entry's size) says the entries held pass `maxWeight`; `evicted(value)` is told of each one
 * dropped. Every per-host cache of the gate is bounded this way.
 */
export function setBounded(map, key, value, { max, evicted, weigh, maxWeight = Infinity }) {
  map.delete(key);
  let weight = 0;
  if (weigh) for (const v of map.values()) weight += weigh(v);
  const add = weigh ? weigh(value) : 0;
  for (const [k, v] of map) {
    if (map.size < max && weight + add <= maxWeight) break;
    map.delete(k);
    if (weigh) weight -= weigh(v);
    evicted?.(v);
  }
  map.set(key, value);
}

/** A fetch that goes through caches.default first (when the platform has one), then `fetchFn`. */
export function cachedFetch(ctx, maxBytes, fetchFn = (url, init) => fetch(url, init), statuses = [200]) {
  const shared = globalThis.caches?.default;
  return async (url, init) => {
    // A cache that could not answer is not written to either (no Cache API here, or it is failing):
    // the copy of the body a write needs would be read for nothing.
    let usable = Boolean(shared);
    if (usable) {
      try {
        const hit = await shared.match(url);
        if (hit) {
          const headers = new Headers(hit.headers);
          const storedAt = Number(headers.get(STORED_AT));
          headers.delete(STORED_AT);
          if (storedAt > 0) {
            const age = Number(headers.get('age')) || 0;
            headers.set('age', String(age + Math.max(0, Math.floor((Date.now() - storedAt) / 1000))));
          }
          headers.set('x-robots-eval-cache', 'hit');
          return new Response(hit.body, { status: hit.status, headers });
        }
      } catch {
        // No Cache API here (e.g. workerd without a cache service): the origin it is.
        usable = false;
      }
    }
    const res = await fetchFn(url, init);
    if (usable && statuses.includes(res.status) && !(Number(res.headers.get('content-length')) > maxBytes)) {
      const put = store(shared, url, res.clone(), maxBytes).catch(() => {});
      if (ctx?.waitUntil) ctx.waitUntil(put);
    }
    return res;
  };
}

/** The bytes of a body stream, or null (the rest cancelled) once it passes `maxBytes`. */
export async function readCapped(body, maxBytes) {
  const bytes = await readPrefix(body, maxBytes + 1);
  return bytes.length > maxBytes ? null : bytes;
}

/** The first `n` bytes of a body stream (all of it when shorter); the rest is cancelled. */
export async function readPrefix(body, n) {
  const reader = body.getReader();
  const chunks = [];
  let total = 0;
  while (total < n) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, total);
    chunks.push(value);
    total += value.length;
  }
  reader.cancel().catch(() => {});
  return concat(chunks, total).subarray(0, n);
}

/** The chunks as one array of `total` bytes. */
export function concat(chunks, total) {
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/** Puts a response into the Cache API, unless its body turns out longer than maxBytes. */
async function store(shared, url, res, maxBytes) {
  const body = await readCapped(res.body, maxBytes);
  if (body === null) return;
  const headers = new Headers(res.headers);
  headers.set(STORED_AT, String(Date.now()));
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  await shared.put(url, new Response(body, { status: res.status, headers }));
}
