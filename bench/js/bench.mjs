#!/usr/bin/env node
// `npm run bench`: the npm package (pkg/, imported by its name) side by side with robots-parser
// (the most used npm parser) in one Node process, on ../shared/bench: parse, isAllowed, the
// 1,000 x 8 decision table, and cold start (fresh processes: load + compile + instantiate + parse
// + first query). Prints a Markdown table; ratios are robots-parser time / robots-eval time.
//   node bench/js/bench.mjs [--quick] [--baseline DIR]
// --baseline DIR: also measures another build of the package (DIR holds its index.js, e.g. the pkg/
// of an older commit) in the same alternating runs, and prints this build's speed-up over it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import robotsParser from 'robots-parser';
import { Robots } from 'robots-eval'; // the repository's own package (self-reference to pkg/)

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = join(root, '..', 'shared', 'bench');
if (!existsSync(join(shared, 'queries.json'))) {
  console.log(`SKIPPED: ${shared} is absent (it holds the benchmark inputs)`);
  process.exit(0);
}
const quick = process.argv.includes('--quick');
const baselineAt = process.argv.indexOf('--baseline');
// The baseline is measured from a copy (target/bench-baseline) that is loaded exactly as pkg/ is:
// beside a package.json named robots-eval with the same exports (the cold-start processes import
// 'robots-eval' from there), which also declares it an ES module. Loaded by path from a folder
// without one (e.g. /tmp/pkg-base), Node 20 would first parse index.js as CommonJS, fail, and parse
// it again as an ES module (about 1.7 ms more load here), and a path skips the package resolution
// that 'robots-eval' goes through (about 0.7 ms): either would skew the cold-start comparison.
const baselineDir = baselineAt > 0 ? copyBaseline(resolve(process.argv[baselineAt + 1])) : null;
const baselineUrl = baselineDir === null ? null : pathToFileURL(join(baselineDir, 'index.js')).href;
const Baseline = baselineUrl === null ? null : (await import(baselineUrl)).Robots;
function copyBaseline(dir) {
  const to = join(root, 'target', 'bench-baseline');
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(dir)) if (/\.(js|cjs|wasm)$/.test(f)) copyFileSync(join(dir, f), join(to, f));
  const { name, type, exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // An entry the copy lacks (an older build) is served by the one it has for that format.
  const pkgJson = JSON.stringify({ name, type, exports }).replace(/"\.\/pkg\/([\w.]+)"/g, (_, f) =>
    JSON.stringify(`./${existsSync(join(to, f)) ? f : f.endsWith('.cjs') ? 'index.cjs' : 'index.js'}`));
  writeFileSync(join(to, 'package.json'), pkgJson);
  return to;
}
const files = Object.fromEntries(['small', 'medium', 'large'].map((n) => [n, readFileSync(join(shared, `${n}.txt`), 'utf8')]));
const queries = JSON.parse(readFileSync(join(shared, 'queries.json'), 'utf8'));
const ORIGIN = 'https://example.com';
const urls = queries.map(([path]) => ORIGIN + path);
const paths = queries.map(([path]) => path);
const agents = [...new Set(queries.map(([, agent]) => agent))];
const RUNS = quick ? 3 : 7;

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
 * The time per operation (ns) of each `fns[k](n)`, doing n operations: their runs alternate, so
 * that a change in the machine's load between them (this machine is shared) hits all alike; the
 * median of RUNS each.
 */
function compare(fns, { minMs = quick ? 60 : 250 } = {}) {
  const ns = fns.map((fn) => calibrate(fn, minMs));
  const times = fns.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < fns.length; k++) {
      const t0 = performance.now();
      fns[k](ns[k]);
      times[k].push(((performance.now() - t0) * 1e6) / ns[k]);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[RUNS >> 1]);
}

