#!/usr/bin/env node
// `npm run bench`: the npm package (pkg/, imported by its name) side by side with robots-parser
// (the most used npm parser) in one Node process, on ../shared/bench: parse, isAllowed, the
// 1,000 x 8 decision table, and cold start (a fresh process: load + compile + instantiate + parse
// + first query). Prints a Markdown table; ratios are robots-parser time / robots-eval time.
//   node bench/js/bench.mjs [--quick]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import robotsParser from 'robots-parser';
import { Robots } from 'robots-eval'; // the repository's own package (self-reference to pkg/)

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = join(root, '..', 'shared', 'bench');
if (!existsSync(join(shared, 'queries.json'))) {
  console.log(`SKIPPED: ${shared} is absent (it holds the benchmark inputs)`);
  process.exit(0);
}
const quick = process.argv.includes('--quick');
const files = Object.fromEntries(['small', 'medium', 'large'].map((n) => [n, readFileSync(join(shared, `${n}.txt`), 'utf8')]));
const queries = JSON.parse(readFileSync(join(shared, 'queries.json'), 'utf8'));
const ORIGIN = 'https://example.com';
const urls = queries.map(([path]) => ORIGIN + path);
const agents = [...new Set(queries.map(([, agent]) => agent))];

/** How many operations of `fn(n)` take about `minMs`. */
function calibrate(fn, minMs) {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    fn(n);
    const ms = performance.now() - t0;
    if (ms >= minMs / 4) return Math.max(1, Math.ceil((n * minMs) / Math.max(ms, 0.001)));
    n *= 4;
  }
}

/**
 * The time per operation (ns) of `ours(n)` and `theirs(n)`, each doing n operations: runs of the
 * two alternate, so that a change in the machine's load between them (this machine is shared)
 * hits both; the median of `runs` each.
 */
function compare(ours, theirs, { minMs = quick ? 60 : 250, runs = quick ? 3 : 7 } = {}) {
  const fns = [ours, theirs];
  const ns = fns.map((fn) => calibrate(fn, minMs));
  const times = [[], []];
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      fns[k](ns[k]);
      times[k].push(((performance.now() - t0) * 1e6) / ns[k]);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[runs >> 1]);
}

let sink = 0;
const rows = [];
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(ns >= 1e5 ? 0 : 1)} µs` : `${ns.toFixed(0)} ns`);

for (const [name, text] of Object.entries(files)) {
  const [ours, theirs] = compare((n) => {
    for (let i = 0; i < n; i++) {
      const r = Robots.parse(text);
      sink += r.dialect.length;
      r.free();
    }
  }, (n) => {
    for (let i = 0; i < n; i++) sink += robotsParser(`${ORIGIN}/robots.txt`, text) ? 1 : 0;
  });
  rows.push([`parse ${name} (${(text.length / 1024).toFixed(1)} KB)`, ours, theirs, 'per parse']);
}

for (const [name, text] of Object.entries(files)) {
  const r = Robots.parse(text);
  const p = robotsParser(`${ORIGIN}/robots.txt`, text);
  const [ours, theirs] = compare((n) => {
    for (let i = 0; i < n; i++) {
      const [path, agent] = queries[i % 1000];
      if (r.isAllowed(path, agent)) sink++;
    }
  }, (n) => {
    for (let i = 0; i < n; i++) {
      if (p.isAllowed(urls[i % 1000], queries[i % 1000][1])) sink++;
    }
  });
  // Sanity: both answer the same questions (they may disagree on a few by design).
  let same = 0;
  for (let i = 0; i < 1000; i++) same += r.isAllowed(queries[i][0], queries[i][1]) === (p.isAllowed(urls[i], queries[i][1]) !== false) ? 1 : 0;
  rows.push([`isAllowed ${name} (agree on ${same / 10}%)`, ours, theirs, 'per query']);
  r.free();
}

{
  const paths = queries.map(([path]) => path);
  const r = Robots.parse(files.medium);
  const p = robotsParser(`${ORIGIN}/robots.txt`, files.medium);
  const cells = paths.length * agents.length;
  const [ours, theirs] = compare((n) => {
    for (let i = 0; i < n; i++) sink += r.table(paths, agents).allowed.length;
  }, (n) => {
    for (let k = 0; k < n; k++) {
      for (const u of urls) for (const a of agents) if (p.isAllowed(u, a)) sink++;
    }
  }).map((ns) => ns / cells);
  rows.push([`table 1,000 URLs x 8 agents, medium`, ours, theirs, 'per cell']);
  r.free();
}

// Cold start: a fresh Node process per sample; the time from before the import to the answer
// of the first query (module load + compile + instantiate + parse small + one isAllowed).
function coldStart(kind) {
  const code = kind === 'ours'
    ? `const t0 = performance.now(); const { Robots } = await import('robots-eval'); const r = Robots.parse(process.env.T); r.isAllowed('/admin/x', 'Googlebot'); console.log(performance.now() - t0);`
    : `const t0 = performance.now(); const { default: parse } = await import('robots-parser'); const r = parse('https://example.com/robots.txt', process.env.T); r.isAllowed('https://example.com/admin/x', 'Googlebot'); console.log(performance.now() - t0);`;
  const samples = [];
  for (let i = 0; i < (quick ? 3 : 7); i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, T: files.small } });
    samples.push(Number(out.toString().trim()) * 1e6);
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1];
}
rows.push(['cold start (import + compile + instantiate + parse + 1st query)', coldStart('ours'), coldStart('theirs'), 'fresh process']);

// Where our cold start goes (medians, ms): the import (module load), the first use (base64 decode,
// WebAssembly.Module compile, instantiate, the names table), the first parse and the first query
// (both include V8's lazy compilation of the wasm functions they run).
function coldParts() {
  const code = `const t0 = performance.now(); const { Robots } = await import('robots-eval'); const t1 = performance.now(); Robots.dialects; const t2 = performance.now(); const r = Robots.parse(process.env.T); const t3 = performance.now(); r.isAllowed('/admin/x', 'Googlebot'); const t4 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t1, t3 - t2, t4 - t3]));`;
  const samples = [];
  for (let i = 0; i < (quick ? 3 : 7); i++) {
    samples.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, T: files.small } }).toString()));
  }
  const med = (k) => samples.map((s) => s[k]).sort((a, b) => a - b)[samples.length >> 1].toFixed(2);
  return `import ${med(0)} ms, compile + instantiate ${med(1)} ms, first parse ${med(2)} ms, first query ${med(3)} ms`;
}
const parts = coldParts();

const sizes = JSON.parse(readFileSync(join(root, 'pkg', 'sizes.json'), 'utf8'));
console.log(`\nrobots-eval (pkg/, .wasm ${sizes.raw} B raw / ${sizes.gzip} B gzip / ${sizes.brotli} B brotli) vs robots-parser ${JSON.parse(readFileSync(join(root, 'node_modules', 'robots-parser', 'package.json'), 'utf8')).version}, Node ${process.version}, median of ${quick ? 3 : 7} alternating runs\n`);
console.log('| benchmark | robots-eval | robots-parser | speed-up |');
console.log('|---|---:|---:|---:|');
for (const [what, ours, theirs, unit] of rows) {
  console.log(`| ${what} | ${fmt(ours)} | ${fmt(theirs)} | ${(theirs / ours).toFixed(1)}x (${unit}) |`);
}
console.log(`\nrobots-eval cold start, by part: ${parts}`);
if (sink === 0.5) console.log(sink);
