// Writes the committed seed corpus, fuzz/corpus/<target>/seed-*, from the conformance data in
// tests/data (so a plain clone has it, no ../shared needed). Run it again after changing an input
// format in fuzz/src/checks.rs: `node fuzz/seeds.mjs`. Each seed is small (at most 2 KB): the
// fuzzer grows its inputs itself, and the `parse` target makes large files from small ones.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fuzz = dirname(fileURLToPath(import.meta.url));
const data = (name) => JSON.parse(readFileSync(join(fuzz, '..', 'tests', 'data', name), 'utf8'));
const DIALECTS = 5; // DialectId::ALL.len()
const SEP = Buffer.from([0xff, 0xfe]); // the separator of the query, meta and fetch inputs
const MAX = 2048;

/** A field given as `F` (text) or `F_hex` (bytes), as bytes. */
const bytes = (v, f) => (typeof v[f] === 'string' ? Buffer.from(v[f]) : Buffer.from(v[`${f}_hex`] ?? '', 'hex'));

// Every distinct (robots.txt, URL, agent) of the conformance cases, small ones only.
const questions = [];
const seen = new Set();
const cases = [
  ...data('google-robotstxt.json').vectors,
  ...['seeds.json', 'dialects.json', 'peer-kinds.json'].flatMap((f) => data(f).cases),
];
for (const c of cases) {
  const q = { robots: bytes(c, 'robots'), url: bytes(c, 'url'), agent: bytes(c, 'agent') };
  const key = q.robots.toString('hex');
  if (q.robots.length > MAX || seen.has(key)) continue;
  seen.add(key);
  questions.push(q);
}

