// Load and faults, in real workerd (test/harness.mjs, entry test/identity-worker.js for the test
// signers' names): 20,000 requests at concurrency 64 on loopback, mixing people's browsers,
// signed agents, crawlers from their published addresses, spoofed claims and unknown crawlers,
// spread over gates whose origin's robots.txt is fine, answers 503, never answers, answers slowly
// or is oversized, while one signer's key directory is slow (past the 1.5 s timeout) and
// another's is down. Every
// response is checked against what the policy says for its kind and gate; none may be lost; the
// workerd process's memory must stay flat. p50/p99 per kind are reported (test diagnostics).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { closeServers, origin, serve, startGates } from './harness.mjs';
import { newKey, signedHeaders } from './signer.mjs';

const TOTAL = Number(process.env.GATE_LOAD_REQUESTS) || 20_000;
const CONCURRENCY = 64;
const ROBOTS = 'User-agent: ExampleBot\nAllow: /\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n';
const OVERSIZED = `${ROBOTS}${'# padding padding padding padding padding padding padding\n'.repeat(12000)}User-agent: *\nAllow: /\n`;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const key = newKey();
const jwks = JSON.stringify({ keys: [key.jwk] });
const directoryHits = { good: 0, slow: 0, down: 0 };

// robots.txt per gate: fine, 503 (kept 1 s), never answering (300 ms timeout), slow (250 ms,
// max-age=1: refetched during the run), oversized (600 KB; the rules are at its start).
const robotsFor = {
  ok: (req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' }); res.end(ROBOTS); },
  e503: (req, res) => { res.writeHead(503); res.end('down'); },
  hang: () => {},
  slow: (req, res) => setTimeout(() => { res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=1' }); res.end(ROBOTS); }, 250),
  big: (req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' }); res.end(OVERSIZED); },
};
const FAILED = new Set(['e503', 'hang']); // robots.txt unusable: every crawler is disallowed (rfc9309)

// Each kind: its request headers (i: the request's number) and what the gate must answer on a
// gate whose robots.txt is fine (`ok`) or unusable (`failed`): a status and a pattern for the
// X-Robots-Eval header (null: the origin's 200).
const kinds = {
  browser: { weight: 40, headers: () => ({ 'user-agent': CHROME, 'cf-connecting-ip': '198.51.100.23' }), ok: null, failed: null },
  signed: {
    weight: 15, sign: 'https://signer.test',
    ok: null,
    failed: /^disallowed; robots-txt=\w+; .*identity=verified; identity-reason=signature-verified; token="ExampleBot"; signature-agent="https:\/\/signer.test"$/,
  },
  listed: {
    weight: 15, headers: (i) => ({ 'user-agent': GOOGLEBOT, 'cf-connecting-ip': `66.249.64.${i % 32}` }),
    ok: null, failed: /^disallowed; robots-txt=\w+; .*identity=ip-verified; identity-reason=address-in-list; token="Googlebot"$/,
  },
  spoofed: {
    weight: 10, headers: (i) => ({ 'user-agent': GOOGLEBOT, 'cf-connecting-ip': i % 2 ? `203.0.113.${i % 250}` : `2001:db8::${(i % 65535).toString(16)}` }),
    ok: /^forbidden; crawler="Googlebot"; by=isbot; identity=spoofed; identity-reason=address-not-in-list; token="Googlebot"$/,
    failed: /^forbidden; crawler="Googlebot"; by=isbot; identity=spoofed/,
  },
  unknown: {
    weight: 10, headers: () => ({ 'user-agent': 'curl/8.5.0', 'cf-connecting-ip': '192.0.2.77' }),
    ok: /^disallowed; line=8; rule="Disallow: \/"; crawler="curl"; by=isbot; identity=unverified; identity-reason=no-claim; token="curl"$/,
    failed: /^disallowed; robots-txt=\w+; .*identity=unverified; identity-reason=no-claim/,
  },
  'signed, directory slow': {
    weight: 5, sign: 'https://slowdir.test',
    ok: /^disallowed; line=8; .*by=signature; identity=unverified; identity-reason=directory-unavailable; token="Safari"$/,
    failed: /^disallowed; robots-txt=\w+; .*identity=unverified; identity-reason=directory-unavailable/,
  },
  'signed, directory down': {
    weight: 5, sign: 'https://downdir.test',
    ok: /^disallowed; line=8; .*by=signature; identity=unverified; identity-reason=directory-unavailable; token="Safari"$/,
    failed: /^disallowed; robots-txt=\w+; .*identity=unverified; identity-reason=directory-unavailable/,
  },
};
const deck = Object.entries(kinds).flatMap(([name, k]) => Array(k.weight).fill(name));

let gates;
before(async () => {
  const hosts = {
    'signer.test': new URL(await serve((req, res) => { directoryHits.good++; res.writeHead(200, { 'cache-control': 'max-age=3600' }); res.end(jwks); })).host,
    'slowdir.test': new URL(await serve((req, res) => { directoryHits.slow++; setTimeout(() => { res.writeHead(200); res.end(jwks); }, 4000); })).host,
    'downdir.test': new URL(await serve((req, res) => { directoryHits.down++; res.writeHead(503); res.end(); })).host,
  };
  const listServer = await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ prefixes: [{ ipv4Prefix: '66.249.64.0/27' }, { ipv6Prefix: '2001:4860:4801:10::/64' }] }));
  });
  hosts['lists.test'] = new URL(listServer).host;
  const vars = {
    MODE: 'enforce',
    TEST_HOSTS: hosts,
    DIRECTORY_TIMEOUT_MS: '1500',
    IP_LISTS_BUILT_IN: 'off',
    IP_LISTS: [{ tokens: ['Googlebot'], url: 'https://lists.test/googlebot.json' }],
    // The test plays the proxy in front of workerd that sets the client's address.
    CLIENT_ADDRESS_HEADER: 'cf-connecting-ip',
    SIGNATURE_AGENTS: [{ origin: 'https://signer.test', token: 'ExampleBot' }],
    ROBOTS_FAILURE_TTL_MS: '1000',
  };
  const config = {};
  for (const [name, robots] of Object.entries(robotsFor)) {
    const site = await serve(origin((req, res, pathname) => (pathname === '/robots.txt' ? (robots(req, res), true) : false)));
    // Timeouts with room for a loaded machine, except where the timeout is the fault.
    config[name] = { vars: { ...vars, ORIGIN: site, ROBOTS_TIMEOUT_MS: name === 'hang' ? '300' : '3000' } };
  }
  // --expose-gc: memory is measured after a full collection in every isolate (V8 collects lazily,
  // so without one a heap that only grows until its next major GC would look like a leak).
  gates = await startGates(config, {}, { entry: 'test/identity-worker.js', v8Flags: ['--expose-gc'] });
});

