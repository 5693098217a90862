#!/usr/bin/env node
// The first rich call's time: in a fresh Node process, import the package and install its rich calls (as 'robots-eval/rich' does), parse a small
// robots.txt, then time the first `explain` (the rich module compiled and instantiated, the file
// parsed again in it) and, in another fresh process, the first `aiUse` with headers, a page and
// a tdmrep.json. Each figure is the median of N processes (default 15); with --baseline DIR
// (another build's pkg/, e.g. one built from main) both builds alternate in the same run.
//   node bench/js/rich-first-call.mjs [--baseline DIR] [--runs N]
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const runs = Number(arg('--runs') ?? 15);
const builds = { 'this build': join(root, 'pkg') };
if (arg('--baseline')) builds.baseline = resolve(arg('--baseline'));

const ROBOTS = 'User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n';
const CALLS = {
  explain: "r.explain('https://example.com/private/x', 'Googlebot')",
  aiUse: "r.aiUse('https://example.com/a/b', 'CCBot', { headers: { 'content-usage': 'train-ai=y', 'x-robots-tag': 'noai' }, " +
    "html: '<head><meta name=\"robots\" content=\"noindex\"></head>', tdmrep: '[{\"location\":\"/a/\",\"tdm-reservation\":1}]' })",
};

/** ms of the first call, in a fresh process. */
function once(pkgDir, call) {
  // pkg/rich.js is node.js with installRich() called (it imports 'robots-eval' by name).
  const src = `const m = await import(${JSON.stringify(pathToFileURL(join(pkgDir, 'node.js')).href)}); m.installRich();` +
    `const r = m.Robots.parse(${JSON.stringify(ROBOTS)}); r.isAllowed('https://example.com/', 'x');` +
    `const t = performance.now(); ${call}; process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', src], { encoding: 'utf8' }));
}

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
console.log(`Node ${process.version}, the median of ${runs} fresh processes, ms\n`);
console.log(`| first call | ${Object.keys(builds).join(' | ')} |`);
console.log(`|---|${Object.keys(builds).map(() => '---:|').join('')}`);
for (const [name, call] of Object.entries(CALLS)) {
  const times = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, dir] of Object.entries(builds)) times[k].push(once(dir, call));
  console.log(`| ${name} | ${Object.keys(builds).map((k) => median(times[k]).toFixed(2)).join(' | ')} |`);
}
