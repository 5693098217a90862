// The package ships four WebAssembly modules (scripts/build-pkg.mjs): the verdict module, the
// policy module (fetchRobots), the rich module (explanations, lint, records, AI preferences,
// META tags, X-Robots-Tag) and the AI-use module (aiUse). A bundle carries only what it calls:
// - an app that only parses and asks isAllowed, from the main entry ('robots-eval') or from
//   'robots-eval/verdict', embeds the verdict module alone, and its minified browser bundle stays
//   within BUDGET bytes of gzip;
// - an app that calls fetchRobots embeds the policy module too (compiled on its first call);
// - an app that imports only metaRobots/xRobotsTag embeds the rich module alone;
// - 'robots-eval/rich' installs aiUse too, so its bundles embed the AI-use module, compiled on the
//   first aiUse only;
// - an app that explains ('robots-eval/rich') embeds both, and compiles the rich module on its
//   first explain, not at import or parse; one that explains without that import gets an Error
//   naming it.
// Each bundler the README names is tried (devDependencies; tests/js/bundlers.mjs drives the others
// than esbuild through their APIs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { appBundleBytes, APP_ENTRIES, BUDGET, parseAllowedApp } from './bundle-app.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const here = process.cwd();
const pkgDir = dirname(createRequire(join(here, 'x.js')).resolve('robots-eval/package.json'));

const { encodeWasmText } = await import(pathToFileURL(join(repo, 'js', 'wasm-text.js')).href);

/** A piece of each module's text as the embedded builds carry it (js/wasm-text.js; from its middle). */
function marker(file) {
  const { text } = encodeWasmText(readFileSync(join(pkgDir, 'pkg', file)));
  return text.slice(text.length >> 1, (text.length >> 1) + 64);
}
const VERDICT = 'robots_eval_bg.wasm';
const RICH = 'robots_eval_rich_bg.wasm';
const POLICY = 'robots_eval_policy_bg.wasm';
const AI = 'robots_eval_ai_bg.wasm';

function bundle(name, source, platform) {
  writeFileSync(join(here, `${name}.mjs`), source);
  const out = join(here, `${name}.bundle.js`);
  execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), [`${name}.mjs`, '--bundle', '--format=esm', `--platform=${platform}`,
    '--minify', `--outfile=${out}`, '--log-level=warning'], { cwd: here });
  return readFileSync(out, 'utf8');
}

for (const entry of APP_ENTRIES) {
  test(`the parse + isAllowed browser app from '${entry}' (esbuild --minify): at most ${BUDGET} B gzip, without the rich module`, () => {
    const { text, gzip } = appBundleBytes(here, join(repo, 'node_modules', '.bin', 'esbuild'), entry);
    console.log(`parse + isAllowed app from '${entry}', esbuild --minify, browser: ${text.length} B, ${gzip} B gzip (budget ${BUDGET} B)`);
    assert.ok(text.includes(marker(VERDICT)), 'the verdict module is embedded');
    assert.ok(!text.includes(marker(RICH)), 'the rich module is not');
    assert.ok(!text.includes(marker(POLICY)), 'nor the policy module (fetchRobots is not called)');
    assert.ok(!text.includes(marker(AI)), 'nor the AI-use module');
    assert.ok(gzip <= BUDGET, `${gzip} B gzip is over the budget of ${BUDGET} B`);
    // And it runs: the bundle answers.
    writeFileSync(join(here, 'app-run.mjs'), "import { mayFetch } from './parse-allowed-app.bundle.js';\nconsole.log(mayFetch('User-agent: *\\nDisallow: /x\\n', 'https://a.example/x', 'Bot'));\n");
    assert.equal(execFileSync(process.execPath, [join(here, 'app-run.mjs')]).toString().trim(), 'false');
  });
}

