#!/usr/bin/env node
// `npm run bench`: the npm package (pkg/, imported by its name) side by side with robots-parser
// (the most used npm parser), on the same work: the files of ../shared/bench, and the 1,000
// queries of its queries.json as a crawler holds them, full URL strings
// (https://example.com/a/b?c), given to both libraries alike. Prints Markdown tables, and writes
// them to bench/results.md, which README.md links to.
//
//   node bench/js/bench.mjs [--quick] [--baseline DIR]
//
// In one Node process: parse, isAllowed and the decision table; each benchmark's libraries run
// in turn (after a warm-up of each), RUNS times, so a change of the machine's load hits all of
// them alike; the median of the runs is reported, and the range of the per-run ratios. Our
// figure with paths (`/a/b`) instead of URLs is printed apart, labelled: robots-parser needs
// absolute URLs, so it is no comparison. Cold start: fresh Node processes, alternating.
// --quick: fewer, shorter runs (a check that the script works, not figures to publish).
// --baseline DIR: also measures another build of the package (DIR holds its node.js/index.js,
// e.g. the pkg/ of an older commit) in the same alternating runs.
//
// Google's own WebAssembly build of its library (../shared/bench/google-wasm, when present) is
// measured beside ours too: its one call, IsAllowed(agent, url, robots), parses the file every
// time, so the rows are "per call" (ours: parse + isAllowed + free each time, its usage) and
// "parse once" (ours: isAllowed on a file parsed once; its IsAllowed as it is); a cold start; and
// the bytes of a browser app that only parses and asks isAllowed (tests/js/bundle-app.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import robotsParser from 'robots-parser';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { Robots } from 'robots-eval'; // the repository's own package (self-reference to pkg/)
import { appBundleBytes, BUDGET } from '../../tests/js/bundle-app.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// ../shared beside the repository (ROBOTS_EVAL_SHARED: elsewhere, e.g. from a git worktree).
const sharedRoot = process.env.ROBOTS_EVAL_SHARED ?? join(root, '..', 'shared');
const shared = join(sharedRoot, 'bench');
if (!existsSync(join(shared, 'queries.json'))) {
  console.log(`SKIPPED: ${shared} is absent (it holds the benchmark inputs)`);
  process.exit(0);
}
const quick = process.argv.includes('--quick');
const RUNS = quick ? 3 : 9;
// Cold start: 21 fresh processes per library; on a shared 2-core machine, medians of 11 moved by
// 0.3 ms from one run to the next.
const COLD_RUNS = quick ? 5 : 21;
const baselineAt = process.argv.indexOf('--baseline');
const baselineName = baselineAt > 0 ? process.argv[baselineAt + 1] : null;
// The baseline is measured from a copy (target/bench-baseline) beside a package.json with this
// package's name and exports, so that it is loaded exactly as pkg/ is (by name, through the
// exports map, as an ES module); loaded by path from a folder without one, Node would parse it
// twice (as CommonJS, then as an ES module) and skip the package resolution.
const baselineDir = baselineName === null ? null : copyBaseline(resolve(baselineName));
const Baseline = baselineDir === null ? null : (await import(pathToFileURL(join(baselineDir, 'node.js')).href)).Robots;
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
  if (!existsSync(join(to, 'node.js'))) copyFileSync(join(to, 'index.js'), join(to, 'node.js'));
  return to;
}

// A string made by `+` is a rope (V8 ConsString), and one made by slice() may be a view of
// another: a crawler's URLs, read from a response or a queue, are flat strings. Every string
// both libraries get is rebuilt flat, once, before any timing.
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const flat = (s) => utf8Decoder.decode(utf8.encode(s));
const files = Object.fromEntries(['small', 'medium', 'large'].map((n) => [n, flat(readFileSync(join(shared, `${n}.txt`), 'utf8'))]));
const queries = JSON.parse(readFileSync(join(shared, 'queries.json'), 'utf8'));
const ORIGIN = 'https://example.com';
const ROBOTS_URL = `${ORIGIN}/robots.txt`;
const urls = queries.map(([path]) => flat(ORIGIN + path));
const paths = queries.map(([path]) => flat(path));
// One string per agent, as a crawler holds its user-agent.
const agentStrings = new Map();
const queryAgents = queries.map(([, agent]) => agentStrings.get(agent) ?? agentStrings.set(agent, flat(agent)).get(agent));
const agents = [...agentStrings.values()];

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

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Each `fns[k](n)` does n operations. After a warm-up of each, their runs alternate RUNS times;
 * returns, per function, the time per operation (ns) of every run.
 */
