#!/usr/bin/env node
// The gate's CPU time per request, and a cold isolate's first request. The Worker (src/, bundled
// as wrangler bundles it: the package's `workerd` build, the .wasm as a module compiled ahead of
// time, as Cloudflare compiles it at deploy) runs in Node's V8, in front of a real origin server
// on 127.0.0.1. What is timed does no I/O: robots.txt is already cached (warm) or comes from the
// Cache API (cold), so the time is CPU time on this thread. Not a test: the figures depend on
// the machine; compare rows of one run, not runs of different machines.
//
//   npm run build                        # at the repository root (pkg/), once
//   cd examples/worker-gate && npm install
//   node bench.mjs [requests] [isolates] # default 10000 requests per kind, 200 cold isolates
import { createServer } from 'node:http';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Robots } from 'robots-eval';

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.argv[2]) || 10000;
const ISOLATES = Number(process.argv[3]) || 200;

// The bundle; its .wasm import is the module compiled once here (deploy time, not timed).
const WASM = Symbol.for('worker-gate-bench.wasm');
const out = mkdtempSync(join(tmpdir(), 'worker-gate-bench-'));
await build({
  entryPoints: [join(here, 'src', 'worker.js')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  outfile: join(out, 'worker.mjs'),
  logLevel: 'warning',
  plugins: [{
    name: 'precompiled-wasm',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: join(args.resolveDir, args.path), namespace: 'wasm' }));
      b.onLoad({ filter: /.*/, namespace: 'wasm' }, (args) => {
        // One entry per .wasm file (the package has three: the verdict, policy and rich modules).
        const name = basename(args.path);
        (globalThis[WASM] ??= {})[name] = new WebAssembly.Module(readFileSync(args.path));
        return { contents: `export default globalThis[Symbol.for("worker-gate-bench.wasm")][${JSON.stringify(name)}];`, loader: 'js' };
      });
    },
  }],
});
const bundleUrl = pathToFileURL(join(out, 'worker.mjs')).href;
/** A fresh instance of the Worker's modules: new isolate-level state, a new wasm instance. */
const freshWorker = (n) => import(`${bundleUrl}?isolate=${n}`);

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

let robotsHits = 0;
const server = createServer((req, res) => {
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
const env = { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origin, AI_PREFERENCES: 'enforce' };
const ctx = { waitUntil() {} };

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const INSTAGRAM = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 339.0.3.12.91 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 616263478)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';
const SEARCHBOT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot';
const VERIFIED = { verifiedBotCategory: 'Search Engine Crawler', botManagement: { verifiedBot: true, score: 1 } };
// [name, User-Agent, path(i), request.cf, the expected answer: null (passed on) or 403]
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
];

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const us = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);
const request = (path, ua, cf) => {
  const target = new URL(path, origin);
  const r = new Request(target, { headers: { 'user-agent': ua } });
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
for (const [, ua, path, cf] of kinds) {
  for (let i = 0; i < 2000; i++) await warm.decide(...request(path(i), ua, cf), env, ctx);
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
];
for (const [name, ua, path, cf, want] of kinds) {
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const [r, target] = request(path(i), ua, cf);
    const t0 = performance.now();
    const decision = await warm.decide(r, target, env, ctx);
    times[i] = performance.now() - t0;
    const status = decision?.response?.status ?? null;
    if (status !== want) throw new Error(`${name}: got ${status ?? 'pass'}`);
  }
  row(name, times);
}
for (const [name, times] of reference) row(name, times);
robots.free();
if (robotsHits !== 1) throw new Error(`robots.txt was fetched ${robotsHits} times; the cache should have held it`);

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