const seeds = { parse: [], parse_large: [], query: [], differential: [], meta: [], fetch: [], ai_use: [] };
// parse: byte 0 = dialect (byte % 5), 0xF? = a small size cap; the rest is the file.
questions.forEach((q, i) => seeds.parse.push(Buffer.concat([Buffer.from([i % DIALECTS]), q.robots])));
for (const q of questions.slice(0, 3)) seeds.parse.push(Buffer.concat([Buffer.from([0xf3]), q.robots]));
// parse_large: byte 0 = dialect; the rest (up to 256 bytes) is repeated past 17 KB.
questions.filter((q) => q.robots.length <= 256).slice(0, 10).forEach((q, i) => seeds.parse_large.push(Buffer.concat([Buffer.from([i % DIALECTS]), q.robots])));
seeds.parse_large.push(Buffer.from('\x01Disallow: /aaaaaaaa*$', 'latin1')); // no line break: one line past google's cap
// query: byte 0 = dialect, then robots.txt \xFF\xFE URL \xFF\xFE agent.
questions.forEach((q, i) => seeds.query.push(Buffer.concat([Buffer.from([i % DIALECTS]), q.robots, SEP, q.url, SEP, q.agent])));
// differential: the bytes are the model's choices; any bytes make a file. A fixed PRNG, so the
// seeds do not change from run to run of this script.
let x = 0x9e3779b97f4a7c15n;
const next = () => {
  x ^= x << 13n; x &= (1n << 64n) - 1n; x ^= x >> 7n; x ^= x << 17n; x &= (1n << 64n) - 1n;
  return Number(x & 0xffn);
};
for (const len of [8, 16, 32, 64, 96, 128, 192, 256, 384, 512]) {
  for (const first of [0, 1]) seeds.differential.push(Buffer.from([first, ...Array.from({ length: len }, next)]));
}
// meta: HTML \xFF\xFE agent \xFF\xFE X-Robots-Tag values, one per line.
const heads = [
  '<html><head><meta name="robots" content="noindex,nofollow"><title>t</title></head><body>x</body></html>',
  '<!doctype html><head><meta name=googlebot content="nosnippet, max-snippet:20"><meta name=robots content=all></head>',
  "<head><meta content='noarchive' name='ROBOTS'/><!-- <meta name=robots content=noindex> --><script>x='</head>'</script></head>",
  '<head><meta name="robots" content="noindex&#44;nofollow"><meta name="otherbot" content="none"></head>',
  '<head><meta name="robots" content="max-image-preview:large, unavailable_after: 25 Jun 2030 15:00:00 PST"></head>',
];
const agents = ['googlebot', 'otherbot', 'Mozilla/5.0 (compatible; Googlebot/2.1)', ''];
const tags = ['noindex', 'googlebot: nofollow, noarchive', 'otherbot: none\nmax-snippet: -1', 'unavailable_after: Wed, 03 Dec 2031 12:00:00 GMT', ''];
heads.forEach((h, i) => seeds.meta.push(Buffer.concat([Buffer.from(h), SEP, Buffer.from(agents[i % agents.length]), SEP, Buffer.from(tags[i])])));
// fetch: 16 bytes (dialect, outcome, status LE, now s LE, unreachable since s LE, flags, redirects,
// 2 spare), then Retry-After, Cache-Control, Expires, Date, Age separated by \xFF\xFE.
const head16 = (dialect, outcome, status, now, since, flags, redirects) => {
  const b = Buffer.alloc(16);
  b[0] = dialect; b[1] = outcome; b.writeUInt16LE(status, 2); b.writeUInt32LE(now, 4); b.writeUInt32LE(since, 8);
  b[12] = flags; b[13] = redirects;
  return b;
};
const NOW = 1_790_000_000; // 2026, in seconds
const fetches = [
  [0, 0, 200, 0, 0, '', 'max-age=3600', '', 'Wed, 25 Nov 2026 10:00:00 GMT', '120'],
  [1, 0, 503, 1, 2, '120', 'no-cache', '', '', ''],
  [1, 0, 429, 3, 0, 'Wed, 25 Nov 2026 12:00:00 GMT', 's-maxage=60, private', '', '', ''],
  [2, 0, 401, 0, 0, '', '', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', ''],
  [0, 1, 0, 5, 0, '', 'max-age=99999999999999999999', 'Sun Nov  6 08:49:37 1994', '', '4294967296'],
  [3, 2, 0, 2, 0, '-1', 'max-age="10", must-revalidate', 'garbage', '', ''],
  [4, 3, 301, 0, 9, '', '', '', '', ''],
  [0, 0, 304, 2, 1, '', 'immutable', '', '', '0'],
];
for (const [d, outcome, status, flags, redirects, ...h] of fetches) {
  const parts = h.flatMap((v, i) => (i ? [SEP, Buffer.from(v)] : [Buffer.from(v)]));
  seeds.fetch.push(Buffer.concat([head16(d, outcome, status, NOW, NOW - 86_400 * 3, flags, redirects), ...parts]));
}

// aipref: the statements of the AI-preference vectors: header field values, and the values of
// their Content-Usage and Content-Signal lines.
const statements = data('ai-preferences.json').cases.flatMap((c) => [
  ...[c.header ?? []].flat(),
  ...(c.robots ?? '').split('\n').filter((l) => /^content-(usage|signal)\s*:/i.test(l)).map((l) => l.replace(/^[^:]*:\s*/, '')),
]);
seeds.aipref = [...new Set(statements)].map((s) => Buffer.from(s));

// ai_use: tdmrep.json \xFF\xFE HTML \xFF\xFE headers (name: value per line) \xFF\xFE robots.txt
// \xFF\xFE agent \xFF\xFE URL, from the AI-use cases (the small ones).
for (const c of ['ai-use-examples.json', 'ai-use-project.json'].flatMap((f) => data(f).cases)) {
  const headers = (c.headers ?? []).map(([n, v]) => `${n}: ${v}`).join('\n');
  const parts = [c.tdmrep ?? '', c.html ?? '', headers, c.robots ?? '', c.agent, c.url].map((p) => Buffer.from(p));
  const seed = Buffer.concat(parts.flatMap((p, i) => (i ? [SEP, p] : [p])));
  if (seed.length <= 8192) seeds.ai_use.push(seed);
}

for (const [target, list] of Object.entries(seeds)) {
  const dir = join(fuzz, 'corpus', target);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith('seed-')) rmSync(join(dir, f));
  list.forEach((b, i) => writeFileSync(join(dir, `seed-${String(i).padStart(3, '0')}`), b));
  const size = list.reduce((n, b) => n + b.length, 0);
  console.log(`${target}: ${list.length} seeds, ${size} bytes`);
}