function compare(fns, { minMs = quick ? 60 : 250 } = {}) {
  const ns = fns.map((fn) => calibrate(fn, minMs));
  fns.forEach((fn, k) => fn(ns[k])); // warm-up: one full run each
  const times = fns.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      fn(ns[k]);
      times[k].push(((performance.now() - t0) * 1e6) / ns[k]);
    });
  }
  return times;
}

const box = { n: 0 };
/** Our builds: this one, and the baseline when there is one. */
const builds = Baseline === null ? [Robots] : [Robots, Baseline];
// The loops are compiled once per library and build (new Function), so that each has its own
// type feedback: one loop shared by two classes would be polymorphic and slower for both.
const loop = (params, body) => (...args) => new Function(...params, 'box', `return (n) => { ${body} };`)(...args, box);
const parseLoop = {
  ours: (R, text, options) => loop(['R', 'text', 'options'], 'for (let i = 0; i < n; i++) { const r = R.parse(text, options); box.n += r.dialect.length; r.free(); }')(R, text, options),
  theirs: (text) => loop(['parse', 'url', 'text'], 'for (let i = 0; i < n; i++) box.n += parse(url, text) ? 1 : 0;')(robotsParser, ROBOTS_URL, text),
};
// Both libraries' isAllowed(url, agent), on the same 1,000 (URL, agent) pairs in the same order.
const queryLoop = (r, list) => loop(['r', 'list', 'agents'],
  'for (let i = 0; i < n; i++) { const k = i % 1000; if (r.isAllowed(list[k], agents[k])) box.n++; }')(r, list, queryAgents);
const tableLoop = {
  ours: (r) => loop(['r', 'urls', 'agents'], 'for (let i = 0; i < n; i++) box.n += r.table(urls, agents).allowed.length;')(r, urls, agents),
  // robots-parser has no table: the same cells, one isAllowed each, into the same shape.
  theirs: (p) => loop(['p', 'urls', 'agents'], `for (let i = 0; i < n; i++) {
    const allowed = new Array(urls.length);
    for (let u = 0; u < urls.length; u++) {
      const row = new Array(agents.length);
      for (let a = 0; a < agents.length; a++) row[a] = p.isAllowed(urls[u], agents[a]) !== false;
      allowed[u] = row;
    }
    box.n += allowed.length;
  }`)(p, urls, agents),
};

/** [ours, theirs, baseline?]: each the per-run times of compare(). */
const measure = (ourFns, theirFn) => {
  const t = compare([...ourFns, theirFn]);
  return [t[0], t[ourFns.length], ourFns.length > 1 ? t[1] : null];
};

// Ours given the robots.txt URL too (`url` option), as robots-parser always is: it then refuses
// URLs of other sites, as robots-parser does (which answers undefined). Measured in the same runs,
// printed apart: the comparison rows give each library the least its API needs for the same
// answers.
const SITE = { url: ROBOTS_URL };
const rows = []; // { what, unit, ours, theirs, base } (per-run times, ns)
const ourOther = []; // [what, ns]: our figures that are not the comparison
for (const [name, text] of Object.entries(files)) {
  const t = compare([...builds.map((R) => parseLoop.ours(R, text)), parseLoop.theirs(text), parseLoop.ours(Robots, text, SITE)]);
  rows.push({
    what: `parse ${name} (${(text.length / 1024).toFixed(1)} KB)`, unit: 'per parse',
    ours: t[0], theirs: t[builds.length], base: builds.length > 1 ? t[1] : null,
  });
  ourOther.push([`parse ${name}, given the robots.txt URL (\`{ url }\`)`, median(t[builds.length + 1]), median(t[0])]);
}
for (const [name, text] of Object.entries(files)) {
  const parsed = builds.map((R) => R.parse(text));
  const p = robotsParser(ROBOTS_URL, text);
  const onSite = Robots.parse(text, SITE);
  const t = compare([...parsed.map((r) => queryLoop(r, urls)), queryLoop(p, urls), queryLoop(parsed[0], paths), queryLoop(onSite, urls)]);
  // Both answer the same questions (they may disagree on a few by design).
  let same = 0;
  for (let i = 0; i < 1000; i++) same += parsed[0].isAllowed(urls[i], queryAgents[i]) === (p.isAllowed(urls[i], queryAgents[i]) !== false) ? 1 : 0;
  rows.push({
    what: `isAllowed ${name}, full URLs (answers agree on ${same / 10}%)`, unit: 'per query',
    ours: t[0], theirs: t[builds.length], base: builds.length > 1 ? t[1] : null,
  });
  ourOther.push([`isAllowed ${name}, given paths (\`${paths[0]}\`) instead of full URLs`, median(t[builds.length + 1]), median(t[0])]);
  ourOther.push([`isAllowed ${name}, full URLs, parsed with \`{ url }\` (other sites refused)`, median(t[builds.length + 2]), median(t[0])]);
  for (const r of [...parsed, onSite]) r.free();
}
// robots-parser's own API on our engine (robots-eval/robots-parser, what `overrides` swaps in)
// against robots-parser, on the same 1,000 full-URL queries.
{
  const { default: compatParser } = await import('robots-eval/robots-parser');
  for (const [name, text] of Object.entries(files)) {
    const ours = compatParser(ROBOTS_URL, text);
    const p = robotsParser(ROBOTS_URL, text);
    let same = 0;
    for (let i = 0; i < 1000; i++) same += ours.isAllowed(urls[i], queryAgents[i]) === p.isAllowed(urls[i], queryAgents[i]) ? 1 : 0;
    const [o, t] = measure([queryLoop(ours, urls)], queryLoop(p, urls));
    rows.push({ what: `isAllowed ${name}, full URLs, through \`robots-eval/robots-parser\` (answers agree on ${same / 10}%)`, unit: 'per query', ours: o, theirs: t, base: null });
  }
}
{
  const parsed = builds.map((R) => R.parse(files.medium));
  const p = robotsParser(ROBOTS_URL, files.medium);
  const cells = urls.length * agents.length;
  const perCell = (t) => t && t.map((ns) => ns / cells);
  const [ours, theirs, base] = measure(parsed.map((r) => tableLoop.ours(r)), tableLoop.theirs(p));
  rows.push({ what: `table: 1,000 full URLs x ${agents.length} agents, medium`, unit: 'per cell', ours: perCell(ours), theirs: perCell(theirs), base: perCell(base) });
  for (const r of parsed) r.free();
}

