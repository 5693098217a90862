#!/usr/bin/env node
// The gate's CPU time per request, and a cold isolate's first request. The Worker (src/, bundled
// as wrangler bundles it: the package's `workerd` build, the .wasm as a module compiled ahead of
// time, as Cloudflare compiles it at deploy) runs in Node's V8, in front of a real origin server
// on 127.0.0.1. What is timed does no I/O: robots.txt is already cached (warm) or comes from the
// Cache API (cold), so the time is CPU time on this thread. Not a test: the figures depend on
// the machine; compare rows of one run, not runs of different machines.
//
// Identity (src/identity.js) is timed too: verifying a signed request whose key is cached, and
// the address check of a claim against a list of 5,000 prefixes. With `--baseline REV`, the
// gate of git revision REV is bundled the same way and browser requests are timed through both,
// interleaved, in this one run, and so are the AI crawler requests (with AI_PREFERENCES =
// "enforce": what robots.txt and the site's tdmrep.json say, before the origin is asked; the
// page's headers and head are read in workerd only, Node has no HTMLRewriter).
//
//   npm run build                        # at the repository root (pkg/), once
//   cd examples/worker-gate && npm install
//   node bench.mjs [requests] [isolates] [--baseline REV]   # default 10000 per kind, 200 isolates
import { execFileSync } from 'node:child_process';
import { sign } from 'node:crypto';
import { createServer } from 'node:http';
import { readFileSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Robots } from 'robots-eval/rich';
import { identify } from './src/identity.js';
import { PrefixSet } from './src/ip-prefixes.js';
import { newKey, signedHeaders } from './test/signer.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const BASELINE = baselineAt >= 0 ? args.splice(baselineAt, 2)[1] : null;
const N = Number(args[0]) || 10000;
const ISOLATES = Number(args[1]) || 200;

