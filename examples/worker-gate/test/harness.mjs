// The gate as deployed, in real workerd: bundled by wrangler (`wrangler deploy --dry-run`, the
// bundle that `wrangler deploy` uploads), served by the `workerd` binary from npm with a config
// the test writes, in front of real origin servers on 127.0.0.1. Sockets listen on port 0 and
// workerd reports the ports it bound on its control descriptor, so there is no port race.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const example = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(example, 'node_modules', '.bin', name);
// wrangler without network: no telemetry, no update check, no account look-ups.
export const offline = {
  ...process.env,
  CI: '1',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

const servers = [];

/** Starts a Node HTTP server with `handler` on a free port of 127.0.0.1; resolves to its base URL. */
export function serve(handler) {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

/** Closes every server that serve() started. */
export function closeServers() {
  for (const s of servers.splice(0)) {
    s.closeAllConnections?.();
    s.close();
  }
}

/**
 * An origin's request handler: robots.txt answers with `robots` (a status, a body, or a handler
 * (req, res, pathname) that returns false for paths it leaves to the others); a path in `routes`
 * with its handler; anything else 200 with `x-origin: yes` and a body naming the request.
 */
export function origin(robots, routes = {}) {
  return (req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    if (typeof robots === 'function' && robots(req, res, pathname) !== false) return;
    if (pathname === '/robots.txt') {
      if (typeof robots === 'number') { res.writeHead(robots); res.end('error'); }
      else { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(robots); }
      return;
    }
    if (routes[pathname]) return routes[pathname](req, res);
    res.writeHead(200, { 'content-type': 'text/plain', 'x-origin': 'yes' });
    res.end(`origin ${req.method} ${pathname} ua=${req.headers['user-agent']}`);
  };
}

/**
 * A stand-in for the Analytics Engine service behind workerd's `analyticsEngine` binding, which
 * posts each data point as JSON (blobN and the index as byte arrays). Returns `{ handler, where }`:
 * `where(match, count)` waits (writes are sent after the response) until `count` decoded points
 * `{ dataset, index, blobs, doubles }` satisfy `match`, and returns them.
 */
export function dataPoints() {
  const points = [];
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const bytes = (b) => Buffer.from(b ?? []).toString('utf8');
      points.push({
        dataset: bytes(raw.dataset),
        index: bytes(raw.index1),
        blobs: Array.from({ length: 20 }, (_, i) => bytes(raw[`blob${i + 1}`])),
        doubles: Array.from({ length: 20 }, (_, i) => raw[`double${i + 1}`]),
      });
      res.end();
    });
  };
  const where = async (match, count = 1) => {
    for (let i = 0; i < 100 && points.filter(match).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return points.filter(match);
  };
  return { handler, where };
}

/**
 * A stand-in for Cloudflare's cache behind caches.default (workerd's cacheApiOutbound protocol:
 * PUT <url> with the serialized response, GET <url> with only-if-cached; a miss is a 504). It
 * honours max-age, as the platform's cache does. Returns `{ handler, store, puts, hits }`.
 */
export function cacheService() {
  const cache = { store: new Map(), puts: 0, hits: 0 };
  cache.handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const key = `${req.headers.host}${req.url}`;
      if (req.method === 'PUT') {
        const raw = Buffer.concat(chunks);
        const split = raw.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const maxAge = Number(/max-age=(\d+)/.exec(headers['cache-control'] ?? '')?.[1] ?? 0);
        if (maxAge > 0) {
          cache.store.set(key, { status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(split + 4), expires: Date.now() + maxAge * 1000 });
          cache.puts++;
        }
        res.writeHead(204);
        res.end();
        return;
      }
      const hit = cache.store.get(key);
      if (req.method === 'GET' && hit && hit.expires > Date.now()) {
        cache.hits++;
        res.writeHead(hit.status, { ...hit.headers, 'cf-cache-status': 'HIT' });
        res.end(hit.body);
        return;
      }
      res.writeHead(504, { 'cf-cache-status': 'MISS' });
      res.end();
    });
  };
  return cache;
}

/**
 * Bundles a Worker with wrangler into a fresh directory: `{ dir, modules }` (capnp module lines).
 * `entry`: the entry module (default: wrangler.toml's `main`, the Worker as deployed).
 */
