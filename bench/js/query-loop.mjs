#!/usr/bin/env node
// A fixed number of isAllowed calls through the package (pkg/, or DIR's node.js), over the
// 1,000 queries of ../shared/bench as flat strings, after 100,000 warm-up calls: for instruction
// counts under callgrind, which this shared machine's timings cannot replace for changes of a
// few percent. bench/js/query-instructions.sh runs it twice and prints the difference per query.
//   node bench/js/query-loop.mjs FILE url|path N [--site] [--pkg DIR]
// FILE: small, medium or large; url: full URLs, path: paths; --site: parsed with { url }.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [file, mode, n] = process.argv.slice(2);
const at = process.argv.indexOf('--pkg');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = at > 0 ? join(resolve(process.argv[at + 1]), 'node.js') : join(root, 'pkg', 'node.js');
const { Robots } = await import(pathToFileURL(entry).href);
// ../shared beside the repository (ROBOTS_EVAL_SHARED: elsewhere, e.g. from a git worktree).
const shared = join(process.env.ROBOTS_EVAL_SHARED ?? join(root, '..', 'shared'), 'bench');
const queries = JSON.parse(readFileSync(join(shared, 'queries.json'), 'utf8'));
// Flat strings, as bench.mjs gives both libraries (a string made with `+` is a rope).
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const flat = (s) => decoder.decode(encoder.encode(s));
const list = queries.map(([path]) => flat(mode === 'path' ? path : `https://example.com${path}`));
// One string per agent, as a crawler holds its user-agent (and the bench gives both libraries).
const agentStrings = new Map();
const agents = queries.map(([, agent]) => agentStrings.get(agent) ?? agentStrings.set(agent, flat(agent)).get(agent));
const site = process.argv.includes('--site') ? { url: 'https://example.com/robots.txt' } : undefined;
const r = Robots.parse(readFileSync(join(shared, `${file}.txt`), 'utf8'), site);
let allowed = 0;
const run = (count) => {
  for (let i = 0; i < count; i++) {
    const k = i % 1000;
    if (r.isAllowed(list[k], agents[k])) allowed++;
  }
};
run(100_000);
run(Number(n));
if (allowed < 0) console.log(allowed);
