// Node, ESM: `import { Robots } from 'robots-eval'` from the installed tarball.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Robots } from 'robots-eval/rich';
import DefaultRobots from 'robots-eval/rich';
import * as pkg from 'robots-eval/rich';
import * as verdict from 'robots-eval/verdict';
import { smoke, smokeVerdict } from './smoke.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const here = process.cwd();

test('Node ESM: the whole API, and the verdict entry', () => {
  assert.deepEqual(smoke(pkg), []);
  assert.deepEqual(smokeVerdict(verdict), []);
  assert.equal(DefaultRobots, Robots);
});

test('Node resolves its own entries (the .wasm read from the file), ESM and CommonJS', () => {
  const require = createRequire(import.meta.url);
  assert.match(import.meta.resolve('robots-eval'), /robots-eval\/pkg\/node\.js$/);
  assert.match(require.resolve('robots-eval'), /robots-eval\/pkg\/node\.cjs$/);
  // ...which carry no copy of the modules: that is what they are for.
  for (const file of ['node.js', 'node.cjs']) {
    const source = readFileSync(new URL(file, import.meta.resolve('robots-eval')), 'utf8');
    assert.ok(source.length < 60_000 && !/text:"[^"]{10000,}"/.test(source), file);
  }
});

test('a .wasm beside Node\'s entries that is not the one they were built with is an Error that says so, ESM and CommonJS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'robots-eval-mixed-'));
  try {
    const entry = new URL('node.js', import.meta.resolve('robots-eval'));
    for (const file of ['node.js', 'node.cjs', 'robots_eval_bg.wasm']) copyFileSync(new URL(file, entry), join(dir, file));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const wasm = readFileSync(join(dir, 'robots_eval_bg.wasm'));
    for (const [bytes, what] of [[wasm.subarray(0, 1000), '1000 bytes, not the'], [Buffer.concat([wasm, Buffer.from([0])]), 'longer than the']]) {
      writeFileSync(join(dir, 'robots_eval_bg.wasm'), bytes);
      for (const file of ['node.js', 'node.cjs']) {
        const load = file.endsWith('.cjs') ? `Promise.resolve(require(${JSON.stringify(join(dir, file))}))` : `import(${JSON.stringify(join(dir, file))})`;
        const run = spawnSync(process.execPath, ['-e', `${load}.then(({ Robots }) => Robots.parse('User-agent: *'))`]);
        assert.notEqual(run.status, 0, file);
        const message = `robots-eval: ${dir}/robots_eval_bg.wasm is ${what} ${wasm.length} bytes this package was built with; reinstall robots-eval`;
        assert.ok(run.stderr.toString().includes(message), `${file}: ${run.stderr}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A bundle for Node must not depend on a file beside it: bundlers match the `module` condition,
// which the exports map lists before `node`, and get the entry with the .wasm embedded.
test('esbuild bundles for Node (ESM and CommonJS) embed the .wasm and run without the package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'robots-eval-node-bundle-'));
  try {
    writeFileSync(join(here, 'node-bundle-entry.mjs'), `import { Robots } from 'robots-eval';
const r = Robots.parse('User-agent: *\\nDisallow: /private\\n');
console.log(JSON.stringify([r.isAllowed('/private/x', 'bot'), r.isAllowed('/public', 'bot')]));\n`);
    for (const format of ['esm', 'cjs']) {
      const out = join(dir, `app.${format === 'esm' ? 'mjs' : 'cjs'}`);
      execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), ['node-bundle-entry.mjs', '--bundle', `--format=${format}`,
        '--platform=node', `--outfile=${out}`, '--log-level=warning'], { cwd: here });
      // The module as text (js/wasm-text.js), no path to a .wasm.
      const bundled = readFileSync(out, 'utf8');
      assert.ok(/text:\s*"[^"]{10000,}"/.test(bundled) && !bundled.includes('_bg.wasm'), `${format}: the bundle embeds the module`);
      assert.equal(execFileSync(process.execPath, [out], { cwd: dir }).toString().trim(), '[false,true]', format);
    }
    // Custom conditions without `module` land on Node's entry, which reads the .wasm from beside
    // the bundle: absent there, every call says what to do (and the next one still does).
    const out = join(dir, 'custom.mjs');
    execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), ['node-bundle-entry.mjs', '--bundle', '--format=esm',
      '--platform=node', '--conditions=production', `--outfile=${out}`, '--log-level=warning'], { cwd: here });
    const run = spawnSync(process.execPath, [out], { cwd: dir });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr.toString(), /robots-eval: cannot read .*robots_eval_bg\.wasm \(ENOENT\).*'module' condition/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Node without process.getBuiltinModule gets an Error naming the versions needed, on every call', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `process.getBuiltinModule = undefined;
const { Robots } = await import('robots-eval/rich');
const messages = [];
for (let i = 0; i < 2; i++) try { Robots.parse('User-agent: *'); } catch (e) { messages.push(e.message); }
console.log(JSON.stringify(messages));`], { cwd: here }).toString();
  const messages = JSON.parse(out);
  assert.equal(messages.length, 2);
  for (const m of messages) assert.match(m, /^robots-eval: Node v[\d.]+ is too old; it needs Node 20\.16 or 22\.3 or later/);
});

test('using: Symbol.dispose frees', () => {
  const robots = Robots.parse('User-agent: *\nDisallow: /\n');
  assert.equal(typeof robots[Symbol.dispose], 'function');
  robots[Symbol.dispose]();
  assert.equal(robots.freed, true);
  robots.free(); // twice: nothing happens
});

test('every dialect parses', () => {
  assert.deepEqual(Robots.dialects, ['rfc9309', 'google', 'draft1996', 'original1994', 'revisited']);
  for (const dialect of Robots.dialects) {
    const r = Robots.parse('User-agent: *\nAllow: /a\nDisallow: /\n', { dialect: dialect.toUpperCase() });
    assert.equal(r.dialect, dialect);
    assert.equal(r.isAllowed('/b', 'bot'), false, dialect);
    r.free();
  }
  const allow = (dialect) => Robots.parse('User-agent: *\nAllow: /a\nDisallow: /\n', { dialect }).isAllowed('/a', 'bot');
  assert.equal(allow('rfc9309'), true);
  assert.equal(allow('original1994'), false); // the 1994 standard has no Allow
});

test('URL objects and non-ASCII in table()', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /ä\nDisallow: /ü$\n');
  const t = r.table([new URL('https://e.com/%C3%A4x'), '/ü', '/üx', '😀/a'], ['bot', 'Bötchen', '']);
  assert.deepEqual(t.allowed, [[false, false, false], [false, false, false], [true, true, true], [true, true, true]]);
  assert.equal(t.urls[0], 'https://e.com/%C3%A4x');
  r.free();
});

test('maxBytes truncates (and says so)', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /a\nDisallow: /b\n', { maxBytes: 27 });
  assert.equal(r.truncated, true);
  assert.equal(r.isAllowed('/a', 'x'), false);
  assert.equal(r.isAllowed('/b', 'x'), true);
  assert.ok(r.diagnostics.some((d) => d.code === 'truncated'));
  r.free();
});