export function bundle(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'worker-gate-'));
  try {
    execFileSync(bin('wrangler'), ['deploy', '--dry-run', '--outdir', dir, ...(entry ? [entry] : [])], { cwd: example, env: { ...offline, WRANGLER_LOG: 'warn' }, stdio: 'pipe' });
  } catch (e) {
    throw new Error(`wrangler could not bundle the Worker: ${e.stderr}${e.stdout}`);
  }
  const main = entry ? basename(entry) : 'worker.js';
  const wasm = readdirSync(dir).filter((f) => f.endsWith('.wasm'));
  const modules = [
    `(name = "${main}", esModule = embed "${main}")`,
    ...wasm.map((f) => `(name = "${f}", wasm = embed "${f}")`),
  ];
  return { dir, modules };
}

/** A capnp text value. */
const text = (v) => JSON.stringify(String(v));

/**
 * Starts workerd with one gate per entry of `gates` (name -> { vars, cache, analytics, nonceStore }) and
 * the external services in `externals` (name -> "127.0.0.1:port"). `entry`: the Worker's entry
 * module (default: the Worker as deployed); `v8Flags`: flags for V8 (e.g. `--expose-gc`).
 * Resolves to `{ url(name), log(), pid, stop() }`.
 */
export async function startGates(gates, externals = {}, { entry, v8Flags = [] } = {}) {
  const { dir, modules } = bundle(entry);
  const names = Object.keys(gates);
  const services = names.map((n) => {
    const g = gates[n];
    const bindings = Object.entries(g.vars ?? {}).map(([k, v]) =>
      typeof v === 'string' ? `(name = "${k}", text = ${text(v)})` : `(name = "${k}", json = ${text(JSON.stringify(v))})`);
    if (g.analytics) bindings.push(`(name = "ANALYTICS", analyticsEngine = "${g.analytics}")`);
    // NONCE_STORE (src/replay.js): `nonceStore: true` gives the gate its own namespace of
    // NonceStore objects (in memory); a gate's name binds that gate's namespace (shared objects).
    let objects = '';
    if (g.nonceStore === true) {
      objects = ` durableObjectNamespaces = [ (className = "NonceStore", uniqueKey = "nonce-store-${n}") ], durableObjectStorage = (inMemory = void),`;
      bindings.push('(name = "NONCE_STORE", durableObjectNamespace = "NonceStore")');
    } else if (g.nonceStore) {
      bindings.push(`(name = "NONCE_STORE", durableObjectNamespace = (serviceName = "${g.nonceStore}", className = "NonceStore"))`);
    }
    return `(name = "${n}", worker = (
      modules = [ ${modules.join(', ')} ],
      compatibilityDate = "2025-01-01",
      bindings = [ ${bindings.join(', ')} ],
      globalOutbound = "net",${g.cache ? ` cacheApiOutbound = "${g.cache}",` : ''}${objects}
    ))`;
  });
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "net", network = (allow = ["public", "private", "local"])),
    ${Object.entries(externals).map(([n, addr]) => `(name = "${n}", external = (address = "${addr}", http = ())),`).join('\n    ')}
    ${services.join(',\n    ')}
  ],
  sockets = [ ${names.map((n) => `(name = "${n}", address = "127.0.0.1:0", http = (cfBlobHeader = "cf-blob"), service = "${n}")`).join(', ')} ],
  v8Flags = [ ${v8Flags.map(text).join(', ')} ],
);
`);
  // fd 3 is workerd's control descriptor: one JSON line per socket once it listens.
  const child = spawn(bin('workerd'), ['serve', '--experimental', '--control-fd=3', join(dir, 'config.capnp')], {
    cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const ports = {};
  await new Promise((resolve, reject) => {
    let control = '';
    child.stdio[3].on('data', (d) => {
      control += d;
      for (const line of control.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.event === 'listen') ports[m.socket] = m.port;
      }
      control = control.slice(control.lastIndexOf('\n') + 1);
      if (names.every((n) => ports[n])) resolve();
    });
    child.on('exit', (code) => reject(new Error(`workerd exited (${code}): ${out}`)));
  });
  return {
    url: (name) => `http://127.0.0.1:${ports[name]}`,
    log: () => out,
    pid: child.pid,
    stop() {
      try { process.kill(-child.pid, 'SIGTERM'); } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
