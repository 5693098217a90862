// The Cron Trigger and the KV namespace CRAWLER_IPS, in Miniflare (workerd with Cloudflare's KV
// simulator and scheduled events), running the bundle wrangler deploys: the scheduled handler
// stores every address list in KV; requests then read lists from KV, not from the operator; a
// refresh replaces them; a list that fails keeps its stored copy. And NONCE_KV, the KV fallback of
// the replay store: a signature used once is refused the second time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundle, closeServers, origin, serve } from './harness.mjs';
import { newKey, signedHeaders } from './signer.mjs';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const state = { down: false, hits: 0, prefixes: [{ ipv4Prefix: '66.249.64.0/27' }, { ipv6Prefix: '2001:4860:4801:10::/64' }] };

const key = newKey();
let mf;
let options;
let dir;
let listUrl;
before(async () => {
  const site = await serve(origin('User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n'));
  const lists = await serve((req, res) => {
    state.hits++;
    if (state.down) { res.writeHead(503); res.end(); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ prefixes: state.prefixes }));
  });
  // Lists are fetched over https only: the Worker's outbound fetches carry https://lists.test to the list server.
  listUrl = 'https://lists.test/googlebot.json';
  const directory = await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=3600' });
    res.end(JSON.stringify({ keys: [key.jwk] }));
  });
  ({ dir } = bundle());
  options = {
    modules: true,
    scriptPath: join(dir, 'worker.js'),
    modulesRoot: dir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-01-01',
    kvNamespaces: ['CRAWLER_IPS', 'NONCE_KV'],
    // https://lists.test and https://signer.test are the servers above.
    outboundService: (req) => {
      const u = new URL(req.url);
      const to = { 'lists.test': lists, 'signer.test': directory }[u.host];
      return fetch(to ? `${to}${u.pathname}` : req.url, { method: req.method, headers: req.headers, redirect: 'manual' });
    },
    bindings: { ORIGIN: site, IP_LISTS: [{ tokens: ['Googlebot'], url: listUrl }], IP_LISTS_BUILT_IN: 'off', SIGNATURE_AGENTS: [{ origin: 'https://signer.test', token: 'Googlebot' }] },
  };
  mf = new Miniflare(options);
  await mf.ready;
});

after(async () => {
  await mf?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
  closeServers();
});

// As on Cloudflare: `request.cf` names the data centre, and CF-Connecting-IP is the edge's.
const googlebot = (ip) => mf.dispatchFetch('http://gate.example/page', { headers: { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': ip }, cf: { colo: 'AMS' } });

test('the scheduled handler stores the lists in KV; requests read them from there', async () => {
  const worker = await mf.getWorker();
  await worker.scheduled({ cron: '17 */6 * * *' });
  assert.equal(state.hits, 1);
  const kv = await mf.getKVNamespace('CRAWLER_IPS');
  const stored = await kv.get(`ip-list:${listUrl}`, 'json');
  assert.deepEqual(stored.prefixes, ['66.249.64.0/27', '2001:4860:4801:10::/64']);
  // The operator is down now: the gate does not need it.
  state.down = true;
  const res = await googlebot('66.249.64.3');
  assert.equal(res.status, 200, res.headers.get('x-robots-eval'));
  await res.arrayBuffer();
  const spoofed = await googlebot('192.0.2.1');
  assert.equal(spoofed.status, 403);
  assert.match(spoofed.headers.get('x-robots-eval'), /identity=spoofed/);
  assert.equal((await googlebot('2001:4860:4801:10::1')).status, 200);
  assert.equal(state.hits, 1);
});

test('a refresh replaces a list; a failed refresh keeps the stored one', async () => {
  const worker = await mf.getWorker();
  state.down = false;
  state.prefixes = [{ ipv4Prefix: '192.0.2.0/24' }];
  await worker.scheduled({ cron: '17 */6 * * *' });
  assert.equal((await googlebot('192.0.2.1')).status, 200);
  const old = await googlebot('66.249.64.3');
  assert.equal(old.status, 403);
  assert.match(old.headers.get('x-robots-eval'), /identity=spoofed/);
  state.down = true;
  await worker.scheduled({ cron: '17 */6 * * *' });
  const kv = await mf.getKVNamespace('CRAWLER_IPS');
  assert.deepEqual((await kv.get(`ip-list:${listUrl}`, 'json')).prefixes, ['192.0.2.0/24']);
  assert.equal((await googlebot('192.0.2.1')).status, 200);
});

test('NONCE_KV: a signed request replayed is refused, and the use is in KV', async () => {
  const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36', ...signedHeaders('http://gate.example/page', 'https://signer.test', key) };
  const first = await mf.dispatchFetch('http://gate.example/page', { headers, cf: { colo: 'AMS' } });
  assert.equal(first.status, 200, first.headers.get('x-robots-eval') ?? '');
  await first.arrayBuffer();
  const again = await mf.dispatchFetch('http://gate.example/page', { headers, cf: { colo: 'AMS' } });
  assert.equal(again.status, 403);
  assert.match(again.headers.get('x-robots-eval'), /identity=invalid; identity-reason=replayed; /);
  const kv = await mf.getKVNamespace('NONCE_KV');
  assert.equal((await kv.list({ prefix: 'nonce:' })).keys.length, 1);
  // A new isolate, which has never seen it: KV refuses it.
  await mf.setOptions(options);
  const elsewhere = await mf.dispatchFetch('http://gate.example/page', { headers, cf: { colo: 'AMS' } });
  assert.match(elsewhere.headers.get('x-robots-eval') ?? '', /identity=invalid; identity-reason=replayed; /);
});