// Google's build, side by side, in the google dialect (the reading it is the reference of).
const googleDir = join(shared, 'google-wasm');
const googleGlue = join(googleDir, 'robots_google.cjs');
const googleWasm = join(googleDir, 'robots_google.wasm');
const google = existsSync(googleGlue) && existsSync(googleWasm)
  ? await createRequire(import.meta.url)(googleGlue)({ wasmBinary: readFileSync(googleWasm) })
  : null;
const googleRows = []; // { what, ours, theirs } (per-run times, ns)
if (google !== null) {
  const GOOGLE = { dialect: 'google' };
  const googleLoop = (text) => loop(['g', 'urls', 'agents', 'text'],
    'for (let i = 0; i < n; i++) { const k = i % 1000; if (g.IsAllowed(agents[k], urls[k], text)) box.n++; }')(google, urls, queryAgents, text);
  const perCallLoop = (text) => loop(['R', 'urls', 'agents', 'text', 'options'],
    'for (let i = 0; i < n; i++) { const k = i % 1000; const r = R.parse(text, options); if (r.isAllowed(urls[k], agents[k])) box.n++; r.free(); }')(Robots, urls, queryAgents, text, GOOGLE);
  for (const [name, text] of Object.entries(files)) {
    const parsed = Robots.parse(text, GOOGLE);
    let same = 0;
    for (let i = 0; i < 1000; i++) same += parsed.isAllowed(urls[i], queryAgents[i]) === google.IsAllowed(queryAgents[i], urls[i], text) ? 1 : 0;
    // Google's calls are slow on large.txt: shorter runs keep the benchmark's length reasonable.
    const t = compare([perCallLoop(text), queryLoop(parsed, urls), googleLoop(text)]);
    googleRows.push({ what: `${name}, per call: parse + isAllowed each time (answers agree on ${same / 10}%)`, ours: t[0], theirs: t[2] });
    googleRows.push({ what: `${name}, parse once, then isAllowed`, ours: t[1], theirs: t[2] });
    parsed.free();
  }
}

