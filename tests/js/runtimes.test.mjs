// Deno, Bun and workerd, each importing the installed package by name (the npm binaries are
// devDependencies of the repository; ROBOTS_EVAL_REPO says where its node_modules are).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorker, oneWorkerConfig, startWorkerd } from './workerd.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const bin = (...p) => join(repo, 'node_modules', ...p);
const here = process.cwd();

function lastJson(output) {
  const line = output.toString().trim().split('\n').pop();
  return JSON.parse(line);
}

test('Deno imports the package and passes the smoke check', () => {
  const deno = bin('@deno', 'linux-x64-glibc', 'deno');
  const out = execFileSync(deno, ['run', '--quiet', '--allow-read', '--allow-env', '--no-lock', 'runtime-entry.mjs'], {
    cwd: here, env: { ...process.env, DENO_DIR: mkdtempSync(join(tmpdir(), 'deno-')), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  assert.deepEqual(lastJson(out).failures, []);
  // Deno resolves the "deno" condition to the ESM entry.
  const resolved = execFileSync(deno, ['eval', '--quiet', 'console.log(import.meta.resolve("robots-eval"))'], {
    cwd: here, env: { ...process.env, DENO_DIR: mkdtempSync(join(tmpdir(), 'deno-')), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  }).toString();
  assert.match(resolved, /robots-eval\/pkg\/index\.js/);
});

test('Bun imports the package and passes the smoke check', () => {
  const bun = bin('@oven', 'bun-linux-x64', 'bin', 'bun');
  const out = execFileSync(bun, ['run', 'runtime-entry.mjs'], { cwd: here, env: { ...process.env, BUN_INSTALL_CACHE_DIR: mkdtempSync(join(tmpdir(), 'bun-')) } });
  assert.deepEqual(lastJson(out).failures, []);
  // CommonJS in Bun too.
  const cjs = execFileSync(bun, ['-e', 'const { Robots } = require("robots-eval"); console.log(JSON.stringify({ ok: Robots.parse("User-agent: *\\nDisallow: /\\n").isAllowed("/x", "b") === false }))'], { cwd: here });
  assert.deepEqual(lastJson(cjs), { ok: true });
});

test('workerd runs a Worker that imports the package', async () => {
  const dir = join(here, 'workerd-out');
  bundleWorker(bin('.bin', 'esbuild'), here, 'worker-entry.mjs', dir);
  // The workerd entry imports the .wasm as a module: no base64 copy ("AGFzbQ" is "\0asm") in the bundle.
  assert.ok(!readFileSync(join(dir, 'worker.js'), 'utf8').includes('AGFzbQ'), 'the workerd bundle embeds the wasm');
  const { child, ports: [port], log } = await startWorkerd(bin('.bin', 'workerd'), dir, 1, ([port]) => oneWorkerConfig(port));
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    const body = await res.json();
    assert.ok(body, `workerd did not answer: ${log()}`);
    assert.deepEqual(body.failures, []);
    assert.equal(body.sample.allowed, false);
    assert.equal(body.sample.line, 2);
    assert.deepEqual(body.ruled, [false, true, null]); // RobotRules; undefined becomes null in JSON
    assert.deepEqual(body.meta, [false, false]); // metaRobots, xRobotsTag
  } finally {
    try { process.kill(-child.pid, 'SIGTERM'); } catch {}
  }
});