for (const platform of ['browser', 'neutral']) {
  test(`esbuild (${platform}): each bundle embeds the modules it calls and no other`, () => {
    const verdictOnly = bundle(`verdict-${platform}`, "import { Robots } from 'robots-eval/verdict';\nconsole.log(Robots.parse('User-agent: *\\nDisallow: /x\\n').isAllowed('/x', 'a'));\n", platform);
    assert.ok(verdictOnly.includes(marker(VERDICT)) && !verdictOnly.includes(marker(RICH)) && !verdictOnly.includes(marker(AI)), 'verdict entry: the verdict module only');
    const full = bundle(`explain-${platform}`, "import { Robots } from 'robots-eval/rich';\nconsole.log(Robots.parse('User-agent: *\\nDisallow: /x\\n').explain('/x', 'a').line);\n", platform);
    assert.ok(full.includes(marker(VERDICT)) && full.includes(marker(RICH)) && full.includes(marker(AI)), "'robots-eval/rich': the verdict, rich and AI-use modules");
    const sideEffect = bundle(`explain-import-${platform}`, "import 'robots-eval/rich';\nimport { Robots } from 'robots-eval';\nconsole.log(Robots.parse('User-agent: *\\nDisallow: /x\\n').explain('/x', 'a').line);\n", platform);
    assert.ok(sideEffect.includes(marker(RICH)), "import 'robots-eval/rich' is kept for its effect");
    const main = bundle(`main-${platform}`, "import { Robots } from 'robots-eval';\nconsole.log(Robots.parse('User-agent: *\\nDisallow: /x\\n').isAllowed('/x', 'a'));\n", platform);
    assert.ok(main.includes(marker(VERDICT)) && !main.includes(marker(RICH)) && !main.includes(marker(AI)), 'main entry, verdicts only: the verdict module only');
    const fetching = bundle(`fetch-${platform}`, "import { fetchRobots } from 'robots-eval/verdict';\nconsole.log(typeof fetchRobots);\n", platform);
    assert.ok(fetching.includes(marker(VERDICT)) && fetching.includes(marker(POLICY)) && !fetching.includes(marker(RICH)), 'fetchRobots: the verdict and policy modules');
    const metaOnly = bundle(`meta-${platform}`, "import { metaRobots } from 'robots-eval';\nconsole.log(metaRobots('<meta name=robots content=noindex>', 'a').index);\n", platform);
    assert.ok(metaOnly.includes(marker(RICH)) && !metaOnly.includes(marker(VERDICT)) && !metaOnly.includes(marker(AI)), 'metaRobots alone: the rich module only');
  });
}

/** The bundlers the README names, other than esbuild (devDependencies; a test is skipped, saying so, where one is missing). */
const BUNDLERS = {
  rollup: () => existsSync(join(repo, 'node_modules', 'rollup')),
  webpack: () => existsSync(join(repo, 'node_modules', 'webpack')),
  vite: () => existsSync(join(repo, 'node_modules', 'vite')),
  parcel: () => existsSync(join(repo, 'node_modules', 'parcel')),
};
// Parcel 2.16 keeps the entry's unused top-level calls although they are marked pure, and with
// them fetchRobots and the policy module (8 KB of gzip); and its minifier keeps whatever of a
// bundled entry file is not an unused top-level declaration, so from the main entry (one file with
// the rich calls' code) it keeps the rich module too. Its bundle of 'robots-eval/verdict' is held to
// leaving the rich module out, and its sizes printed; the others are held to the budget from either
// entry.
const WITHIN_BUDGET = new Set(['rollup', 'webpack', 'vite']);
for (const [name, installed] of Object.entries(BUNDLERS)) {
  for (const entry of APP_ENTRIES) {
    const held = WITHIN_BUDGET.has(name) || entry === 'robots-eval/verdict';
    test(`${name}: the parse + isAllowed app from '${entry}' embeds the verdict module${held ? ' and not the rich one' : ''}${WITHIN_BUDGET.has(name) ? `, within ${BUDGET} B gzip` : ''}`, { skip: installed() ? false : `${name} is not installed (not a devDependency)` }, async () => {
      const { bundleWith } = await import('./bundlers.mjs');
      const text = await bundleWith(name, repo, here, parseAllowedApp(entry));
      const gzip = gzipSync(text, { level: 9 }).length;
      console.log(`parse + isAllowed app from '${entry}', ${name}: ${text.length} B, ${gzip} B gzip${text.includes(marker(POLICY)) ? ' (with the policy module)' : ''}${text.includes(marker(RICH)) ? ' (with the rich module)' : ''}`);
      assert.ok(text.includes(marker(VERDICT)), 'the verdict module is embedded');
      if (held) assert.ok(!text.includes(marker(RICH)), 'the rich module is not');
      if (WITHIN_BUDGET.has(name)) {
        assert.ok(!text.includes(marker(POLICY)), 'nor the policy module');
        assert.ok(gzip <= BUDGET, `${gzip} B gzip is over the budget of ${BUDGET} B`);
      }
    });
  }
}

