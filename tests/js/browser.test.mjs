// Headless Chromium (Debian's, driven by playwright-core): the package loaded by a plain
// <script type="module"> page with an import map, and as an esbuild bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const repo = process.env.ROBOTS_EVAL_REPO;
const here = process.cwd();
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

let server, base, browser, profile; // browser: a persistent context

before(async () => {
  writeFileSync(join(here, 'plain.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "robots-eval": "/node_modules/robots-eval/pkg/index.js", "robots-eval/verdict": "/node_modules/robots-eval/pkg/verdict.js", "robots-eval/rich": "/node_modules/robots-eval/pkg/rich.js" } }</script>
<script type="module" src="/browser-entry.mjs"></script>`);
  mkdirSync(join(here, 'bundle'), { recursive: true });
  execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), ['browser-entry.mjs', '--bundle', '--format=esm', '--platform=browser',
    '--minify', `--outfile=${join(here, 'bundle', 'app.js')}`, '--log-level=warning'], { cwd: here });
  writeFileSync(join(here, 'bundle.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/bundle/app.js"></script>');
  server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    // ?csp=...: the page is served with that Content Security Policy (the README quotes the error).
    const csp = url.searchParams.get('csp');
    try {
      const body = readFileSync(join(here, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', ...(csp ? { 'content-security-policy': csp } : {}) });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  const executablePath = execFileSync('sh', ['-c', 'command -v chromium']).toString().trim();
  // A fresh profile (user-data-dir) per run.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r) ?? r());
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function run(page) {
  const p = await browser.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await p.goto(`${base}/${page}`);
  await p.waitForFunction(() => globalThis.__result !== undefined, null, { timeout: 10000 }).catch(() => {});
  const result = await p.evaluate(() => globalThis.__result);
  await p.close();
  return { result, errors };
}

test('Chromium: plain <script type="module"> with an import map', async () => {
  const { result, errors } = await run('plain.html');
  assert.deepEqual(errors, []);
  assert.deepEqual(result, { failures: [] });
});

test('Chromium: an esbuild bundle (browser condition, wasm embedded)', async () => {
  const { result, errors } = await run('bundle.html');
  assert.deepEqual(errors, []);
  assert.deepEqual(result, { failures: [] });
});

// README.md, "Content Security Policy": the policy a page needs, and the error without it.
test('Chromium: a Content Security Policy needs \'wasm-unsafe-eval\'; without it the first parse throws a CompileError', async () => {
  const without = await run(`bundle.html?csp=${encodeURIComponent("script-src 'self'")}`);
  assert.equal(without.result.failures.length, 1);
  assert.match(without.result.failures[0], /CompileError: WebAssembly\.Module\(\): Compiling or instantiating WebAssembly module violates the following Content Security policy directive because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: "script-src 'self'"/);
  const allowed = await run(`bundle.html?csp=${encodeURIComponent("script-src 'self' 'wasm-unsafe-eval'")}`);
  assert.deepEqual(allowed.errors, []);
  assert.deepEqual(allowed.result, { failures: [] });
});

// README.md, "Browsers, without a bundler": the example page as the installed README has it.
test('Chromium: the README\'s page without a bundler', async () => {
  const readme = readFileSync(join(here, 'node_modules', 'robots-eval', 'README.md'), 'utf8');
  const html = /^\*\*Browsers, without a bundler\*\*[\s\S]*?^```html\n([\s\S]*?)^```$/m.exec(readme);
  assert.ok(html, 'README.md has no html example under "Browsers, without a bundler"');
  writeFileSync(join(here, 'readme.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${html[1]}`);
  const p = await browser.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(`${base}/readme.html`);
  const out = () => p.waitForFunction(() => document.getElementById('out').textContent, null, { timeout: 10000 }).then((h) => h.jsonValue());
  assert.equal(await out(), 'disallowed (line 2, rule)');
  await p.fill('#url', '/public');
  assert.equal(await out(), 'allowed (line 0, no-match)');
  await p.close();
  assert.deepEqual(errors, []);
});
