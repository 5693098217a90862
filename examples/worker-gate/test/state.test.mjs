// The gate's whole state is bounded, whatever host names clients bring: 10,000 requests, each for
// a host name of its own (a gate behind a wildcard route, without ORIGIN: robots.txt and
// tdmrep.json per host), AI crawlers with enforcement on, signers naming a key directory of their
// own on each host, verified signatures (each remembered against replay) and spoofed claims, in
// real workerd (test/harness.mjs, entry test/identity-worker.js, which carries the test names to
// servers on 127.0.0.1). Every per-host cache must stay within its bound (src/*: MAX_*), and
// workerd's memory within a bound. The sizes are printed (README.md: "Bounded state").
// GATE_STATE_REQUESTS (default 10000) and GATE_STATE_KINDS (e.g. "0,2": the kinds below) narrow a run;
// GATE_STATE_HOSTS (default: one per request) cycles the requests over that many host names, to
// tell what grows with requests from what grows with host names (the caches' bounds are then not
// reached, and those assertions fail).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { closeServers, serve, startGates } from './harness.mjs';
import { newKey, signedHeaders } from './signer.mjs';

const TOTAL = Number(process.env.GATE_STATE_REQUESTS) || 10_000;
const HOSTS = Number(process.env.GATE_STATE_HOSTS) || TOTAL;
const CONCURRENCY = 64;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const key = newKey();

let gates;
before(async () => {
  const site = new URL(await serve((req, res) => {
    if (req.url === '/robots.txt') { res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' }); res.end('User-agent: *\nAllow: /\n'); return; }
    if (req.url === '/.well-known/tdmrep.json') { res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }); res.end(JSON.stringify([{ location: '/private/', 'tdm-reservation': 1 }])); return; }
    res.writeHead(200, { 'content-type': 'text/html', 'x-origin': 'yes' });
    res.end('<html><head><title>page</title></head><body>page</body></html>');
  })).host;
  // Each made-up signer's directory answers, with a key that is not the signature's.
  const others = new URL(await serve((req, res) => { res.writeHead(200, { 'cache-control': 'max-age=3600' }); res.end(JSON.stringify({ keys: [newKey().jwk] })); })).host;
  const signer = new URL(await serve((req, res) => { res.writeHead(200, { 'cache-control': 'max-age=3600' }); res.end(JSON.stringify({ keys: [key.jwk] })); })).host;
  const lists = new URL(await serve((req, res) => { res.writeHead(200); res.end(JSON.stringify({ prefixes: [{ ipv4Prefix: '66.249.64.0/27' }] })); })).host;
  gates = await startGates({
    hosts: {
      vars: {
        AI_PREFERENCES: 'enforce',
        IP_LISTS_BUILT_IN: 'off',
        CLIENT_ADDRESS_HEADER: 'cf-connecting-ip',
        IP_LISTS: [{ tokens: ['Googlebot'], url: 'https://lists.test/googlebot.json' }],
        SIGNATURE_AGENTS: [{ origin: 'https://signer.test', token: 'ExampleBot' }],
        TEST_HOSTS: { '*.site.test': site, '*.dir.test': others, 'signer.test': signer, 'lists.test': lists },
      },
    },
  }, {}, { entry: 'test/identity-worker.js', v8Flags: ['--expose-gc'] });
});

after(() => {
  agent.destroy();
  gates?.stop();
  closeServers();
});

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function get(path, headers) {
  const { hostname, port } = new URL(gates.url('hosts'));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function memoryMB() {
  assert.equal((await fetch(`${gates.url('hosts')}/__gc`)).status, 200);
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${gates.pid}/status`, 'utf8'));
  return Number(m[1]) / 1024;
}

// Each request: its host name, its headers, and the status it must get.
const allKinds = [
  (host) => [{ 'user-agent': GPTBOT }, 200],
  (host, i) => [{ 'user-agent': CHROME, ...signedHeaders(`http://${host}/page`, `https://d${i}.dir.test`, key) }, 200],
  (host) => [{ 'user-agent': CHROME, ...signedHeaders(`http://${host}/page`, 'https://signer.test', key) }, 200],
  (host) => [{ 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.7' }, 403],
];
const kinds = process.env.GATE_STATE_KINDS ? process.env.GATE_STATE_KINDS.split(',').map((k) => allKinds[Number(k)]) : allKinds;

test(`${TOTAL} distinct host names: every per-host cache within its bound, memory bounded`, async (t) => {
  // Warm: the isolate, the wasm modules and the list, before the first measurement.
  for (let i = 0; i < kinds.length; i++) {
    const host = `warm${i}.site.test`;
    const [headers] = kinds[i](host, `warm${i}`);
    await get('/page', { ...headers, host });
  }
  const before = await memoryMB();
  const failures = [];
  let next = 0;
  const started = Date.now();
  const memory = [];
  async function loop() {
    while (next < TOTAL) {
      const i = next++;
      const host = `h${i % HOSTS}.site.test`;
      const [headers, status] = kinds[i % kinds.length](host, i);
      const res = await get('/page', { ...headers, host });
      if (res.status !== status && failures.length < 10) failures.push(`${i}: ${res.status} ${res.headers['x-robots-eval'] ?? ''}`);
      if (i % (TOTAL / 5) === TOTAL / 5 - 1) memory.push(await memoryMB());
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (Date.now() - started) / 1000;
  const state = await (await fetch(`${gates.url('hosts')}/__state`)).json();
  const last = await memoryMB();
  t.diagnostic(`${TOTAL} requests, ${Math.min(HOSTS, TOTAL)} host names, in ${seconds.toFixed(1)} s`);
  t.diagnostic(`state after: ${JSON.stringify(state)}`);
  t.diagnostic(`workerd memory (MB): ${before.toFixed(0)} before, ${memory.map((m) => m.toFixed(0)).join(', ')} after every ${TOTAL / 5} requests, ${last.toFixed(0)} at the end`);
  assert.deepEqual(failures, []);
  assert.ok(state.robots.origins <= 32, JSON.stringify(state));
  assert.ok(state.tdmrep.origins <= 256 && state.tdmrep.bytes <= 8 * 1024 * 1024, JSON.stringify(state));
  assert.ok(state.directories.unknown <= 1000 && state.directories.pinned <= 1, JSON.stringify(state));
  assert.ok(state.replayKeys <= 20_000 && state.replayKeys >= TOTAL / kinds.length, JSON.stringify(state));
  assert.equal(state.lists.lists, 1);
  // The caches filled (the bounds were reached, so the test measures them), and memory stayed flat.
  assert.equal(state.robots.origins, 32);
  assert.equal(state.tdmrep.origins, 256);
  assert.equal(state.directories.unknown, 1000);
  // workerd's resident memory, from the first sample (the caches filling) to the end: within
  // 96 MB. It grows with requests served, whatever their host names, as workerd's does under a
  // worker that does nothing of the gate's (test/workerd-memory.mjs; README.md, "Bounded state").
  assert.ok(last - memory[0] < 96, `workerd memory grew: ${before}, ${memory.join(', ')}, ${last}`);
});