// Cold start: a fresh Node process each time, from the first line of its script: import the
// package, parse medium.txt, answer one full-URL query. Each library loaded by `import` (an
// ES module script, as a crawler's is); the processes of the libraries alternate. The parent
// also times each process from spawn to exit (Node's own start included).
const COLD_URL = 'https://example.com/admin/x?y=1';
const script = (load, parse, query) => `const t0 = performance.now(); ${load} const t1 = performance.now(); ${parse} const t2 = performance.now(); ${query} const t3 = performance.now(); console.log(JSON.stringify([t3 - t0, t1 - t0, t2 - t1, t3 - t2]));`;
const ourCold = script(`const { Robots } = await import('robots-eval');`, 'const r = Robots.parse(process.env.T);', `r.isAllowed(${JSON.stringify(COLD_URL)}, 'Googlebot');`);
const theirCold = script(`const { default: parse } = await import('robots-parser');`, `const r = parse(${JSON.stringify(ROBOTS_URL)}, process.env.T);`, `r.isAllowed(${JSON.stringify(COLD_URL)}, 'Googlebot');`);
// Google's: its glue required, the module compiled from its bytes (the factory's promise), then
// one IsAllowed, which parses the file and answers.
const googleCold = script(`const { createRequire } = await import('node:module'); const { readFileSync } = await import('node:fs'); const g = await createRequire(${JSON.stringify(join(root, 'x.js'))})(${JSON.stringify(googleGlue)})({ wasmBinary: readFileSync(${JSON.stringify(googleWasm)}) });`,
  '', `g.IsAllowed('Googlebot', ${JSON.stringify(COLD_URL)}, process.env.T);`);
// Each of our builds is imported by its name from the folder whose package.json names it.
const coldScripts = [[ourCold, root], ...(baselineDir ? [[ourCold, baselineDir]] : []), ...(google ? [[googleCold, root]] : []), [theirCold, root]];
const cold = coldScripts.map(() => ({ parts: [], wall: [] }));
for (let i = 0; i < COLD_RUNS; i++) {
  coldScripts.forEach(([code, cwd], k) => {
    const t0 = performance.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd, env: { ...process.env, T: files.medium } });
    cold[k].wall.push((performance.now() - t0) * 1e6);
    cold[k].parts.push(JSON.parse(out.toString()).map((ms) => ms * 1e6));
  });
}
const coldOf = (c) => ({ parts: c.parts[0].map((_, j) => c.parts.map((p) => p[j])), wall: c.wall });
const [coldOurs, coldTheirs, coldBase] = [coldOf(cold[0]), coldOf(cold[cold.length - 1]), baselineDir ? coldOf(cold[1]) : null];
const coldGoogle = google ? coldOf(cold[cold.length - 2]) : null;

// ---- Output ---------------------------------------------------------------------------------
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(ns >= 1e5 ? 0 : 1)} µs` : `${ns.toFixed(0)} ns`);
const x = (v) => `${v.toFixed(v >= 10 ? 1 : 2)}x`;
/** The median of the per-run ratios a/b, and their range (runs of one benchmark alternate). */
const ratios = (a, b) => {
  const r = a.map((v, i) => v / b[i]).sort((p, q) => p - q);
  return `${x(median(r))} (${x(r[0])}–${x(r[r.length - 1])})`;
};
const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
const allSizes = JSON.parse(readFileSync(join(root, 'pkg', 'sizes.json'), 'utf8'));
const sizes = allSizes['robots_eval_bg.wasm'];
const cpu = cpus();
// The report, printed and written to bench/results.md (README.md links to it; a --quick run
// writes target/bench-results-quick.md instead, which is no figure to publish).
const report = [];
const say = (text) => {
  console.log(text);
  report.push(text);
};
say(`\n**robots-eval ${version(root)}** (pkg/; verdict module ${sizes.raw} B, ${sizes.gzip} B gzip) **vs robots-parser ${version(join(root, 'node_modules', 'robots-parser'))}**, ` +
  `Node ${process.version}, ${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
  `Both get the same input: the files of ../shared/bench, and its 1,000 queries (${agents.length} agents) as full URLs (\`${urls[0]}\`), flat strings. ` +
  `Median of ${RUNS} runs, the libraries' runs alternating after a warm-up; speed-up = robots-parser's time / ours, its range over the runs in brackets` +
  ` (\`node bench/js/bench.mjs${quick ? ' --quick' : ''}\`).\n`);
const baseHead = Baseline === null ? '' : ` baseline (${baselineName}) | this build vs baseline |`;
say(`| benchmark | robots-eval | robots-parser | speed-up |${baseHead}`);
say(`|---|---:|---:|---:|${Baseline === null ? '' : '---:|---:|'}`);
for (const { what, unit, ours, theirs, base } of rows) {
  const extra = base === null ? '' : ` ${fmt(median(base))} | ${ratios(base, ours)} |`;
  say(`| ${what} | ${fmt(median(ours))} ${unit} | ${fmt(median(theirs))} | ${ratios(theirs, ours)} |${extra}`);
}
say('\nOur other figures, not the comparison (each in the same runs as its row above, whose figure is beside it): with paths, which robots-parser cannot take; and parsed with the robots.txt URL, which robots-parser always is (the comparison gives each library the least its API needs for the same answers).\n');
say('| robots-eval | time | the row above |');
say('|---|---:|---:|');
for (const [what, ns, row] of ourOther) say(`| ${what} | ${fmt(ns)} | ${fmt(row)} |`);