let sink = 0;
const rows = []; // [what, ours, robots-parser, unit, baseline?]
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(ns >= 1e5 ? 0 : 1)} µs` : `${ns.toFixed(0)} ns`);
/** Our builds: this one, and the baseline when there is one. */
const builds = Baseline === null ? [Robots] : [Robots, Baseline];
/** compare() over our builds and robots-parser; returns [ours, theirs, baseline?]. */
const measure = (ourFn, theirFn) => {
  const t = compare([...builds.map(ourFn), theirFn]);
  return [t[0], t[builds.length], t[1]];
};

// The loops over our builds are compiled once per build (new Function), so that each has its own
// type feedback: one function shared by two builds would see two Robots classes at each call
// and run slower for both.
const perBuild = (params, body) => (...args) => new Function(...params, body)(...args);
const parseLoop = perBuild(['R', 'text', 'sink'], `return (n) => {
  for (let i = 0; i < n; i++) {
    const r = R.parse(text);
    sink.n += r.dialect.length;
    r.free();
  }
};`);
const queryLoop = perBuild(['r', 'queries', 'sink'], `return (n) => {
  for (let i = 0; i < n; i++) {
    const q = queries[i % 1000];
    if (r.isAllowed(q[0], q[1])) sink.n++;
  }
};`);
const tableLoop = perBuild(['r', 'paths', 'agents', 'sink'], `return (n) => {
  for (let i = 0; i < n; i++) sink.n += r.table(paths, agents).allowed.length;
};`);
const box = { n: 0 };

for (const [name, text] of Object.entries(files)) {
  const [ours, theirs, base] = measure((R) => parseLoop(R, text, box), (n) => {
    for (let i = 0; i < n; i++) sink += robotsParser(`${ORIGIN}/robots.txt`, text) ? 1 : 0;
  });
  rows.push([`parse ${name} (${(text.length / 1024).toFixed(1)} KB)`, ours, theirs, 'per parse', base]);
}

for (const [name, text] of Object.entries(files)) {
  const parsed = builds.map((R) => R.parse(text));
  const p = robotsParser(`${ORIGIN}/robots.txt`, text);
  const [ours, theirs, base] = measure((R) => queryLoop(parsed[builds.indexOf(R)], queries, box), (n) => {
    for (let i = 0; i < n; i++) {
      if (p.isAllowed(urls[i % 1000], queries[i % 1000][1])) sink++;
    }
  });
  // Sanity: both answer the same questions (they may disagree on a few by design).
  let same = 0;
  for (let i = 0; i < 1000; i++) same += parsed[0].isAllowed(queries[i][0], queries[i][1]) === (p.isAllowed(urls[i], queries[i][1]) !== false) ? 1 : 0;
  rows.push([`isAllowed ${name} (agree on ${same / 10}%)`, ours, theirs, 'per query', base]);
  for (const r of parsed) r.free();
}

{
  const parsed = builds.map((R) => R.parse(files.medium));
  const p = robotsParser(`${ORIGIN}/robots.txt`, files.medium);
  const cells = paths.length * agents.length;
  const [ours, theirs, base] = measure((R) => tableLoop(parsed[builds.indexOf(R)], paths, agents, box), (n) => {
    for (let k = 0; k < n; k++) {
      for (const u of urls) for (const a of agents) if (p.isAllowed(u, a)) sink++;
    }
  }).map((ns) => ns / cells);
  rows.push([`table 1,000 URLs x 8 agents, medium`, ours, theirs, 'per cell', base]);
  for (const r of parsed) r.free();
}

// Cold start, as the issue defines it: compile + instantiate + first query, and the package's own
// load before them. Each sample is a fresh Node process that first loads three empty packages by
// name: one ES module, one ES module whose exports map nests conditions as ours does, and one
// CommonJS (so Node's module loaders and package resolution are initialised: about 6 ms here that
// any program pays once, whatever it loads; without the second, the regular expressions of Node's
// exports resolver are compiled to machine code while our package loads, 0.6-0.8 ms that any
// second package resolved through an exports map pays, whichever it is), then times from
// before loading the package to the answer of its first query: load, compile, instantiate, parse
// small.txt, one isAllowed. The same for both packages, each loaded in its own format: robots-eval
// with import (ESM), robots-parser with require (CommonJS; an import would add Node's
// CommonJS-in-ESM lexer).
const warm = join(root, 'target', 'bench-warm');
for (const [name, pkgJson, main] of [
  ['empty-esm', { name: 'empty-esm', type: 'module', exports: { '.': { import: './index.js', default: './index.js' } } }, 'export default 1;\n'],
  ['empty-esm-nested', { name: 'empty-esm-nested', type: 'module', exports: { '.': { browser: './index.js', node: { import: './index.js', require: './index.js' }, default: './index.js' } } }, 'export default 2;\n'],
  ['empty-cjs', { name: 'empty-cjs', main: 'index.js' }, 'module.exports = 1;\n'],
]) {
  mkdirSync(join(warm, 'node_modules', name), { recursive: true });
  writeFileSync(join(warm, 'node_modules', name, 'package.json'), JSON.stringify(pkgJson));
  writeFileSync(join(warm, 'node_modules', name, 'index.js'), main);
}
writeFileSync(join(warm, 'warm.mjs'), `import 'empty-esm';\nimport 'empty-esm-nested';\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('empty-cjs');\n`);
const READY = `import { createRequire } from 'node:module'; await import(${JSON.stringify(pathToFileURL(join(warm, 'warm.mjs')).href)}); const require = createRequire(${JSON.stringify(join(root, 'package.json'))});`;
// Ours runs with one more step inside the clock: Robots[memoryBytes] compiles and instantiates
// on its own, so the parts can be told apart (its cost moves from the first parse to there).
const ourFirstUse = (specifier) => `const t0 = performance.now(); const { Robots } = await import(${JSON.stringify(specifier)}); const t1 = performance.now(); Robots[Symbol.for('robots-eval.memoryBytes')]; const t2 = performance.now(); const r = Robots.parse(process.env.T); const t3 = performance.now(); r.isAllowed('/admin/x', 'Googlebot'); const t4 = performance.now();`;
const theirFirstUse = `const t0 = performance.now(); const parse = require('robots-parser'); const t1 = performance.now(), t2 = t1; const r = parse('https://example.com/robots.txt', process.env.T); const t3 = performance.now(); r.isAllowed('https://example.com/admin/x', 'Googlebot'); const t4 = performance.now();`;
// The last number: the cold start as the issue lists it, compile + instantiate + first query
// (with the parse it needs), after the package's own load.
const PRINT = `console.log(JSON.stringify([t4 - t0, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t1]));`;
// The same, timed from the first line of a fresh process's ES module: Node's ES module loader
// initialises inside the clock, and robots-parser goes through import() too.
const ourWhole = (specifier) => `const t0 = performance.now(); const { Robots } = await import(${JSON.stringify(specifier)}); const r = Robots.parse(process.env.T); r.isAllowed('/admin/x', 'Googlebot'); console.log(JSON.stringify([performance.now() - t0]));`;
const theirWhole = `const t0 = performance.now(); const { default: parse } = await import('robots-parser'); const r = parse('https://example.com/robots.txt', process.env.T); r.isAllowed('https://example.com/admin/x', 'Googlebot'); console.log(JSON.stringify([performance.now() - t0]));`;

/**
 * Medians (ms) over fresh processes of the numbers each script prints (a JSON array); the scripts'
 * processes alternate. A script is its code, or [code, the folder it runs in].
 */
function fresh(scripts) {
  const samples = scripts.map(() => []);
  for (let i = 0; i < (quick ? 5 : 15); i++) {
    scripts.forEach((script, k) => {
      const [code, cwd] = Array.isArray(script) ? script : [script, root];
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd, env: { ...process.env, T: files.small } });
      samples[k].push(JSON.parse(out.toString()));
    });
  }
  return samples.map((s) => s[0].map((_, k) => s.map((x) => x[k]).sort((a, b) => a - b)[s.length >> 1]));
}

// Each build of ours is imported by its name, from the folder whose package.json names it.
const ourFolders = baselineDir === null ? [root] : [root, baselineDir];
const ready = fresh([...ourFolders.map((cwd) => [`${READY} ${ourFirstUse('robots-eval')} ${PRINT}`, cwd]), `${READY} ${theirFirstUse} ${PRINT}`]);
const [oursReady, theirsReady, baseReady] = [ready[0], ready[ourFolders.length], baselineUrl === null ? null : ready[1]];
rows.push(['cold start: load + compile + instantiate + parse + 1st query (module loaders ready)', oursReady[0] * 1e6, theirsReady[0] * 1e6, 'fresh process', baseReady && baseReady[0] * 1e6]);
rows.push(['cold start without the package\'s load: compile + instantiate + parse + 1st query', oursReady[5] * 1e6, theirsReady[5] * 1e6, 'fresh process', baseReady && baseReady[5] * 1e6]);
const whole = fresh([...ourFolders.map((cwd) => [ourWhole('robots-eval'), cwd]), theirWhole]);
rows.push([`cold start, from a fresh process's first line (ES module loader included, both via import)`, whole[0][0] * 1e6, whole[ourFolders.length][0] * 1e6, 'fresh process', baselineUrl && whole[1][0] * 1e6]);
const ms = (v) => `${v.toFixed(2)} ms`;
const ourParts = ([, load, instance, parse, query]) => `load ${ms(load)}, compile + instantiate ${ms(instance)}, first parse ${ms(parse)}, first query ${ms(query)}`;

