// The whole state in the URL fragment (never sent to any server).
// Format: #z=<base64url(deflate-raw(JSON))> when CompressionStream exists, else #j=<base64url(JSON)>.

function toB64url(bytes) {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode.apply(null, bytes.subarray(i, i + chunk));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromB64url(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const res = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await res.arrayBuffer());
}

export { toB64url, fromB64url };

/** state: { text, agents: string[], urls: string[], dialect, compare, against: string | null, sel: [row, col] | null, bytes?: Uint8Array } */
export async function encodeState(state) {
  const obj = { v: 1, t: state.text, a: state.agents, u: state.urls, d: state.dialect };
  if (state.compare) obj.c = 1;
  if (typeof state.against === 'string') obj.w = state.against;
  if (state.sel) obj.s = state.sel;
  if (state.bytes) obj.b = toB64url(state.bytes);
  const json = new TextEncoder().encode(JSON.stringify(obj));
  if (typeof CompressionStream === 'function') {
    try {
      return 'z=' + toB64url(await pipe(json, new CompressionStream('deflate-raw')));
    } catch { /* fall through */ }
  }
  return 'j=' + toB64url(json);
}

/** Returns the state, or null when the fragment holds none. Throws on a damaged fragment. */
export async function decodeState(hash) {
  const h = hash.replace(/^#/, '');
  let json;
  if (h.startsWith('z=')) {
    json = await pipe(fromB64url(h.slice(2)), new DecompressionStream('deflate-raw'));
  } else if (h.startsWith('j=')) {
    json = fromB64url(h.slice(2));
  } else {
    return null;
  }
  const o = JSON.parse(new TextDecoder().decode(json));
  const strs = (x) => (Array.isArray(x) ? x.filter((s) => typeof s === 'string') : []);
  return {
    text: typeof o.t === 'string' ? o.t : '',
    agents: strs(o.a),
    urls: strs(o.u),
    dialect: typeof o.d === 'string' ? o.d : 'rfc9309',
    compare: !!o.c,
    against: typeof o.w === 'string' ? o.w : null,
    sel: Array.isArray(o.s) && o.s.length === 2 && o.s.every(Number.isInteger) ? o.s : null,
    bytes: typeof o.b === 'string' ? fromB64url(o.b) : null,
  };
}