test('the rich and AI-use modules are compiled on the first call that needs each, not at import, parse or query', async () => {
  const compiled = [];
  const Module = WebAssembly.Module;
  // A Proxy, so that `instanceof WebAssembly.Module` (wasm-bindgen's glue asks) still holds.
  WebAssembly.Module = new Proxy(Module, {
    construct(target, args) {
      compiled.push(args[0].length);
      return Reflect.construct(target, args);
    },
  });
  try {
    const { Robots, metaRobots } = await import('robots-eval/rich');
    const robots = Robots.parse('User-agent: *\nDisallow: /x\n');
    robots.isAllowed('/x', 'a');
    robots.table(['/x'], ['a']);
    robots.crawlDelay('a');
    assert.deepEqual(robots.sitemaps, []);
    assert.equal(compiled.length, 1, 'one module after parse and verdicts');
    assert.equal(robots.explain('/x', 'a').line, 2);
    assert.equal(compiled.length, 2, 'the rich module after the first explain');
    assert.equal(compiled[1], readFileSync(join(pkgDir, 'pkg', RICH)).length);
    assert.equal(metaRobots('<meta name="robots" content="noindex">', 'a').index, false);
    assert.equal(compiled.length, 2, 'compiled once');
    const answer = robots.aiUse('https://a.example/x', 'a', { headers: { 'content-usage': 'train-ai=n' } });
    assert.equal(answer['train-ai'].answer, 'deny');
    assert.equal(compiled.length, 3, 'the AI-use module after the first aiUse');
    assert.equal(compiled[2], readFileSync(join(pkgDir, 'pkg', AI)).length);
    assert.equal(robots.explain('/x', 'a').line, 2, 'each module keeps its own parse of the file');
    robots.aiUse('https://a.example/y', 'a');
    assert.equal(compiled.length, 3, 'each compiled once');
    robots.free();
  } finally {
    WebAssembly.Module = Module;
  }
});

// In a process of its own: any import of 'robots-eval/rich' installs the rich calls for the whole package.
for (const entry of ['robots-eval', 'robots-eval/verdict']) test(`'${entry}': the verdicts, and an Error naming 'robots-eval/rich' for what the rich module answers`, () => {
  const script = `
    import assert from 'node:assert/strict';
    import { Robots, fetchRobots, RobotRules } from '${entry}';
    assert.equal(typeof fetchRobots, 'function');
    assert.equal(typeof RobotRules, 'function');
    const robots = Robots.parse('User-agent: *\\nDisallow: /x\\nSitemap: https://a.example/s.xml\\nCrawl-delay: 2\\n');
    assert.equal(robots.isAllowed('/x', 'a'), false);
    assert.deepEqual(robots.sitemaps, ['https://a.example/s.xml']);
    assert.equal(robots.crawlDelay('a'), 2);
    for (const [what, call] of [['explain', () => robots.explain('/x', 'a')], ['diagnostics', () => robots.diagnostics],
      ['records', () => robots.records], ['aiPreferences', () => robots.aiPreferences('/x', 'a')], ['aiUse', () => robots.aiUse('/x', 'a')],
      ['aiPreferences', () => robots.table(['/x'], ['a'], { ai: true })]]) {
      assert.throws(call, (e) => e instanceof Error && e.message.includes(what) && e.message.includes("'robots-eval/rich'"), what);
    }
    const rich = await import('robots-eval/rich');
    if ('${entry}' === 'robots-eval') {
      assert.equal(rich.Robots, Robots, 'one class');
      assert.equal(robots.explain('/x', 'a').line, 2, 'installed on the same class by the import');
      assert.equal(robots.diagnostics.length, 0);
    } else {
      assert.throws(() => robots.explain('/x', 'a'), /the 'robots-eval\\/verdict' entry leaves out; import Robots from 'robots-eval\\/rich'/);
    }
    robots.free();
    console.log('ok');
  `;
  writeFileSync(join(here, 'entry-check.mjs'), script);
  assert.equal(execFileSync(process.execPath, [join(here, 'entry-check.mjs')]).toString().trim(), 'ok');
});
