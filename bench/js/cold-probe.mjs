#!/usr/bin/env node
// Where a cold start's time goes, inside one fresh Node process: importing the wrapper, reading
// and compiling the .wasm, the first parse of medium.txt and the first query on a first instance
// (cold: V8 compiles each wasm function on its first call, and runs the JS for the first time),
// then the same on a second instance of the same compiled module (warm code, fresh memory). The
// difference between the two is what V8's lazy compilation and the first runs cost. Internal
// profiling, not a comparison: docs/performance.md ("Cold start") has what it showed.
//
//   npm run build && node bench/js/cold-probe.mjs [runs] [-- node flags are passed as usual]
//   e.g. node --no-wasm-lazy-compilation bench/js/cold-probe.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2]) || 7;

if (process.env.COLD_PROBE_CHILD !== '1') {
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, COLD_PROBE_CHILD: '1' } });
    rows.push(JSON.parse(out.toString()));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  console.log(`cold probe, Node ${process.version} ${process.execArgv.join(' ')}; medians of ${runs} fresh processes (ms):`);
  for (const key of Object.keys(rows[0])) console.log(`  ${key.padEnd(34)} ${median(rows.map((r) => r[key])).toFixed(3)}`);
} else {
  const now = () => performance.now();
  const text = readFileSync(join(root, '..', 'shared', 'bench', 'medium.txt'), 'utf8');
  const url = 'https://example.com/admin/share/product/743w/static.php';
  const t0 = now();
  // The wrapper as build-pkg.mjs stages it (ES modules, before bundling), so that two instances
  // can share one compiled module.
  const { defineApi } = await import(pathToFileURL(join(root, 'target', 'wasm-pkg', 'stage', 'robots.js')).href);
  const t1 = now();
  const bytes = readFileSync(join(root, 'pkg', 'robots_eval_bg.wasm'));
  const t2 = now();
  const module = new WebAssembly.Module(bytes);
  const t3 = now();
  const first = defineApi(() => module).Robots.parse(text);
  const t4 = now();
  first.isAllowed(url, 'Googlebot');
  const t5 = now();
  const second = defineApi(() => module).Robots.parse(text);
  const t6 = now();
  second.isAllowed(url, 'Googlebot');
  const t7 = now();
  console.log(JSON.stringify({
    'import the wrapper': t1 - t0,
    'read the .wasm': t2 - t1,
    'new WebAssembly.Module': t3 - t2,
    'first instance: parse': t4 - t3,
    'first instance: first query': t5 - t4,
    'second instance: parse': t6 - t5,
    'second instance: first query': t7 - t6,
  }));
}
