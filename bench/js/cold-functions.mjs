#!/usr/bin/env node
// Which wasm functions a cold start compiles, and how many bytes of body: V8 compiles each
// function of the robots.txt module with Liftoff on its first call, at about 35 µs per KB of
// body on this machine kind, and that is most of the time our cold start spends over
// robots-parser's (docs/performance.md, "Cold start"). Unlike a time, the bytes are the same on
// every run and every machine, so a change to the cold path can be judged from one run.
//
// A fresh Node process imports the package (pkg/), constructs a Robots, parses FILE and asks one
// full-URL query, under --trace-wasm-compilation-times (--no-wasm-tier-up: only the first
// compilations). The functions' names come from a twin of the module that keeps them (the
// build's own wasm-opt run again with -g), checked to have the very same function bodies.
//
//   npm run build && node bench/js/cold-functions.mjs [FILE ...] [--list]
//   (default: the three files of ../shared/bench; --list prints every function compiled)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { wasmOptPasses } from '../../scripts/wasm-opt-passes.mjs';
import { forEachSection } from '../../scripts/wasm-reader.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const list = process.argv.includes('--list');
let files = process.argv.slice(2).filter((a) => !a.startsWith('--')).map((f) => resolve(f));
if (files.length === 0) {
  // ../shared beside the repository (ROBOTS_EVAL_SHARED: elsewhere, e.g. from a git worktree).
  const shared = join(process.env.ROBOTS_EVAL_SHARED ?? join(root, '..', 'shared'), 'bench');
  files = ['small.txt', 'medium.txt', 'large.txt'].map((f) => join(shared, f)).filter(existsSync);
}
if (process.env.COLD_FUNCTIONS_CHILD === '1') child();
else parent();

function parent() {
  const asBuilt = join(root, 'target', 'wasm-pkg', 'robots_eval', 'robots_eval_bg.wasm');
  if (!existsSync(asBuilt)) throw new Error(`${asBuilt} is missing: run npm run build first`);
  mkdirSync(join(root, 'target'), { recursive: true });
  const twinFile = join(root, 'target', 'robots_eval_bg.named.wasm');
  // The same passes as scripts/build-pkg.mjs, keeping the names section.
  execFileSync(join(root, 'node_modules', '.bin', 'wasm-opt'), [asBuilt, '--remove-imports', ...wasmOptPasses(), '-g', '--strip-producers', '--strip-target-features', '-o', twinFile]);
  const twin = functions(readFileSync(twinFile));
  const shipped = functions(readFileSync(join(root, 'pkg', 'robots_eval_bg.wasm')));
  if (twin.bodies.join() !== shipped.bodies.join()) throw new Error('the named twin\'s functions are not pkg/robots_eval_bg.wasm\'s: run npm run build first');
  const { names } = twin;
  console.log(`Wasm functions compiled by a cold start (Node ${process.version}): new Robots instance, parse FILE, isAllowed(full URL, 'Googlebot')\n`);
  console.log('| file | parse: functions | parse: KB of body | first query: functions | first query: KB of body | total KB |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const file of files) {
    // Two processes, one that stops after the parse: V8 prints its trace through C's buffered
    // stdout, which does not keep its order with anything the script could print between.
    const compiled = (stop) => {
      const out = execFileSync(process.execPath, ['--trace-wasm-compilation-times', '--no-wasm-tier-up', fileURLToPath(import.meta.url), file, stop], {
        env: { ...process.env, COLD_FUNCTIONS_CHILD: '1' },
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
  const { Robots } = await import(pathToFileURL(join(root, 'pkg', 'node.js')).href);
  const robots = Robots.parse(text);
  if (process.argv[3] === 'query') robots.isAllowed('https://example.com/admin/x?y=1', 'Googlebot');
}

/**
 * A module's functions: `bodies`, the byte length of each body (defined functions, in order), and
 * `names`, function index -> name from the "name" custom section (if it has one).
 */
function functions(bytes) {
  const bodies = [];
  const names = new Map();
  forEachSection(bytes, (id, r) => {
    if (id === 10) {
      for (let n = r.leb(); n > 0; n--) {
        const size = r.leb();
        bodies.push(size);
        r.at += size;
      }
    } else if (id === 0 && r.name() === 'name') {
      while (r.at < r.end) {
        const sub = bytes[r.at++];
        const subEnd = r.leb() + r.at;
        if (sub === 1) for (let n = r.leb(); n > 0; n--) names.set(r.leb(), r.name());
        r.at = subEnd;
      }
    }
  });
  return { bodies, names };
}