after(() => {
  agent.destroy();
  gates?.stop();
  closeServers();
});

/** workerd's resident memory in MB (Linux), after a full garbage collection in each gate. */
async function memoryMB() {
  for (const name of Object.keys(robotsFor)) {
    const res = await fetch(`${gates.url(name)}/__gc`);
    assert.equal(res.status, 200, await res.text());
  }
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${gates.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

// node:http with keep-alive: a lighter client than fetch, so the client is not what is measured.
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

test(`${TOTAL} requests at concurrency ${CONCURRENCY}: each decided per policy, none lost, memory flat`, async (t) => {
  const gateNames = Object.keys(robotsFor);
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const failures = [];
  let lost = 0;
  let next = 0;
  let done = 0;
  const memory = [];
  const started = Date.now();
  async function one(i) {
    const kindName = deck[(i * 7919) % deck.length];
    const kind = kinds[kindName];
    const gate = gateNames[i % gateNames.length];
    const path = `/page/${i}`;
    const url = `${gates.url(gate)}${path}`;
    const headers = kind.sign ? { 'user-agent': CHROME, 'cf-connecting-ip': '198.51.100.9', ...signedHeaders(url, kind.sign, key) } : kind.headers(i);
    const t0 = performance.now();
    let res;
    try {
      res = await get(url, headers);
    } catch (e) {
      lost++;
      if (failures.length < 20) failures.push(`${kindName} on ${gate}: ${e.message}`);
      return;
    }
    times[kindName].push(performance.now() - t0);
    const want = FAILED.has(gate) ? kind.failed : kind.ok;
    const header = res.headers['x-robots-eval'];
    const good = want === null ? res.status === 200 && res.headers['x-origin'] === 'yes' : res.status === 403 && want.test(header ?? '');
    if (!good && failures.length < 20) failures.push(`${kindName} on ${gate}: ${res.status} ${header}`);
    if (!good) failures.count = (failures.count ?? 0) + 1;
  }
  async function loop() {
    while (next < TOTAL) {
      const i = next++;
      await one(i);
      if (++done % Math.floor(TOTAL / 10) === 0) memory.push(await memoryMB());
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (Date.now() - started) / 1000;
  t.diagnostic(`${TOTAL} requests in ${seconds.toFixed(1)} s (${Math.round(TOTAL / seconds)}/s), concurrency ${CONCURRENCY}, 5 gates (robots.txt ok, 503, hanging, slow, oversized)`);
  t.diagnostic('| request kind | requests | p50 | p99 |');
  for (const [name, list] of Object.entries(times)) {
    if (list.length === 0) continue;
    const sorted = Float64Array.from(list).sort();
    t.diagnostic(`| ${name} | ${list.length} | ${q(sorted, 0.5).toFixed(1)} ms | ${q(sorted, 0.99).toFixed(1)} ms |`);
  }
  t.diagnostic(`workerd memory (MB) after each tenth: ${memory.map((m) => m.toFixed(0)).join(', ')}`);
  assert.equal(lost, 0, failures.join('\n'));
  assert.deepEqual(failures, [], `${failures.count} wrong decisions, the first: ${failures.join('\n')}`);
  assert.equal(Object.values(times).reduce((n, l) => n + l.length, 0), TOTAL);
  // Memory flat: from the second tenth (isolates warm) to the last, within 48 MB.
  assert.ok(memory.at(-1) - memory[1] < 48, `workerd memory grew: ${memory.join(', ')}`);
  // The good directory was fetched once per gate (each is its own isolate) for thousands of
  // signed requests; the failing ones as rarely (a failure is kept a minute), not once per request.
  const n = Object.keys(robotsFor).length;
  assert.ok(directoryHits.good <= n && directoryHits.slow <= n && directoryHits.down <= n, JSON.stringify(directoryHits));
});
