// Deno, Bun, workerd and Vercel's Edge runtime, each importing the installed package by name (the
// npm binaries are devDependencies of the repository; ROBOTS_EVAL_REPO says where its node_modules are).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

test('Vercel\'s Edge runtime (edge-runtime) runs an Edge Function that imports the package', async () => {
  // Bundled as for workerd (conditions workerd/worker/browser, each .wasm a module of its own).
  // The Edge runtime, like workerd, compiles no WebAssembly from bytes at run time: the platform
  // compiles each .wasm module at deploy (on Vercel, `import x from './x.wasm?module'`) and hands
  // it over. Here the platform's part runs first in the runtime's own realm (the package checks
  // `instanceof WebAssembly.Module`), then compiling from bytes is refused, as Next.js's Edge
  // sandbox does it, and the Function runs.
  const dir = join(here, 'edge-out');
  bundleWorker(bin('.bin', 'esbuild'), here, 'edge-entry.mjs', dir);
  const bytes = {};
  const code = readFileSync(join(dir, 'worker.js'), 'utf8').replace(/^import\s*(\w+)\s*from\s*["']\.\/([\w.-]+\.wasm)["'];?/gm, (_, name, file) => {
    bytes[file] = new Uint8Array(readFileSync(join(dir, file)));
    return `const ${name} = globalThis.__wasm[${JSON.stringify(file)}];`;
  });
  assert.ok(bytes['robots_eval_bg.wasm'], 'the bundle imports the robots.txt module');
  assert.doesNotMatch(code, /^\s*(import|export)\b/m, 'the bundle is a plain script');
  const platform = `
    globalThis.__wasm = {};
    for (const [file, b] of Object.entries(globalThis.__bytes)) globalThis.__wasm[file] = new WebAssembly.Module(b);
    delete globalThis.__bytes;
    const refuse = () => { throw new WebAssembly.CompileError('Dynamic WASM code generation is not allowed in the Edge Runtime'); };
    const Module = function Module() { refuse(); };
    Module.prototype = WebAssembly.Module.prototype;
    Object.defineProperty(WebAssembly, 'Module', { value: Module });
    for (const f of ['compile', 'compileStreaming']) Object.defineProperty(WebAssembly, f, { value: async () => refuse() });
    const instantiate = WebAssembly.instantiate;
    Object.defineProperty(WebAssembly, 'instantiate', { value: (m, i) => (m instanceof Module ? instantiate(m, i) : Promise.reject(new WebAssembly.CompileError('Dynamic WASM code generation is not allowed in the Edge Runtime'))) });
  `;
  const { EdgeRuntime, runServer } = createRequire(join(repo, 'package.json'))('edge-runtime');
  const runtime = new EdgeRuntime({ extend: (context) => Object.assign(context, { __bytes: bytes }) });
  runtime.evaluate(platform);
  // Compiling from bytes is refused from now on: the check below is not vacuous.
  assert.throws(() => runtime.evaluate('new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))'), /not allowed in the Edge Runtime/);
  runtime.evaluate(code);
  const server = await runServer({ runtime, port: 0, host: '127.0.0.1' });
  try {
    const res = await fetch(server.url);
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const body = JSON.parse(text);
    assert.deepEqual(body.failures, []);
    assert.equal(body.sample.allowed, false);
    assert.equal(body.sample.line, 2);
    assert.equal(body.runtime, 'edge-runtime');
  } finally {
    await server.close();
  }
});
