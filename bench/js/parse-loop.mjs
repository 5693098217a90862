#!/usr/bin/env node
// A fixed number of Robots.parse + free through the package (pkg/, or DIR's node.js), as
// bench/js/bench.mjs's parse loop does them, after 20,000 warm-up ones: for instruction counts
// under callgrind. bench/js/parse-instructions.sh runs it twice and prints the difference per parse.
//   node bench/js/parse-loop.mjs FILE N [--pkg DIR]
// FILE: small, medium or large (../shared/bench).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [file, n] = process.argv.slice(2);
const at = process.argv.indexOf('--pkg');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = at > 0 ? join(resolve(process.argv[at + 1]), 'node.js') : join(root, 'pkg', 'node.js');
const { Robots } = await import(pathToFileURL(entry).href);
// A flat string, as bench.mjs reads it.
// ../shared beside the repository (ROBOTS_EVAL_SHARED: elsewhere, e.g. from a git worktree).
const text = readFileSync(join(process.env.ROBOTS_EVAL_SHARED ?? join(root, '..', 'shared'), 'bench', `${file}.txt`), 'utf8');
let total = 0;
const run = (count) => {
  for (let i = 0; i < count; i++) {
    const r = Robots.parse(text);
    total += r.dialect.length;
    r.free();
  }
};
run(20_000);
run(Number(n));
if (total < 0) console.log(total);
