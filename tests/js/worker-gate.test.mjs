// examples/worker-gate in real workerd, in front of real origin servers on 127.0.0.1 (one per
// robots.txt scenario, each on a free port). Bundled as wrangler does (the workerd condition, the
// .wasm as a module of its own).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const repo = process.env.ROBOTS_EVAL_REPO;
const bin = (...p) => join(repo, 'node_modules', ...p);
const here = process.cwd();

const ROBOTS = 'User-agent: BadBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /nocrawl\n';
const BIG = Buffer.alloc(10 * 1024 * 1024);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 2654435761) >>> 24;
const sha = (b) => createHash('sha256').update(b).digest('hex');

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

// An origin whose robots.txt answers with `robots` (a status or a body).
function origin(robots) {
  const s = createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    if (pathname === '/robots.txt') {
      if (typeof robots === 'number') { res.writeHead(robots); res.end('error'); }
      else { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(robots); }
      return;
    }
    if (pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG.length });
      res.end(BIG);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'x-origin': 'yes' });
    res.end(`origin ${req.method} ${pathname} ua=${req.headers['user-agent']}`);
  });
  return s;
}

const servers = [];
const gates = {}; // name -> base URL of the worker
let child;
let log = '';

before(async () => {
  const origins = {};
  for (const [name, robots] of Object.entries({ main: ROBOTS, e500: 500, e404: 404, e403: 403 })) {
    const s = origin(robots);
    servers.push(s);
    origins[name] = `http://127.0.0.1:${await listen(s)}`;
  }
  const workers = {
    enforce: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.main },
    report: { MODE: 'report-only', DIALECT: 'rfc9309', ORIGIN: origins.main },
    e500: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e500 },
    e404: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e404 },
    e403rfc: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e403 },
    e403draft: { MODE: 'enforce', DIALECT: 'draft1996', ORIGIN: origins.e403 },
  };
  const dir = join(here, 'worker-gate-out');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(repo, 'examples', 'worker-gate', 'src', 'worker.js'), join(here, 'worker-gate-src.js'));
  execFileSync(bin('.bin', 'esbuild'), ['worker-gate-src.js', '--bundle', '--format=esm', '--platform=neutral',
    '--conditions=workerd,worker,browser', '--external:*.wasm', `--outfile=${join(dir, 'worker.js')}`, '--log-level=warning'], { cwd: here });
  copyFileSync(join(here, 'node_modules', 'robots-eval', 'pkg', 'robots_eval_bg.wasm'), join(dir, 'robots_eval_bg.wasm'));
  // Free ports for the sockets: listen on 0 and release.
  const ports = [];
  for (const _ of Object.keys(workers)) {
    const s = createServer();
    ports.push(await listen(s));
    await new Promise((r) => s.close(r));
  }
  const names = Object.keys(workers);
  const services = names.map((n) => `(name = "${n}", worker = (
      modules = [
        (name = "worker.js", esModule = embed "worker.js"),
        (name = "robots_eval_bg.wasm", wasm = embed "robots_eval_bg.wasm"),
      ],
      compatibilityDate = "2025-01-01",
      bindings = [ ${Object.entries({ CRAWLERS: 'ListedBot, OtherBot', ...workers[n] }).map(([k, v]) => `(name = "${k}", text = "${v}")`).join(', ')} ],
      globalOutbound = "net",
    ))`);
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "net", network = (allow = ["public", "private", "local"])),
    ${services.join(',\n    ')}
  ],
  sockets = [ ${names.map((n, i) => `(name = "s-${n}", address = "127.0.0.1:${ports[i]}", http = (), service = "${n}")`).join(', ')} ],
);
`);
  names.forEach((n, i) => { gates[n] = `http://127.0.0.1:${ports[i]}`; });
  child = spawn(bin('.bin', 'workerd'), ['serve', join(dir, 'config.capnp')], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${gates.enforce}/robots.txt`);
      return;
    } catch {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`workerd did not start: ${log}`);
});

after(() => {
  try { process.kill(-child.pid, 'SIGTERM'); } catch {}
  for (const s of servers) { s.closeAllConnections?.(); s.close(); }
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const get = (gate, path, ua) => fetch(`${gates[gate]}${path}`, { headers: { 'user-agent': ua } });

test('an allowed crawler and a browser get a 10 MB body byte-identical', async () => {
  for (const ua of ['BadBot/1.0', BROWSER, 'ListedBot/2']) {
    const res = await get('enforce', '/big', ua);
    assert.equal(res.status, 200, log);
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, BIG.length);
    assert.equal(sha(body), sha(BIG));
  }
});

test('a crawler named by robots.txt gets a 403 with the deciding line', async () => {
  const res = await get('enforce', '/private/x', 'Mozilla/5.0 (compatible; BadBot/1.0; +https://bad.example)');
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('x-robots-eval'), 'disallowed; line=2; rule="Disallow: /private"');
  assert.match(await res.text(), /line 2/);
});

test('a crawler from the CRAWLERS list obeys the * group; other clients pass', async () => {
  const res = await get('enforce', '/nocrawl/a', 'ListedBot/2');
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('x-robots-eval'), 'disallowed; line=5; rule="Disallow: /nocrawl"');
  const curl = await get('enforce', '/nocrawl/a', 'curl/8.0');
  assert.equal(curl.status, 200);
  assert.equal(curl.headers.get('x-origin'), 'yes');
  const allowed = await get('enforce', '/public', 'BadBot');
  assert.equal(allowed.status, 200);
  assert.equal(await allowed.text(), 'origin GET /public ua=BadBot');
});

test('browsers are never blocked, and /robots.txt always passes', async () => {
  assert.equal((await get('enforce', '/private/x', BROWSER)).status, 200);
  const res = await get('enforce', '/robots.txt', 'BadBot');
  assert.equal(res.status, 200);
  assert.equal(await res.text(), ROBOTS);
});

test('report-only passes what enforce blocks', async () => {
  const res = await get('report', '/private/x', 'BadBot');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-origin'), 'yes');
});

test('robots.txt 404/500/403 are handled per dialect', async () => {
  // 404: allow all.
  assert.equal((await get('e404', '/page', 'ListedBot')).status, 200);
  // 500 under rfc9309: complete disallow.
  const e500 = await get('e500', '/page', 'ListedBot');
  assert.equal(e500.status, 403);
  assert.match(e500.headers.get('x-robots-eval'), /^disallowed; robots-txt=500; policy=disallow-all/);
  // 403: rfc9309 allows all, the 1996 draft disallows all.
  assert.equal((await get('e403rfc', '/page', 'ListedBot')).status, 200);
  const draft = await get('e403draft', '/page', 'ListedBot');
  assert.equal(draft.status, 403);
  assert.match(draft.headers.get('x-robots-eval'), /robots-txt=403; policy=disallow-all/);
  // Browsers pass even then.
  assert.equal((await get('e500', '/page', BROWSER)).status, 200);
});