// The bundle; its .wasm import is the module compiled once here (deploy time, not timed).
const WASM = Symbol.for('worker-gate-bench.wasm');
const out = mkdtempSync(join(tmpdir(), 'worker-gate-bench-'));
/** Bundles the gate whose entry is `entry` to `outfile` (imports resolved from this example's node_modules). */
async function bundleGate(entry, outfile) {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    nodePaths: [join(here, 'node_modules')],
    outfile,
    logLevel: 'warning',
    plugins: [{
      name: 'precompiled-wasm',
      setup(b) {
        b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: join(args.resolveDir, args.path), namespace: 'wasm' }));
        b.onLoad({ filter: /.*/, namespace: 'wasm' }, (args) => {
          // One entry per .wasm file (the package has four: the verdict, policy, rich and AI-use modules).
          const name = basename(args.path);
          (globalThis[WASM] ??= {})[name] = new WebAssembly.Module(readFileSync(args.path));
          return { contents: `export default globalThis[Symbol.for("worker-gate-bench.wasm")][${JSON.stringify(name)}];`, loader: 'js' };
        });
      },
    }],
  });
  return pathToFileURL(outfile).href;
}
const bundleUrl = await bundleGate(join(here, 'src', 'worker.js'), join(out, 'worker.mjs'));
/** A fresh instance of the Worker's modules: new isolate-level state, a new wasm instance. */
const freshWorker = (n) => import(`${bundleUrl}?isolate=${n}`);
// The baseline: the gate's src/ at git revision BASELINE, bundled the same way.
let baseline = null;
if (BASELINE) {
  const dir = join(out, 'baseline');
  mkdirSync(dir);
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim();
  const tar = execFileSync('git', ['archive', BASELINE, 'examples/worker-gate/src'], { cwd: root, maxBuffer: 1 << 26 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  baseline = await import(await bundleGate(join(dir, 'examples/worker-gate/src/worker.js'), join(out, 'baseline.mjs')));
}

// A medium robots.txt: 40 groups of 10 rules, a group for BadBot, and the * group with an AI
// preference (Content-Usage).
const lines = [];
for (let g = 0; g < 40; g++) {
  lines.push(`User-agent: bot${g}`);
  for (let r = 0; r < 10; r++) lines.push(`Disallow: /g${g}/r${r}/*.php$`);
  lines.push('');
}
lines.push('User-agent: BadBot', 'Disallow: /private', 'Allow: /private/open', '', 'User-agent: *', 'Disallow: /nocrawl', 'Disallow: /*?session=',
  'Content-Usage: train-ai=n, search=y');
const ROBOTS = lines.join('\n') + '\n';

// An address list of 5,000 prefixes (4,000 IPv4, 1,000 IPv6), made up deterministically, with
// Google's 66.249.64.0/27 and 2001:4860:4801:10::/64 among them.
let seed = 1;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const PREFIXES = ['66.249.64.0/27'];
while (PREFIXES.length < 4000) PREFIXES.push(`${1 + Math.floor(rand() * 222)}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.0/${24 + Math.floor(rand() * 5)}`);
PREFIXES.push('2001:4860:4801:10::/64');
while (PREFIXES.length < 5000) PREFIXES.push(`2001:${Math.floor(rand() * 65536).toString(16)}:${Math.floor(rand() * 65536).toString(16)}::/${48 + Math.floor(rand() * 17)}`);
// The signer's key directory (served here; identify()'s `fetch` option carries https://signer.example to it).
const key = newKey();

let robotsHits = 0;
const server = createServer((req, res) => {
  if (req.url === '/ip-list.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ prefixes: PREFIXES.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) }));
    return;
  }
  if (req.url === '/.well-known/http-message-signatures-directory') {
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=86400' });
    res.end(JSON.stringify({ keys: [key.jwk] }));
    return;
  }
  if (req.url === '/.well-known/tdmrep.json') {
    // No TDMRep file, as on most sites (AI_PREFERENCES = "enforce" asks for it once).
    res.writeHead(404, { 'cache-control': 'max-age=3600' });
    res.end();
    return;
  }
  if (req.url === '/robots.txt') {
    robotsHits++;
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' });
    res.end(ROBOTS);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const env = {
  MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origin, AI_PREFERENCES: 'enforce',
  IP_LISTS_BUILT_IN: 'off', IP_LISTS: [{ tokens: ['Googlebot'], url: 'https://lists.example/ip-list.json' }],
  // The bench plays the proxy that sets the client's address (on Cloudflare: CF-Connecting-IP).
  CLIENT_ADDRESS_HEADER: 'cf-connecting-ip',
  SIGNATURE_AGENTS: [{ origin: 'https://signer.example', token: 'ExampleBot' }],
};
const ctx = { waitUntil() {} };
// The gate's outbound `fetch` option: https://signer.example and https://lists.example are this
// origin server (the SSRF checks run on the name first, as in production).
const options = { fetch: (url, init) => fetch(String(url).replace('https://signer.example', origin).replace('https://lists.example', origin), init) };

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const INSTAGRAM = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 339.0.3.12.91 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 616263478)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';
const SEARCHBOT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot';
const VERIFIED = { verifiedBotCategory: 'Search Engine Crawler', botManagement: { verifiedBot: true, score: 1 } };
const SIGNED = 'signed';
// [name, User-Agent, path(i), request.cf, the expected answer: null (passed on) or 403, client address]
// A User-Agent of SIGNED: Chrome's, with a Web Bot Auth signature made for that request (not timed).
const kinds = [
  ['browser (Chrome): not a crawler, no lookup', CHROME, (i) => `/nocrawl/page${i}`, undefined, null],
  ['in-app browser (Instagram): not a crawler', INSTAGRAM, (i) => `/nocrawl/page${i}`, undefined, null],
  ['crawler (Googlebot), * group, allowed', GOOGLEBOT, (i) => `/articles/${i}?q=${i}`, undefined, null],
  ['crawler (GPTBot), * group, disallowed: 403', GPTBOT, (i) => `/nocrawl/${i}`, undefined, 403],
  ['AI crawler (GPTBot, training), refused by Content-Usage: 403', GPTBOT, (i) => `/articles/${i}`, undefined, 403],
  ['AI crawler (OAI-SearchBot, search), allowed', SEARCHBOT, (i) => `/articles/${i}`, undefined, null],
  ['crawler named by a group (BadBot), allowed', 'Mozilla/5.0 (compatible; BadBot/1.0; +https://bad.example)', (i) => `/private/open/${i}`, undefined, null],
  ['crawler named by a group (BadBot), disallowed: 403', 'BadBot/1.0', (i) => `/private/page${i}`, undefined, 403],
  ['Cloudflare-verified crawler, * group, allowed', GOOGLEBOT, (i) => `/articles/${i}`, VERIFIED, null],
  ['signed agent (Web Bot Auth, key cached, Ed25519), its token\'s group, allowed', SIGNED, (i) => `/articles/${i}`, undefined, null],
  ['Googlebot from its published addresses (5,000-prefix list), allowed', GOOGLEBOT, (i) => `/articles/${i}`, undefined, null, (i) => `66.249.64.${i % 32}`],
  ['Googlebot from elsewhere (spoofed): 403', GOOGLEBOT, (i) => `/articles/${i}`, undefined, 403, (i) => `198.51.100.${i % 250}`],
];

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const us = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);
const request = (path, ua, cf, address) => {
  const target = new URL(path, origin);
  const headers = ua === SIGNED ? { 'user-agent': CHROME, ...signedHeaders(target.href, 'https://signer.example', key) } : { 'user-agent': ua };
  if (address) headers['cf-connecting-ip'] = address;
  const r = new Request(target, { headers });
  if (cf) Object.defineProperty(r, 'cf', { value: cf });
  return [r, target];
};
// p50 and p99 only: on a shared machine a few preempted requests dominate a mean.
const row = (name, times) => {
  const sorted = Float64Array.from(times).sort();
  console.log(`| ${name} | ${us(q(sorted, 0.5))} | ${us(q(sorted, 0.99))} |`);
};

const warm = await freshWorker('warm');
// Warm: the first crawler request fetches robots.txt from the origin; then the JIT.
await warm.decide(...request('/x', 'BadBot', undefined), env, ctx);
for (const [, ua, path, cf, , address] of kinds) {
  for (let i = 0; i < 2000; i++) await warm.decide(...request(path(i), ua, cf, address?.(i)), env, ctx, options);
}

console.log(`worker-gate bench: node bench.mjs ${N} ${ISOLATES}  (Node ${process.version}, load average ${loadavg()[0].toFixed(1)}; robots.txt ${ROBOTS.length} B, 40 groups)`);
console.log('');
console.log('| request (robots.txt cached in the isolate) | p50 | p99 |');
console.log('|---|---:|---:|');
const robots = Robots.parse(ROBOTS);
/** The package's own cost for a query, for scale. */
const alone = (query) => {
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    query(`${origin}/articles/${i}?q=${i}`);
    times[i] = performance.now() - t0;
  }
  return times;
};
const reference = [
  ['for scale: `robots.explain()` alone (the package)', alone((url) => robots.explain(url, GOOGLEBOT))],
  ['for scale: `robots.aiPreferences()` alone (the package)', alone((url) => robots.aiPreferences(url, GOOGLEBOT))],
  // What AI_PREFERENCES = "enforce" asks before the origin (no tdmrep.json, no page yet).
  ['for scale: `robots.aiUse()` alone (the package), GPTBot', alone((url) => robots.aiUse(url, GPTBOT, { tdmrep: null }))],
];
for (const [name, ua, path, cf, want, address] of kinds) {
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const [r, target] = request(path(i), ua, cf, address?.(i));
    const t0 = performance.now();
    const decision = await warm.decide(r, target, env, ctx, options);
    times[i] = performance.now() - t0;
    const status = decision?.response?.status ?? null;
    if (status !== want) throw new Error(`${name}: got ${status ?? 'pass'}`);
  }
  row(name, times);
}
for (const [name, times] of reference) row(name, times);
robots.free();
if (robotsHits !== 1) throw new Error(`robots.txt was fetched ${robotsHits} times; the cache should have held it`);

// Identity alone (src/identity.js as the gate runs it), and the prefix set alone.
console.log('');
console.log('| identity (key directory and address list cached) | p50 | p99 |');
console.log('|---|---:|---:|');
const timeIdentify = async (make, want) => {
  const times = new Float64Array(N);
  for (let i = 0; i < N + 2000; i++) {
    const r = make(i);
    const t0 = performance.now();
    const id = await identify(r, env, options);
    if (i >= 2000) times[i - 2000] = performance.now() - t0;
    if (!want.test(id.identity)) throw new Error(`identify: ${JSON.stringify(id)}, want ${want}`);
  }
  return times;
};
row('identify(): a signed request verified (Ed25519, key cached)', await timeIdentify((i) => request(`/articles/${i}`, SIGNED)[0], /^verified$/));
row('identify(): a Googlebot claim checked against 5,000 prefixes (half in, half out)', await timeIdentify((i) => request(`/articles/${i}`, GOOGLEBOT, undefined, i % 2 ? `66.249.64.${i % 32}` : `198.51.100.${i % 250}`)[0], /^(ip-verified|spoofed)$/));
{
  // For scale: the Ed25519 verification alone (WebCrypto, the same key, a signature base as long).
  const cryptoKey = await crypto.subtle.importKey('jwk', key.jwk, { name: 'Ed25519' }, false, ['verify']);
  const message = new TextEncoder().encode(`"@authority": 127.0.0.1\n"signature-agent";key="agent1": "https://signer.example"\n"@signature-params": ("@authority" "signature-agent";key="agent1");created=1700000000;expires=1700000300;keyid="${key.keyid}";tag="web-bot-auth"`);
  const signature = sign(null, message, key.privateKey);
  const times = new Float64Array(N);
  for (let i = 0; i < N + 2000; i++) {
    const t0 = performance.now();
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, cryptoKey, signature, message))) throw new Error('verify');
    if (i >= 2000) times[i - 2000] = performance.now() - t0;
  }
  row('for scale: `crypto.subtle.verify()` alone, Ed25519', times);
}
const set = new PrefixSet(PREFIXES);
const lookups = (make) => {
  const addresses = Array.from({ length: N }, (_, i) => make(i));
  const times = new Float64Array(N);
  let hits = 0;
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      if (set.has(addresses[i])) hits++;
      times[i] = performance.now() - t0;
    }
  }
  if (hits === 0) throw new Error('no address was in the set');
  return times;
};
row('`PrefixSet.has()`: an IPv4 address, 5,000 prefixes', lookups((i) => (i % 4 === 0 ? `66.249.64.${i % 32}` : `${1 + (i % 222)}.${(i * 7) % 256}.${(i * 13) % 256}.${i % 256}`)));
row('`PrefixSet.has()`: an IPv6 address, 5,000 prefixes', lookups((i) => (i % 4 === 0 ? `2001:4860:4801:10::${(i % 4096).toString(16)}` : `2001:${((i * 2654435761) >>> 16).toString(16)}:${(i % 65536).toString(16)}::${(i % 4096).toString(16)}`)));

