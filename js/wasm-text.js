// The .wasm files inside the JavaScript, as text that compresses as well as the .wasm itself
// (js/load-embedded.js decodes it; scripts/build-pkg.mjs encodes it). Base64 hides the module's
// repeats from gzip and brotli: a repeated run of bytes becomes one of three different texts,
// by its offset mod 3, so base64 made the verdict module's 28.9 KB of gzip 37.4 KB inside a
// bundle. Here each byte is one or two characters of its own, so every repeat stays a repeat: the
// bytes, ranked by how often the module uses them, are written as one printable ASCII character
// (the 89 most frequent) or a prefix (`|` or `}`) and one (the rest); the text is about as long as
// the .wasm, and gzips to no more (28.8 KB). The characters are printable ASCII but `"`, `\` and
// `<`, which a string literal or an HTML page would escape, and `~`. A loop in WebAssembly decodes
// it (js/wasm-text.wat): the same loop in JavaScript cost a cold process 8 ms.

const PREFIXES = [0x7c, 0x7d]; // '|', '}'

/** Each character's rank among the one-character codes, -1 for the prefixes and the others. */
function digits() {
  const digit = new Int16Array(128).fill(-1);
  let n = 0;
  for (let c = 0x20; c < 0x7f; c++) {
    // (The one-character codes are all below the prefixes: the decoder tells them apart with one
    // comparison.)
    if (c < PREFIXES[0] && c !== 0x22 && c !== 0x5c && c !== 0x3c) digit[c] = n++;
  }
  return { digit, n };
}

/**
 * js/wasm-text.wat, assembled (scripts/build-pkg.mjs checks that these are wasm-as's bytes for
 * it): d(src, dst, end) decodes the text at `src` into the bytes from `dst` to `end`.
 */
const DECODER = Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 3, 127, 127, 127, 0, 2, 8, 1, 1, 109, 1, 109, 2, 0, 1, 3, 2, 1, 0, 7, 5, 1, 1, 100, 0, 0, 10, 80, 1, 78, 1, 1, 127, 3, 64, 32, 0, 45, 0, 0, 33, 3, 32, 3, 65, 252, 0, 79, 4, 64, 32, 3, 65, 251, 0, 107, 65, 7, 116, 32, 0, 45, 0, 1, 106, 33, 3, 32, 0, 65, 1, 106, 33, 0, 11, 32, 0, 65, 1, 106, 33, 0, 32, 1, 32, 3, 45, 0, 0, 58, 0, 0, 32, 1, 65, 1, 106, 33, 1, 32, 1, 32, 2, 73, 13, 0, 11, 11);

/**
 * The byte of each rank, from the bytes of the one-character codes (`head`, the most frequent
 * first): the other bytes follow in ascending order. Their order makes no code shorter (each is a
 * prefix and one character), so only the head is stored: 90 numbers instead of 256, some 380 B
 * less gzip in every bundle.
 */
function ranked(head) {
  const rest = [];
  for (let b = 0; b < 256; b++) if (!head.includes(b)) rest.push(b);
  return head.concat(rest);
}

/** The module's bytes from `text`; `head`: the bytes of the one-character codes (see `ranked`); `length`: the byte length. */
export function decodeWasmText(text, head, length) {
  const { digit, n } = digits();
  const order = ranked(head);
  // The decoder's memory: its map of codes to bytes (384 bytes), the text, the module's bytes.
  const src = 384;
  const dst = src + text.length;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((dst + length) / 65536) });
  const bytes = new Uint8Array(memory.buffer);
  digit.forEach((d, c) => {
    if (d < 0) return;
    bytes[c] = order[d];
    bytes[128 + c] = order[n + d] ?? 0;
    bytes[256 + c] = order[2 * n + d] ?? 0;
  });
  new TextEncoder().encodeInto(text, bytes.subarray(src, dst));
  new WebAssembly.Instance(new WebAssembly.Module(DECODER), { m: { m: memory } }).exports.d(src, dst, dst + length);
  return bytes.subarray(dst, dst + length);
}

/** Build time: `{ text, order }` for `bytes` (scripts/build-pkg.mjs); `order`: the head `ranked` completes. */
export function encodeWasmText(bytes) {
  const { digit, n } = digits();
  const chars = [];
  digit.forEach((d, c) => { if (d >= 0) chars[d] = String.fromCharCode(c); });
  const count = new Array(256).fill(0);
  for (const b of bytes) count[b]++;
  const head = [...Array(256).keys()].sort((a, b) => count[b] - count[a] || a - b).slice(0, n);
  const order = ranked(head);
  const rank = new Array(256);
  order.forEach((b, r) => { rank[b] = r; });
  let text = '';
  for (const b of bytes) {
    const r = rank[b];
    text += r < n ? chars[r] : String.fromCharCode(PREFIXES[r < 2 * n ? 0 : 1]) + chars[(r - n) % n];
  }
  return { text, order: head };
}
