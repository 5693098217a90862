#!/usr/bin/env node
// Which wasm functions a cold start compiles, and how many bytes of body: V8 compiles each
// function of the robots.txt module with Liftoff on its first call, at about 35 µs per KB of
// body on this machine kind, and that is most of the time our cold start spends over
// robots-parser's (docs/performance.md, "Cold start"). Unlike a time, the bytes are the same on
// every run and every machine, so a change to the cold path can be judged from one run.
//
// A fresh Node process imports the package (pkg/, with its .wasm swapped for a twin that keeps
// the function names: the build's own wasm-opt run again with -g), constructs a Robots, parses
// FILE and asks one full-URL query, under --trace-wasm-compilation-times (--no-wasm-tier-up:
// only the first compilations).
//
//   npm run build && node bench/js/cold-functions.mjs [FILE ...] [--list]
//   (default: the three files of ../shared/bench; --list prints every function compiled)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { wasmOptPasses } from '../../scripts/wasm-opt-passes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const list = process.argv.includes('--list');
let files = process.argv.slice(2).filter((a) => !a.startsWith('--')).map((f) => resolve(f));
if (files.length === 0) {
  const shared = join(root, '..', 'shared', 'bench');
  files = ['small.txt', 'medium.txt', 'large.txt'].map((f) => join(shared, f)).filter(existsSync);
}
if (process.env.COLD_FUNCTIONS_CHILD === '1') child();
else parent();

function parent() {
  const asBuilt = join(root, 'target', 'wasm-pkg', 'robots_eval', 'robots_eval_bg.wasm');
  if (!existsSync(asBuilt)) throw new Error(`${asBuilt} is missing: run npm run build first`);
  const dir = join(root, 'target', 'cold-functions');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(join(root, 'pkg'))) if (/\.(js|wasm)$/.test(f)) copyFileSync(join(root, 'pkg', f), join(dir, f));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  // The same passes as scripts/build-pkg.mjs, keeping the names section.
  execFileSync(join(root, 'node_modules', '.bin', 'wasm-opt'), [asBuilt, '--remove-imports', ...wasmOptPasses(), '-g', '--strip-producers', '--strip-target-features', '-o', join(dir, 'robots_eval_bg.wasm')]);
  const names = functionNames(readFileSync(join(dir, 'robots_eval_bg.wasm')));
  const shipped = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(root, 'pkg', 'robots_eval_bg.wasm')))).length;
  if (shipped !== WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(dir, 'robots_eval_bg.wasm')))).length) {
    throw new Error('the named twin does not match pkg/robots_eval_bg.wasm: run npm run build first');
  }
  // node.js reads the .wasm with one read of the length it was built with (js/load-file.js), and
  // the twin is longer by its names: the copy is told the twin's length.
  const shippedLength = readFileSync(join(root, 'pkg', 'robots_eval_bg.wasm')).length;
  const twinLength = readFileSync(join(dir, 'robots_eval_bg.wasm')).length;
  const entry = readFileSync(join(dir, 'node.js'), 'utf8');
  const call = `"robots_eval_bg.wasm",${shippedLength})`;
  if (entry.split(call).length !== 2) throw new Error(`pkg/node.js does not load robots_eval_bg.wasm as ${call}: update cold-functions.mjs`);
  writeFileSync(join(dir, 'node.js'), entry.replace(call, `"robots_eval_bg.wasm",${twinLength})`));
  console.log(`Wasm functions compiled by a cold start (Node ${process.version}): new Robots instance, parse FILE, isAllowed(full URL, 'Googlebot')\n`);
  console.log('| file | parse: functions | parse: KB of body | first query: functions | first query: KB of body | total KB |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const file of files) {
    // Two processes, one that stops after the parse: V8 prints its trace through C's buffered
    // stdout, which does not keep its order with anything the script could print between.
    const compiled = (stop) => {
      const out = execFileSync(process.execPath, ['--trace-wasm-compilation-times', '--no-wasm-tier-up', fileURLToPath(import.meta.url), file, stop], {
        env: { ...process.env, COLD_FUNCTIONS_CHILD: '1', COLD_FUNCTIONS_PKG: dir },
      }).toString();
      const fs = new Map();
      for (const m of out.matchAll(/#(\d+) using Liftoff.*bodysize (\d+)/g)) fs.set(Number(m[1]), Number(m[2]));
      return fs;
    };
    const parsed = compiled('parse');
    const phases = { parse: [...parsed], query: [...compiled('query')].filter(([i]) => !parsed.has(i)) };
    const kb = (fs) => (fs.reduce((s, [, b]) => s + b, 0) / 1024).toFixed(1);
    console.log(`| ${file.split('/').pop()} | ${phases.parse.length} | ${kb(phases.parse)} | ${phases.query.length} | ${kb(phases.query)} | ${kb([...phases.parse, ...phases.query])} |`);
    if (list) {
      for (const [name, fs] of Object.entries(phases)) {
        console.log(`\n${name}:`);
        for (const [i, b] of fs.sort((x, y) => y[1] - x[1])) console.log(`  ${String(b).padStart(6)} B  #${i} ${(names.get(i) ?? '?').slice(0, 110)}`);
      }
      console.log('');
    }
  }
}

async function child() {
  const text = readFileSync(process.argv[2]);
  const { Robots } = await import(pathToFileURL(join(process.env.COLD_FUNCTIONS_PKG, 'node.js')).href);
  const robots = Robots.parse(text);
  if (process.argv[3] === 'query') robots.isAllowed('https://example.com/admin/x?y=1', 'Googlebot');
}

/** Function index -> name, from the module's "name" custom section (its function names). */
function functionNames(bytes) {
  const names = new Map();
  let p = 8;
  const leb = () => {
    let r = 0, s = 0, x;
    do {
      x = bytes[p++];
      r |= (x & 0x7f) << s;
      s += 7;
    } while (x & 0x80);
    return r >>> 0;
  };
  const str = () => {
    const n = leb();
    const s = new TextDecoder().decode(bytes.subarray(p, p + n));
    p += n;
    return s;
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const end = leb() + p;
    if (id === 0 && str() === 'name') {
      while (p < end) {
        const sub = bytes[p++];
        const subEnd = leb() + p;
        if (sub === 1) for (let n = leb(); n > 0; n--) names.set(leb(), str());
        p = subEnd;
      }
    }
    p = end;
  }
  return names;
}