if (baseline) {
  // Browsers and AI crawlers through this gate and the baseline's, in alternating blocks.
  console.log('');
  console.log(`| requests: this gate and the gate at ${BASELINE} | p50 | p99 |`);
  console.log('|---|---:|---:|');
  await baseline.decide(...request('/x', 'BadBot', undefined), env, ctx);
  // What each must answer: a browser is untouched (no decision), an AI crawler its kind's answer.
  const compared = [...kinds.slice(0, 2).map((k) => [...k.slice(0, 3), 'untouched']), ...kinds.filter(([n]) => n.startsWith('AI crawler')).map((k) => [...k.slice(0, 3), k[4] ?? 'pass'])];
  for (const [name, ua, path, want] of compared) {
    for (let i = 0; i < 2000; i++) await baseline.decide(...request(path(i), ua), env, ctx, options);
    const mine = [];
    const theirs = [];
    for (let block = 0; block < 20; block++) {
      for (const [gate, times] of block % 2 ? [[warm, mine], [baseline, theirs]] : [[baseline, theirs], [warm, mine]]) {
        for (let i = 0; i < N / 10; i++) {
          const [r, target] = request(path(i), ua);
          const t0 = performance.now();
          const decision = await gate.decide(r, target, env, ctx, options);
          times.push(performance.now() - t0);
          const got = decision === null ? 'untouched' : decision.response?.status ?? 'pass';
          if (got !== want) throw new Error(`${name}: got ${got}, want ${want}`);
        }
      }
    }
    row(`${name}, this gate`, mine);
    row(`${name}, the gate at ${BASELINE}`, theirs);
  }
}

