#!/usr/bin/env node
// The gate's added CPU time per request with a warm robots.txt cache: the Worker's own code
// (src/worker.js, bundled with the package's pkg/index.js as wrangler would bundle it) run in
// Node, in front of a real origin server on 127.0.0.1. It times `decide()` - everything the gate
// does before it passes a request on or answers 403 - with performance.now(), per request, and
// reports p50 / p99 / mean for each kind of request. Not a test: the figures depend on the machine.
//
//   npm run build                                    # pkg/ (once)
//   node examples/worker-gate/bench.mjs [requests]   # default 10000 per kind
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const N = Number(process.argv[2]) || 10000;

// The Worker, bundled with the package as deployed (its robots-eval import -> pkg/index.js).
const out = mkdtempSync(join(tmpdir(), 'worker-gate-bench-'));
await build({
  entryPoints: [join(here, 'src', 'worker.js')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  outfile: join(out, 'worker.mjs'),
  logLevel: 'warning',
  plugins: [{
    name: 'robots-eval',
    setup(b) {
      b.onResolve({ filter: /^robots-eval$/ }, () => ({ path: join(repo, 'pkg', 'index.js') }));
    },
  }],
});
const worker = await import(pathToFileURL(join(out, 'worker.mjs')).href);
rmSync(out, { recursive: true, force: true });

// A medium robots.txt: 40 groups of 10 rules, a group for BadBot.
const lines = [];
for (let g = 0; g < 40; g++) {
  lines.push(`User-agent: bot${g}`);
  for (let r = 0; r < 10; r++) lines.push(`Disallow: /g${g}/r${r}/*.php$`);
  lines.push('');
}
lines.push('User-agent: BadBot', 'Disallow: /private', 'Allow: /private/open', '', 'User-agent: *', 'Disallow: /nocrawl', 'Disallow: /*?session=');
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
const env = { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origin, CRAWLERS: 'GPTBot,CCBot,ClaudeBot' };
const ctx = { waitUntil() {} };

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const kinds = [
  ['browser (passes without a lookup)', BROWSER, (i) => `/private/page${i}`, null],
  ['named crawler, allowed', 'Mozilla/5.0 (compatible; BadBot/1.0; +https://bad.example)', (i) => `/public/page${i}?q=${i}`, null],
  ['named crawler, disallowed (403 built)', 'BadBot/1.0', (i) => `/private/page${i}`, 403],
  ['listed crawler (* group), allowed', 'GPTBot/1.2', (i) => `/articles/${i}`, null],
  ['unlisted client (curl)', 'curl/8.0', (i) => `/nocrawl/${i}`, null],
];

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;

// Warm: the first crawler request fetches robots.txt; then the JIT.
await worker.decide(new Request(`${origin}/x`, { headers: { 'user-agent': 'BadBot' } }), new URL(`${origin}/x`), env, ctx);
for (const [, ua, path] of kinds) {
  for (let i = 0; i < 2000; i++) {
    const target = new URL(path(i), origin);
    await worker.decide(new Request(target, { headers: { 'user-agent': ua } }), target, env, ctx);
  }
}

console.log(`worker-gate bench: ${N} requests per kind, warm cache (robots.txt ${ROBOTS.length} B, fetched ${robotsHits}x), Node ${process.version}`);
console.log('| request | p50 | p99 | mean |');
console.log('|---|---:|---:|---:|');
for (const [name, ua, path, want] of kinds) {
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const target = new URL(path(i), origin);
    const request = new Request(target, { headers: { 'user-agent': ua } });
    const t0 = performance.now();
    const decision = await worker.decide(request, target, env, ctx);
    times[i] = performance.now() - t0;
    const status = decision?.response?.status ?? null;
    if (status !== want) throw new Error(`${name}: got ${status ?? 'pass'}`);
  }
  const sorted = Float64Array.from(times).sort();
  const mean = times.reduce((a, b) => a + b, 0) / N;
  console.log(`| ${name} | ${us(q(sorted, 0.5))} | ${us(q(sorted, 0.99))} | ${us(mean)} |`);
}
if (robotsHits !== 1) throw new Error(`robots.txt was fetched ${robotsHits} times; the cache should have held it`);
server.close();