const sizes = JSON.parse(readFileSync(join(root, 'pkg', 'sizes.json'), 'utf8'));
console.log(`\nrobots-eval (pkg/, .wasm ${sizes.raw} B raw / ${sizes.gzip} B gzip / ${sizes.brotli} B brotli) vs robots-parser ${JSON.parse(readFileSync(join(root, 'node_modules', 'robots-parser', 'package.json'), 'utf8')).version}, Node ${process.version}, median of ${RUNS} alternating runs (cold start: of ${quick ? 5 : 15} processes each)\n`);
if (Baseline === null) {
  console.log('| benchmark | robots-eval | robots-parser | speed-up |');
  console.log('|---|---:|---:|---:|');
} else {
  console.log(`| benchmark | robots-eval | robots-parser | speed-up | baseline (${process.argv[baselineAt + 1]}) | this build vs baseline |`);
  console.log('|---|---:|---:|---:|---:|---:|');
}
for (const [what, ours, theirs, unit, base] of rows) {
  const extra = Baseline === null ? '' : ` ${fmt(base)} | ${(base / ours).toFixed(2)}x |`;
  console.log(`| ${what} | ${fmt(ours)} | ${fmt(theirs)} | ${(theirs / ours).toFixed(1)}x (${unit}) |${extra}`);
}
console.log(`\nCold start by part (module loaders ready, medians): robots-eval: ${ourParts(oursReady)}; ` +
  `robots-parser: load ${ms(theirsReady[1])}, first parse ${ms(theirsReady[3])}, first query ${ms(theirsReady[4])}` +
  (baseReady ? `; baseline: ${ourParts(baseReady)}` : ''));
if (sink + box.n === 0.5) console.log(sink);
