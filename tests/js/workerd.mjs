// workerd for the tests, on ports it binds itself. A port found free can be taken before workerd
// binds it (by an outgoing connection of a test running alongside), so the ports come from below
// the kernel's ephemeral range (32768 and up on Linux), and a bind that fails all the same starts
// workerd again on other ports.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port free on 127.0.0.1 now, below the ephemeral range. */
async function freePort(taken) {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (taken.includes(port)) continue;
    const s = createServer();
    const free = await new Promise((resolve) => {
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((r) => s.close(r));
      return port;
    }
  }
}

/**
 * Starts `workerd serve` (the binary at `bin`) in `dir` with the config that `config(ports)`
 * returns for `count` free ports, and waits until `http://127.0.0.1:<ports[0]>/robots.txt`
 * answers. Returns `{ child, ports, log }` (`log()`: its output so far); stop it with
 * `process.kill(-child.pid, 'SIGTERM')` (it runs in its own process group).
 */
export async function startWorkerd(bin, dir, count, config) {
  for (let attempt = 1; ; attempt++) {
    const ports = [];
    while (ports.length < count) ports.push(await freePort(ports));
    writeFileSync(join(dir, 'config.capnp'), config(ports));
    let out = '';
    const child = spawn(bin, ['serve', join(dir, 'config.capnp')], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`http://127.0.0.1:${ports[0]}/robots.txt`);
        return { child, ports, log: () => out };
      } catch {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    try { process.kill(-child.pid, 'SIGTERM'); } catch {}
    if (attempt === 5 || !out.includes('Address already in use')) throw new Error(`workerd did not start: ${out}`);
  }
}

/**
 * Bundles `entry` (a file in `cwd`) as wrangler does, with the workerd condition and the .wasm
 * imported as a compiled module, into `dir`/worker.js, and copies the installed package's .wasm
 * beside it. `esbuild`: the path of its binary.
 */
export function bundleWorker(esbuild, cwd, entry, dir) {
  mkdirSync(dir, { recursive: true });
  execFileSync(esbuild, [entry, '--bundle', '--format=esm', '--platform=neutral',
    '--conditions=workerd,worker,browser', '--external:*.wasm', `--outfile=${join(dir, 'worker.js')}`, '--log-level=warning'], { cwd });
  for (const wasm of PACKAGE_WASM) copyFileSync(join(cwd, 'node_modules', 'robots-eval', 'pkg', wasm), join(dir, wasm));
}

/** The package's .wasm files (scripts/build-pkg.mjs, MODULES): the verdict, policy, rich and AI-use modules. */
export const PACKAGE_WASM = ['robots_eval_bg.wasm', 'robots_eval_policy_bg.wasm', 'robots_eval_rich_bg.wasm', 'robots_eval_ai_bg.wasm'];

/**
 * The workerd config of one Worker (a bundle of `bundleWorker`) on 127.0.0.1:`port`; with
 * `network`, its fetch reaches loopback servers too.
 */
export function oneWorkerConfig(port, { network = false } = {}) {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker)${network ? ', (name = "net", network = (allow = ["public", "private", "local"]))' : ''} ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
${PACKAGE_WASM.map((f) => `    (name = "${f}", wasm = embed "${f}"),\n`).join('')}  ],
  compatibilityDate = "2025-01-01",${network ? '\n  globalOutbound = "net",' : ''}
);
`;
}