// Cold: a new isolate (fresh module instance: its wasm instantiated, its caches empty) answers its
// first crawler request; robots.txt comes from the Cache API (shared by the isolates of a data
// centre) as a stored response, so the time is: instantiate, read the stored robots.txt, parse,
// decide. Node has no Cache API: caches.default is the platform's part, played here by an
// in-memory store that answers like it (a stored 200 with the gate's stored-at header).
globalThis.caches = {
  default: {
    async match(url) {
      if (!String(url).endsWith('/robots.txt')) return undefined;
      return new Response(ROBOTS, { headers: { 'content-type': 'text/plain', 'cache-control': 'max-age=3600', 'x-robots-eval-stored-at': String(Date.now()) } });
    },
    async put() {},
  },
};
const importTimes = new Float64Array(ISOLATES);
const firstTimes = new Float64Array(ISOLATES);
const before = robotsHits;
for (let n = 0; n < ISOLATES; n++) {
  const t0 = performance.now();
  const cold = await freshWorker(n);
  const t1 = performance.now();
  const decision = await cold.decide(...request(`/nocrawl/${n}`, GPTBOT, undefined), env, ctx);
  firstTimes[n] = performance.now() - t1;
  importTimes[n] = t1 - t0;
  if (decision?.response?.status !== 403) throw new Error('cold: the first request was not answered 403');
}
if (robotsHits !== before) throw new Error('cold: robots.txt was fetched from the origin, not the Cache API');
console.log('');
console.log(`| a cold isolate (${ISOLATES} isolates) | p50 | p99 |`);
console.log('|---|---:|---:|');
row("first crawler request: wasm instance, robots.txt from the Cache API, parse, decide (403)", firstTimes);
row("for scale: evaluating the Worker's modules (Node reads and compiles the bundle)", importTimes);
rmSync(out, { recursive: true, force: true });
server.close();
