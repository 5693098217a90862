#!/usr/bin/env node
// The structured (cold) results of the package, per call, steady state: explain, diagnostics,
// metaRobots, xRobotsTag (and parse, for scale), on ../shared/bench/medium.txt. With --baseline
// DIR (another build's pkg/, e.g. one built from main) both run in alternating rounds and the
// ratio is printed (above 1: this build is faster); each figure is the fastest of 21 rounds.
// docs/architecture.md ("The wasm boundary").
//   node bench/js/structured.mjs [--baseline DIR]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// ../shared beside the repository (ROBOTS_EVAL_SHARED: elsewhere, e.g. from a git worktree).
const medium = join(process.env.ROBOTS_EVAL_SHARED ?? join(root, '..', 'shared'), 'bench', 'medium.txt');
if (!existsSync(medium)) {
  console.log(`SKIPPED: ${medium} is absent (it holds the benchmark inputs)`);
  process.exit(0);
}
const at = process.argv.indexOf('--baseline');
const builds = { 'this build': await import('robots-eval/rich') };
if (at > 0) {
  // A build's node.js with its rich calls installed, as 'robots-eval/rich' does (pkg/rich.js
  // imports 'robots-eval' by name, which would be this build).
  builds.baseline = await import(pathToFileURL(join(resolve(process.argv[at + 1]), 'node.js')).href);
  builds.baseline.installRich();
}
const text = readFileSync(medium, 'utf8');
const html = '<html><head><meta name="robots" content="noindex, max-snippet:20"><meta name="googlebot" content="nofollow, unavailable_after: 2030-01-01">' +
  '<meta name="description" content="x"><meta name="keywords" content="a, b"></head><body></body></html>';

/** ns per call of each operation, one round. */
function round(m) {
  const r = m.Robots.parse(text);
  const ops = {
    'explain(url, agent)': () => r.explain('/some/path/x.html?q=1', 'Googlebot'),
    // (This build: the rich module parses the file again on its first rich call of each object.)
    'parse + diagnostics + free': () => { const x = m.Robots.parse(text); x.diagnostics; x.free(); },
    'parse + free': () => { const x = m.Robots.parse(text); x.free(); },
    'metaRobots(html, agent)': () => m.metaRobots(html, 'googlebot'),
    'xRobotsTag(values, agent)': () => m.xRobotsTag(['noindex, nofollow', 'googlebot: max-snippet:10'], 'googlebot'),
  };
  const out = {};
  for (const [name, f] of Object.entries(ops)) {
    for (let i = 0; i < 500; i++) f();
    const n = 4000;
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    out[name] = ((performance.now() - t) / n) * 1e6;
  }
  r.free();
  return out;
}

const ROUNDS = 21;
const rounds = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
for (let i = 0; i < ROUNDS; i++) for (const [k, m] of Object.entries(builds)) rounds[k].push(round(m));
// The fastest round of each: on a shared machine, the one the other load disturbed least (the
// medians of 5 rounds of 20,000 calls moved by 30% from one run to the next under load).
const fastest = (xs) => Math.min(...xs);
const ns = (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} µs` : `${v.toFixed(0)} ns`);
console.log(`Node ${process.version}, the fastest of ${ROUNDS} alternating rounds of 4,000 calls\n`);
console.log(`| call | ${Object.keys(builds).join(' | ')}${builds.baseline ? ' | this build vs baseline |' : ' |'}`);
console.log(`|---|${Object.keys(builds).map(() => '---:|').join('')}${builds.baseline ? '---:|' : ''}`);
for (const name of Object.keys(rounds['this build'][0])) {
  const med = Object.keys(builds).map((k) => fastest(rounds[k].map((r) => r[name])));
  console.log(`| ${name} | ${med.map(ns).join(' | ')}${builds.baseline ? ` | ${(med[1] / med[0]).toFixed(2)}x |` : ' |'}`);
}
