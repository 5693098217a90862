// The README's examples, runtime by runtime, as the installed package ships them
// (node_modules/robots-eval/README.md is what npm shows): each is copied out of the README and
// run in its real runtime against a real loopback server, so an example that stops working
// fails here. The browser example runs in Chromium in browser.test.mjs; the Rust one is a
// fragment (the core's doctests run the same calls).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorker, oneWorkerConfig, startWorkerd } from './workerd.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const bin = (...p) => join(repo, 'node_modules', ...p);
const here = process.cwd();
const ROBOTS = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: https://example.com/sitemap.xml\n\nUser-agent: Bingbot\nDisallow: /\nDisalow: /typo\n';

/** The README's code blocks, by the bold label of the paragraph above each ("Node, ES modules"). */
function examples() {
  const readme = readFileSync(join(here, 'node_modules', 'robots-eval', 'README.md'), 'utf8');
  const found = new Map();
  let label = null;
  for (const m of readme.matchAll(/^\*\*([^*]+)\*\*|^```\w+\n([\s\S]*?)^```$/gm)) {
    if (m[1] !== undefined) label = m[1];
    else if (label !== null && !found.has(label)) found.set(label, m[2]);
  }
  return found;
}

let server, base;
before(async () => {
  writeFileSync(join(here, 'robots.txt'), ROBOTS);
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    else res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => server?.close(r) ?? r()));

/**
 * Writes the example labelled `label` (with its example.com URLs pointed at the loopback server)
 * and runs it, without blocking this process, which serves the loopback server.
 */
async function run(label, file, command, args, env = {}) {
  const code = examples().get(label);
  assert.ok(code, `README.md has no example labelled "${label}"`);
  writeFileSync(join(here, file), code.replaceAll('https://example.com/', `${base}/`));
  return (await promisify(execFile)(command, [...args, file], { cwd: here, env: { ...process.env, ...env }, encoding: 'utf8' })).stdout;
}

test('README: AI use, every signal (the output shown beside it)', async () => {
  const out = await run('AI use, every signal', 'readme-ai-use.mjs', process.execPath, []);
  const readme = readFileSync(join(here, 'node_modules', 'robots-eval', 'README.md'), 'utf8');
  const shown = readme.slice(readme.indexOf('**AI use, every signal**')).match(/^```text\n([\s\S]*?)^```$/m)[1];
  assert.equal(out, shown);
});

test('README: AI usage preferences (the output shown beside it)', async () => {
  const out = await run('AI usage preferences', 'readme-ai.mjs', process.execPath, []);
  const readme = readFileSync(join(here, 'node_modules', 'robots-eval', 'README.md'), 'utf8');
  const shown = readme.slice(readme.indexOf('**AI usage preferences**')).match(/^```text\n([\s\S]*?)^```$/m)[1];
  assert.equal(out.replaceAll(`${base}/`, 'https://example.com/'), shown);
});

test('README: Node, ES modules (fetchRobots from a loopback server)', async () => {
  const out = await run('Node, ES modules', 'readme-esm.mjs', process.execPath, []);
  assert.match(out, /^200 parse$/m);
  assert.match(out, /^allowed +http:\S+\/ line 0 \(no-match\)$/m);
  assert.match(out, /^disallowed +http:\S+\/private\/x line 2 \(rule\)$/m);
});

test('README: Node, CommonJS (a decision table and the diagnostics)', async () => {
  const out = await run('Node, CommonJS', 'readme-cjs.cjs', process.execPath, []);
  assert.match(out, /^\/a Googlebot: true, Bingbot: false$/m);
  assert.match(out, /^\/private\/b\?c=d Googlebot: false, Bingbot: false$/m);
  assert.match(out, /^line 8: warning typo: /m);
});

test('README: bundlers (an esbuild bundle of the example, imported by Node)', () => {
  const code = examples().get('Bundlers');
  assert.ok(code, 'README.md has no example labelled "Bundlers"');
  writeFileSync(join(here, 'readme-app.js'), code);
  execFileSync(bin('.bin', 'esbuild'), ['readme-app.js', '--bundle', '--format=esm', '--outfile=readme-dist/app.mjs', '--log-level=warning'], { cwd: here });
  const out = execFileSync(process.execPath, ['--input-type=module', '-e',
    `import { mayFetch } from './readme-dist/app.mjs'; console.log(mayFetch(${JSON.stringify(ROBOTS)}, '/private/x', 'MyBot'), mayFetch('', '/x', 'MyBot'));`], { cwd: here, encoding: 'utf8' });
  assert.equal(out.trim(), 'false true');
});

test('README: Deno (no permissions; `using`)', () => {
  const code = examples().get('Deno');
  assert.ok(code, 'README.md has no example labelled "Deno"');
  // The package is installed here, not published: the npm: specifier becomes the bare name.
  writeFileSync(join(here, 'readme-deno.ts'), code.replace("'npm:robots-eval'", "'robots-eval'"));
  const out = execFileSync(bin('@deno', 'linux-x64-glibc', 'deno'), ['run', '--quiet', '--no-lock', 'readme-deno.ts'], {
    cwd: here, encoding: 'utf8', env: { ...process.env, DENO_DIR: mkdtempSync(join(tmpdir(), 'deno-')), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  assert.equal(out, 'false\nno-match\n');
});

test('README: Bun', async () => {
  const out = await run('Bun', 'readme-bun.js', bin('@oven', 'bun-linux-x64', 'bin', 'bun'), [], { BUN_INSTALL_CACHE_DIR: mkdtempSync(join(tmpdir(), 'bun-')) });
  assert.equal(out, 'false\n2 [ "https://example.com/sitemap.xml" ]\n');
});

test('README: Cloudflare Workers (in workerd, fetching robots.txt from a loopback server)', async () => {
  const code = examples().get('Cloudflare Workers');
  assert.ok(code, 'README.md has no example labelled "Cloudflare Workers"');
  writeFileSync(join(here, 'readme-worker.js'), code);
  const dir = join(here, 'readme-worker-out');
  bundleWorker(bin('.bin', 'esbuild'), here, 'readme-worker.js', dir);
  const { child, ports: [port], log } = await startWorkerd(bin('.bin', 'workerd'), dir, 1, ([port]) => oneWorkerConfig(port, { network: true }));
  try {
    const res = await fetch(`http://127.0.0.1:${port}/?url=${encodeURIComponent(`${base}/private/x`)}`);
    const body = await res.json().catch(() => assert.fail(`no JSON from the Worker: ${log()}`));
    assert.deepEqual([body.allowed, body.line, body.reason, body.status], [false, 2, 'rule', 200]);
  } finally {
    try { process.kill(-child.pid, 'SIGTERM'); } catch {}
  }
});
