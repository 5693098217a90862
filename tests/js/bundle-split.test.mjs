// The package ships two WebAssembly modules (scripts/build-pkg.mjs): robots.txt, and page-level
// rules (META tags, X-Robots-Tag). A bundle whose code never calls metaRobots or xRobotsTag must
// leave the second out, with its base64, and a bundle that does must carry it; and the page
// module is compiled on the first page-level call, not before. Bundled with esbuild and Rollup's
// tree-shaking conventions (esbuild here, the bundler the README shows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const repo = process.env.ROBOTS_EVAL_REPO;
const here = process.cwd();
const pkgDir = dirname(createRequire(join(here, 'x.js')).resolve('robots-eval/package.json'));

/** A piece of each module's base64 as the embedded build carries it (from its middle). */
function marker(file) {
  const b64 = readFileSync(join(pkgDir, 'pkg', file)).toString('base64');
  return b64.slice(b64.length >> 1, (b64.length >> 1) + 64);
}

function bundle(name, source, platform) {
  writeFileSync(join(here, `${name}.mjs`), source);
  const out = join(here, `${name}.bundle.js`);
  execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), [`${name}.mjs`, '--bundle', '--format=esm', `--platform=${platform}`,
    '--minify', `--outfile=${out}`, '--log-level=warning'], { cwd: here });
  return readFileSync(out, 'utf8');
}

for (const platform of ['browser', 'neutral']) {
  test(`esbuild (${platform}): a bundle without metaRobots/xRobotsTag leaves the page module out`, () => {
    const robotsOnly = bundle(`robots-only-${platform}`, "import { Robots } from 'robots-eval';\nconsole.log(Robots.parse('User-agent: *\\nDisallow: /x\\n').isAllowed('/x', 'a'));\n", platform);
    assert.ok(robotsOnly.includes(marker('robots_eval_bg.wasm')), 'the robots.txt module is embedded');
    assert.ok(!robotsOnly.includes(marker('robots_eval_page_bg.wasm')), 'the page module is not');
    const withMeta = bundle(`with-meta-${platform}`, "import { metaRobots } from 'robots-eval';\nconsole.log(metaRobots('<meta name=robots content=noindex>', 'a').index);\n", platform);
    assert.ok(withMeta.includes(marker('robots_eval_page_bg.wasm')), 'the page module is embedded when used');
  });
}

test('the page module is compiled on the first page-level call, not at import or parse', async () => {
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
    const { Robots, metaRobots } = await import('robots-eval');
    Robots.parse('User-agent: *\nDisallow: /x\n').isAllowed('/x', 'a');
    assert.equal(compiled.length, 1, 'one module after a parse and a query');
    assert.equal(metaRobots('<meta name="robots" content="noindex">', 'a').index, false);
    assert.equal(compiled.length, 2, 'the page module after the first metaRobots');
    assert.equal(compiled[1], readFileSync(join(pkgDir, 'pkg', 'robots_eval_page_bg.wasm')).length);
  } finally {
    WebAssembly.Module = Module;
  }
});