say(`\nCold start: a fresh Node process each time (median of ${COLD_RUNS} each, alternating): \`import\` the package, parse medium.txt, answer one full-URL query.\n`);
const coldBaseHead = coldBase === null ? '' : ' baseline |';
say(`| cold start | robots-eval | robots-parser | robots-eval / robots-parser |${coldBaseHead}`);
say(`|---|---:|---:|---:|${coldBase === null ? '' : '---:|'}`);
const coldRow = (what, pick) => {
  const extra = coldBase === null ? '' : ` ${fmt(median(pick(coldBase)))} |`;
  say(`| ${what} | ${fmt(median(pick(coldOurs)))} | ${fmt(median(pick(coldTheirs)))} | ${ratios(pick(coldOurs), pick(coldTheirs))} |${extra}`);
};
coldRow('import + parse + first query, from the script\'s first line', (c) => c.parts[0]);
coldRow('of which import', (c) => c.parts[1]);
coldRow('of which parse (ours: with compiling and instantiating the .wasm)', (c) => c.parts[2]);
coldRow('of which the first query', (c) => c.parts[3]);
coldRow('the whole process, spawn to exit (Node\'s own start included)', (c) => c.wall);

// ---- Google's build --------------------------------------------------------------------------
if (google === null) {
  say(`\nGoogle's WebAssembly build: SKIPPED (${googleDir} is absent).`);
} else {
  say(`\n**vs Google's WebAssembly build** (google/robotstxt's robots_wasm.cc, ${googleDir}: IsAllowed(agent, url, robots) parses the file on every call; ours with \`{ dialect: 'google' }\`). Same queries, same runs as above; speed-up = Google's time / ours.\n`);
  say('| benchmark | robots-eval | Google | speed-up |');
  say('|---|---:|---:|---:|');
  for (const { what, ours, theirs } of googleRows) say(`| ${what} | ${fmt(median(ours))} per query | ${fmt(median(theirs))} | ${ratios(theirs, ours)} |`);
  say(`\n| cold start (same processes as above, alternating) | robots-eval | Google | robots-eval / Google |`);
  say('|---|---:|---:|---:|');
  say(`| import + parse + first query | ${fmt(median(coldOurs.parts[0]))} | ${fmt(median(coldGoogle.parts[0]))} | ${ratios(coldOurs.parts[0], coldGoogle.parts[0])} |`);
  say(`| the whole process, spawn to exit | ${fmt(median(coldOurs.wall))} | ${fmt(median(coldGoogle.wall))} | ${ratios(coldOurs.wall, coldGoogle.wall)} |`);
}
{
  // The browser app that only parses and asks isAllowed, bundled with esbuild --minify.
  const dir = join(root, 'target', 'bench-app');
  mkdirSync(dir, { recursive: true });
  const app = appBundleBytes(dir, join(root, 'node_modules', '.bin', 'esbuild'));
  say(`\nBytes shipped: a browser app that only parses and asks isAllowed (tests/js/bundle-app.mjs, \`import { Robots } from 'robots-eval'\`, \`esbuild --bundle --minify --platform=browser\`), gzip -9.\n`);
  say('| | bytes | gzip |');
  say('|---|---:|---:|');
  say(`| robots-eval: the app's bundle (budget ${BUDGET} B gzip) | ${app.text.length} | ${app.gzip} |`);
  const webGlue = join(googleDir, 'web', 'robots_google.mjs');
  const webWasm = join(googleDir, 'web', 'robots_google.wasm');
  if (existsSync(webGlue) && existsSync(webWasm)) {
    const [glue, wasm] = [readFileSync(webGlue), readFileSync(webWasm)];
    const gz = (b) => gzipSync(b, { level: 9 }).length;
    say(`| Google: its module + browser glue (web/, as two files) | ${glue.length + wasm.length} | ${gz(glue) + gz(wasm)} |`);
  }
  for (const [file, s] of Object.entries(allSizes)) if (s?.gzip) say(`| robots-eval: ${file} (for reference) | ${s.raw} | ${s.gzip} |`);
}
const resultsFile = quick ? join(root, 'target', 'bench-results-quick.md') : join(root, 'bench', 'results.md');
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `# Benchmark results\n\nWritten by \`npm run bench\` (bench/js/bench.mjs${quick ? ' --quick' : ''}); run it again to replace them.\n${report.join('\n')}\n`);
console.log(`\n(written to ${resultsFile})`);
if (box.n === 0.5) console.log(box.n);
