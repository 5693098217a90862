// Who is asking, in real workerd (test/harness.mjs, entry test/identity-worker.js): identify()'s
// contract for every outcome, the published signature vectors (test/data/signature-vectors.json),
// key directories served on 127.0.0.1 under test names (https://signer.test ...) that fail in
// every way, the SSRF checks on the URL a signer names, address lists with IPv4 and IPv6 ranges,
// and the gate's policies end to end (403 header, Analytics Engine, report-only log).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cacheService, closeServers, dataPoints, origin, serve, startGates } from './harness.mjs';
import { newKey, signedHeaders } from './signer.mjs';

const vectors = JSON.parse(readFileSync(new URL('./data/signature-vectors.json', import.meta.url), 'utf8'));
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const ROBOTS = [
  'User-agent: ExampleBot', 'Disallow: /private-examplebot', 'Allow: /', '',
  'User-agent: Googlebot', 'Disallow: /no-google', 'Allow: /', '',
  'User-agent: ChatGPT-User', 'Disallow: /', '',
  'User-agent: *', 'Disallow: /', '',
].join('\n');

const keyA = newKey(); // signer.test's key
const keyB = newKey(); // a key no directory has (a forger's)
const keyC = newKey(); // signer.test's next key (rotation)
const keyP = newKey(); // paths.test's key

// Key directory servers, one per test signer name, each counting its requests.
const dirs = {};
function directory(name, handler) {
  dirs[name] = { hits: 0, handler };
  return (req, res) => {
    dirs[name].hits++;
    dirs[name].handler(req, res);
  };
}
const jwks = (keys, extra = {}) => (req, res) => {
  res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=3600', ...extra });
  res.end(JSON.stringify({ keys }));
};
const signerKeys = [keyA.jwk];
const servers = {
  'signer.test': directory('signer', (req, res) => {
    if (req.url !== '/.well-known/http-message-signatures-directory') { res.writeHead(404); res.end(); return; }
    jwks(signerKeys)(req, res);
  }),
  'other.test': directory('other', jwks([keyB.jwk])),
  'paths.test': directory('paths', (req, res) => (req.url.startsWith('/keys.json') ? jwks([keyP.jwk])(req, res) : (res.writeHead(404), res.end()))),
  'signature-agent.test': directory('vectors', jwks(Object.values(vectors.keys).map((k) => k.jwk))),
  'redirect.test': directory('redirect', (req, res) => { res.writeHead(302, { location: 'https://signer.test/.well-known/http-message-signatures-directory' }); res.end(); }),
  'slow.test': directory('slow', () => {}), // never answers
  'big.test': directory('big', (req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ keys: [keyA.jwk], pad: 'x'.repeat(100_000) })); }),
  'html.test': directory('html', (req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>not a directory</html>'); }),
  'down.test': directory('down', (req, res) => { res.writeHead(503); res.end('down'); }),
  'many.test': directory('many', jwks(Array.from({ length: 40 }, () => newKey().jwk))),
  'shared.test': directory('shared', jwks([keyB.jwk], { 'cache-control': 'max-age=600' })),
  // Names a directory fetch must never reach: if the checks let one through, this counts it.
  trap: directory('trap', (req, res) => { res.writeHead(200); res.end(JSON.stringify({ keys: [keyB.jwk] })); }),
};

// Address lists (Google's and OpenAI's JSON shape), counting requests.
const listHits = {};
const LISTS = {
  '/googlebot.json': { creationTime: '2026-11-01T00:00:00', prefixes: [{ ipv4Prefix: '66.249.64.0/27' }, { ipv6Prefix: '2001:4860:4801:10::/64' }] },
  '/chatgpt-user.json': { prefixes: [{ ipv4Prefix: '23.98.142.176/28' }] },
  '/moved.json': { 'Action needed': 'update the location you are fetching from' },
};
function listServer(req, res) {
  listHits[req.url] = (listHits[req.url] ?? 0) + 1;
  if (req.url === '/down.json') { res.writeHead(503); res.end(); return; }
  const body = LISTS[req.url];
  if (!body) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const ae = dataPoints();
const sharedCache = cacheService();
let gates;
let lists;
before(async () => {
  const hosts = {};
  for (const [name, handler] of Object.entries(servers)) hosts[name] = new URL(await serve(handler)).host;
  const trap = hosts.trap;
  for (const name of ['127.0.0.1', 'localhost', '[::1]', 'intranet', '169.254.169.254', 'db.internal']) hosts[name] = trap;
  for (let i = 0; i < 24; i++) hosts[`flood${i}.test`] = hosts['slow.test'];
  lists = await serve(listServer);
  const site = await serve(origin(ROBOTS));
  const collector = new URL(await serve(ae.handler)).host;
  const cache = new URL(await serve(sharedCache.handler)).host;
  hosts['lists.test'] = new URL(lists).host;
  const vars = {
    ORIGIN: site,
    TEST_HOSTS: hosts,
    // The test plays the proxy in front of workerd that sets the client's address.
    CLIENT_ADDRESS_HEADER: 'cf-connecting-ip',
    DIRECTORY_TIMEOUT_MS: '400',
    // Only this test's lists: the built-in ones live on the Internet.
    IP_LISTS_BUILT_IN: 'off',
    SIGNATURE_AGENTS: [{ origin: 'https://signer.test', token: 'ExampleBot' }, { origin: 'https://paths.test/keys.json', token: 'PathBot' }],
    IP_LISTS: [
      { tokens: ['Googlebot'], url: `https://lists.test/googlebot.json` },
      { tokens: ['ChatGPT-User'], url: `https://lists.test/chatgpt-user.json`, userTriggered: true },
      { tokens: ['DownBot'], url: `https://lists.test/down.json` },
      { tokens: ['MovedBot'], url: `https://lists.test/moved.json` },
    ],
  };
  gates = await startGates({
    strict: { vars, analytics: 'decisions' },
    vectors: { vars: { ...vars, SIGNATURE_MAX_WINDOW_S: String(200 * 365 * 86400) } },
    lenient: { vars: { ...vars, SPOOFED: 'unknown', INVALID_SIGNATURE: 'unverified', USER_TRIGGERED: 'pass' } },
    report: { vars: { ...vars, MODE: 'report-only' }, analytics: 'decisions' },
    // Two isolates sharing a Cache API.
    cachedA: { vars, cache: 'cache' },
    cachedB: { vars, cache: 'cache' },
  }, { decisions: collector, cache }, { entry: 'test/identity-worker.js' });
});

after(() => {
  gates?.stop();
  closeServers();
});

const post = async (path, body, gate = 'strict') => {
  const res = await fetch(`${gates.url(gate)}${path}`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}\n${gates.log()}`);
  return res.json();
};
const SITE = 'https://site.example/page';
const identify = (headers, o = {}) => post('/__identify', { url: o.url ?? SITE, headers: { 'user-agent': CHROME, ...headers }, now: o.now }, o.gate);
const signed = (agent, key, o = {}) => signedHeaders(o.url ?? SITE, agent, key, o);
const expect = (identity, token, signatureAgent, reason) => ({ identity, token, signatureAgent, reason });

test('RFC 9421 B.2.6: the signature base and the Ed25519 signature, and a tampered field fails', async () => {
  for (const v of vectors.rfc9421) {
    const jwk = vectors.keys[v.key].jwk;
    const got = await post('/__verify', { request: v.request, label: v.label, jwk, alg: 'ed25519' });
    assert.equal(got.base, v.base, v.name);
    assert.equal(got.valid, true, v.name);
    const tampered = { ...v.request, headers: { ...v.request.headers, date: 'Tue, 20 Apr 2021 02:07:56 GMT' } };
    assert.equal((await post('/__verify', { request: tampered, label: v.label, jwk, alg: 'ed25519' })).valid, false);
  }
});

test("the Web Bot Auth draft's vectors verify (Ed25519 and RSASSA-PSS, dictionary and legacy Signature-Agent)", async () => {
  const failures = [];
  for (const v of vectors.webBotAuth) {
    const { jwk } = vectors.keys[v.key];
    const alg = v.key === 'test-key-ed25519' ? 'ed25519' : 'rsa-pss-sha512';
    const got = await post('/__verify', { request: v.request, label: 'sig2', jwk, alg });
    if (got.valid !== true) failures.push(`${v.name}: ${JSON.stringify(got)}`);
    // The signature covers the Signature-Agent member: another agent URL breaks it.
    const moved = { ...v.request, headers: { ...v.request.headers, 'signature-agent': v.request.headers['signature-agent'].replace('signature-agent.test', 'elsewhere.test') } };
    if ((await post('/__verify', { request: moved, label: 'sig2', jwk, alg })).valid !== false) failures.push(`${v.name}: a changed agent still verifies`);
    // Through identify(): the published test keys are refused before any fetch (the draft's
    // "Test and Demonstration Keys"), after the freshness checks.
    // Two of the vectors claim a century of validity (expires 2124): refused for it by default
    // (SIGNATURE_MAX_WINDOW_S, 24 hours); the `vectors` gate believes a century.
    const id = await post('/__identify', { ...v.request, now: v.now }, 'vectors');
    if (JSON.stringify(id) !== JSON.stringify(expect('unverified', null, null, 'test-key'))) failures.push(`${v.name}: identify ${JSON.stringify(id)}`);
    const window = v.request.headers['signature-input'].match(/created=(\d+).*expires=(\d+)/).slice(1).map(Number);
    const strict = await post('/__identify', { ...v.request, now: v.now });
    const want = window[1] - window[0] > 86400 ? 'window-too-long' : 'test-key';
    if (strict.reason !== want) failures.push(`${v.name}: identify by default ${JSON.stringify(strict)}, not ${want}`);
    const late = await post('/__identify', { ...v.request, now: 4889289600000 + 61_000 });
    if (late.identity !== 'invalid' || late.reason !== 'expired') failures.push(`${v.name} after expires: ${JSON.stringify(late)}`);
  }
  assert.deepEqual(failures, []);
  assert.equal(dirs.vectors.hits, 0);
});

test('verified: both Signature-Agent forms, a configured token, a directory at a path, an unconfigured signer', async () => {
  const verified = expect('verified', 'ExampleBot', 'https://signer.test', 'signature-verified');
  assert.deepEqual(await identify(signed('https://signer.test', keyA)), verified);
  assert.deepEqual(await identify(signed('https://signer.test', keyA, { form: 'legacy' })), verified);
  // Signers that sign the whole dictionary field rather than its member (web-bot-auth 0.1.3).
  assert.deepEqual(await identify(signed('https://signer.test', keyA, { wholeField: true })), verified);
  // The well-known URL spelled out is the same directory.
  assert.deepEqual(await identify(signed('https://signer.test/.well-known/http-message-signatures-directory', keyA)), verified);
  // A directory at a path gets its token only from a SIGNATURE_AGENTS row naming that URL.
  assert.deepEqual(await identify(signed('https://paths.test/keys.json', keyP)), expect('verified', 'PathBot', 'https://paths.test', 'signature-verified'));
  assert.deepEqual(await identify(signed('https://other.test', keyB)), expect('verified', null, 'https://other.test', 'signature-verified'));
  // A signer nobody configured that claims a listed crawler from outside its addresses.
  assert.deepEqual(await identify({ ...signed('https://other.test', keyB), 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.9' }),
    expect('verified', null, 'https://other.test', 'claim-outside-list'));
  // The gate fetched signer.test's directory once for all of these.
  assert.equal(dirs.signer.hits, 1);
});

test('invalid: expired, future, tampered, wrong @authority, wrong key, uncovered Signature-Agent, malformed', async () => {
  const now = Math.floor(Date.now() / 1000);
  const cases = [
    ['expired', signed('https://signer.test', keyA, { created: now - 900, expires: now - 300 }), 'expired'],
    ['created in the future', signed('https://signer.test', keyA, { created: now + 600, expires: now + 900 }), 'not-yet-valid'],
    ['a tampered covered header', { ...signed('https://signer.test', keyA, { components: ['@authority', 'signature-agent', 'x-purpose'], extra: { 'x-purpose': 'search' } }), 'x-purpose': 'training' }, 'bad-signature'],
    ['a wrong @authority', signed('https://signer.test', keyA, { authority: 'other.example' }), 'bad-signature'],
    ['a key the directory does not vouch for, under its keyid', signed('https://signer.test', keyB, { keyid: keyA.keyid }), 'bad-signature'],
    ['Signature-Agent sent but not covered', signed('https://signer.test', keyA, { coverAgent: false }), 'signature-agent-not-covered'],
    ['@authority not covered', signed('https://signer.test', keyA, { components: ['signature-agent'] }), 'authority-not-covered'],
    ['a covered field that is absent', (({ 'x-purpose': _, ...h }) => h)(signed('https://signer.test', keyA, { components: ['@authority', 'signature-agent', 'x-purpose'], extra: { 'x-purpose': 'a' } })), 'missing-component'],
    ['a malformed Signature', { ...signed('https://signer.test', keyA), signature: 'sig1=not-bytes' }, 'malformed-signature'],
    ['Signature without Signature-Input', { signature: 'sig1=:AAAA:' }, 'malformed-signature'],
    ['no expires', (() => { const h = signed('https://signer.test', keyA); return { ...h, 'signature-input': h['signature-input'].replace(/;expires=\d+/, '') }; })(), 'missing-parameter'],
  ];
  const failures = [];
  for (const [name, headers, reason] of cases) {
    const got = await identify(headers);
    if (JSON.stringify(got) !== JSON.stringify(expect('invalid', null, null, reason))) failures.push(`${name}: ${JSON.stringify(got)}`);
  }
  assert.deepEqual(failures, []);
  // Within the clock tolerance (60 s) is not expired.
  assert.equal((await identify(signed('https://signer.test', keyA, { created: now - 400, expires: now - 30 }))).identity, 'verified');
  // A signature with another tag is not Web Bot Auth: left alone.
  assert.deepEqual(await identify(signed('https://signer.test', keyA, { tag: 'other-protocol' })), expect('unverified', null, null, 'no-claim'));
});

test('unverified: no claim, no Signature-Agent, a directory that redirects, times out, is too large, is not JSON, is down', async () => {
  assert.deepEqual(await identify({}), expect('unverified', null, null, 'no-claim'));
  assert.deepEqual(await identify(signed('https://signer.test', keyA, { form: 'none' })), expect('unverified', null, null, 'no-signature-agent'));
  const cases = [
    ['redirect.test', 'directory-redirect'], ['slow.test', 'directory-timeout'], ['big.test', 'directory-too-large'],
    ['html.test', 'directory-not-json'], ['down.test', 'directory-status'], ['many.test', 'directory-too-many-keys'],
  ];
  const failures = [];
  for (const [host, reason] of cases) {
    const t0 = Date.now();
    const got = await identify(signed(`https://${host}`, keyA));
    if (JSON.stringify(got) !== JSON.stringify(expect('unverified', null, null, reason))) failures.push(`${host}: ${JSON.stringify(got)}`);
    if (Date.now() - t0 > 2000) failures.push(`${host}: took ${Date.now() - t0} ms`);
  }
  assert.deepEqual(failures, []);
  // The redirect was not followed: signer.test saw no request from it.
  assert.equal(dirs.redirect.hits, 1);
  // A failure is remembered for a while: asking again costs no fetch.
  for (const host of ['down.test', 'slow.test', 'html.test']) {
    const before = dirs[host.split('.')[0]].hits;
    assert.equal((await identify(signed(`https://${host}`, keyA))).identity, 'unverified');
    assert.equal(dirs[host.split('.')[0]].hits, before, host);
  }
  // An unverifiable signature still leaves the address check (the draft's Appendix C).
  assert.deepEqual(await identify({ ...signed('https://down.test', keyA), 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '66.249.64.10' }),
    expect('ip-verified', 'Googlebot', null, 'address-in-list'));
  assert.deepEqual(await identify({ ...signed('https://down.test', keyA), 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '198.51.100.7' }),
    expect('spoofed', 'Googlebot', null, 'address-not-in-list'));
});

test('a flood of made-up directory names: at most 16 fetches in flight, the rest unverified at once', async () => {
  const before = dirs.slow.hits;
  const results = await Promise.all(Array.from({ length: 24 }, (_, i) => identify(signed(`https://flood${i}.test`, keyA))));
  const reasons = results.map((r) => r.reason).sort();
  assert.equal(reasons.filter((r) => r === 'directory-timeout').length, 16, reasons.join());
  assert.equal(reasons.filter((r) => r === 'directory-busy').length, 8, reasons.join());
  assert.equal(dirs.slow.hits - before, 16);
});

test('a key directory is shared between isolates through the Cache API, for its max-age', async () => {
  const headers = signed('https://shared.test', keyB);
  assert.deepEqual(await identify(headers, { gate: 'cachedA' }), expect('verified', null, 'https://shared.test', 'signature-verified'));
  assert.equal(dirs.shared.hits, 1);
  for (let i = 0; i < 20 && sharedCache.puts === 0; i++) await new Promise((r) => setTimeout(r, 25)); // the put runs in waitUntil
  assert.equal(sharedCache.puts, 1);
  // Another isolate: the directory comes from the Cache API, not from the signer.
  assert.deepEqual(await identify(headers, { gate: 'cachedB' }), expect('verified', null, 'https://shared.test', 'signature-verified'));
  assert.equal(dirs.shared.hits, 1);
  assert.equal(sharedCache.hits, 1);
});

test('key rotation: a keyid the directory lacks is unverified, and verifies once the directory publishes it', async () => {
  const now = Date.now();
  const before = dirs.signer.hits;
  // Not in the cached copy: the gate asks the directory again (it may have rotated), once.
  assert.deepEqual(await identify(signed('https://signer.test', keyC), { now: now + 120_000 }), expect('unverified', null, null, 'unknown-key'));
  assert.equal(dirs.signer.hits, before + 1);
  assert.equal((await identify(signed('https://signer.test', keyC), { now: now + 121_000 })).reason, 'unknown-key');
  assert.equal(dirs.signer.hits, before + 1, 'at most one refetch a minute for unknown keys');
  signerKeys.push(keyC.jwk);
  const later = Math.floor((now + 190_000) / 1000);
  assert.deepEqual(await identify(signed('https://signer.test', keyC, { created: later, expires: later + 300 }), { now: later * 1000 }),
    expect('verified', 'ExampleBot', 'https://signer.test', 'signature-verified'));
  assert.equal(dirs.signer.hits, before + 2);
});

test('a signer cannot make the gate fetch a private address or name', async () => {
  const refusals = {
    'https://127.0.0.1/': 'directory-private-address',
    'https://0x7f.1/': 'directory-private-address',
    'https://2130706433/': 'directory-private-address',
    'https://017700000001/': 'directory-private-address',
    'https://0177.0.0.1/': 'directory-private-address',
    'https://127.1/': 'directory-private-address',
    'https://10.1.2.3/': 'directory-private-address',
    'https://172.16.0.1/': 'directory-private-address',
    'https://192.168.1.1/': 'directory-private-address',
    'https://169.254.169.254/latest/meta-data/': 'directory-private-address',
    'https://100.64.0.1/': 'directory-private-address',
    'https://0.0.0.0/': 'directory-private-address',
    'https://[::1]/': 'directory-private-address',
    'https://[::]/': 'directory-private-address',
    'https://[fe80::1]/': 'directory-private-address',
    'https://[fc00::1]/': 'directory-private-address',
    'https://[fd12:3456::1]/': 'directory-private-address',
    'https://[::ffff:127.0.0.1]/': 'directory-private-address',
    'https://[::ffff:a9fe:a9fe]/': 'directory-private-address',
    'https://[::ffff:10.0.0.1]/': 'directory-private-address',
    'https://[64:ff9b::a9fe:a9fe]/': 'directory-private-address',
    'https://[2002:a9fe:a9fe::1]/': 'directory-private-address',
    'https://[ff02::1]/': 'directory-private-address',
    'https://8.8.8.8/': 'directory-ip-literal',
    'https://[2606:4700:4700::1111]/': 'directory-ip-literal',
    'https://localhost/': 'directory-private-name',
    'https://LOCALHOST./': 'directory-private-name',
    'https://api.localhost/': 'directory-private-name',
    'https://printer.local/': 'directory-private-name',
    'https://db.internal/': 'directory-private-name',
    'https://nas.home.arpa/': 'directory-private-name',
    'https://intranet/': 'directory-private-name',
    'http://signer.test/': 'directory-not-https',
    'ftp://signer.test/': 'directory-not-https',
    'https://user:secret@signer.test/': 'directory-credentials',
    'https://signer.test:8443/': 'directory-port',
    'https://signer.test/': null,
    'https://signer.test:443/keys.json': null,
  };
  const got = await post('/__refusal', { urls: Object.keys(refusals) });
  assert.deepEqual(Object.fromEntries(Object.keys(refusals).map((u, i) => [u, got[i]])), refusals);
  // Through identify(): unverified with the reason, and nothing fetched (the trap counts).
  for (const agent of ['https://127.0.0.1', 'https://localhost', 'https://[::1]', 'https://169.254.169.254', 'https://db.internal', 'https://intranet', 'http://signer.test']) {
    const r = await identify(signed(agent, keyB));
    assert.equal(r.identity, 'unverified', agent);
    assert.match(r.reason, /^directory-(private-address|private-name|not-https)$/, agent);
  }
  assert.equal(dirs.trap.hits, 0);
});

test('ip-verified and spoofed: IPv4, IPv6 and IPv4-mapped addresses against the lists', async () => {
  const claim = (ua, ip) => identify({ 'user-agent': ua, ...(ip ? { 'cf-connecting-ip': ip } : {}) });
  const rows = [
    [GOOGLEBOT, '66.249.64.10', expect('ip-verified', 'Googlebot', null, 'address-in-list')],
    [GOOGLEBOT, '66.249.64.31', expect('ip-verified', 'Googlebot', null, 'address-in-list')],
    [GOOGLEBOT, '66.249.64.32', expect('spoofed', 'Googlebot', null, 'address-not-in-list')],
    [GOOGLEBOT, '2001:4860:4801:10::5', expect('ip-verified', 'Googlebot', null, 'address-in-list')],
    [GOOGLEBOT, '2001:4860:4801:10:ffff:ffff:ffff:ffff', expect('ip-verified', 'Googlebot', null, 'address-in-list')],
    [GOOGLEBOT, '2001:4860:4801:11::5', expect('spoofed', 'Googlebot', null, 'address-not-in-list')],
    [GOOGLEBOT, '::ffff:66.249.64.10', expect('ip-verified', 'Googlebot', null, 'address-in-list')],
    [GOOGLEBOT, '1.2.3.4', expect('spoofed', 'Googlebot', null, 'address-not-in-list')],
    [GOOGLEBOT, 'not-an-address', expect('spoofed', 'Googlebot', null, 'address-not-in-list')],
    [GOOGLEBOT, null, expect('unverified', null, null, 'no-client-address')],
    ['SomeBot/1.0', '66.249.64.10', expect('unverified', null, null, 'no-claim')], // no list for it
    [CHATGPT_USER, '23.98.142.180', expect('ip-verified', 'ChatGPT-User', null, 'address-in-list')],
    ['DownBot/1.0', '1.2.3.4', expect('unverified', null, null, 'ip-list-unavailable')],
    ['MovedBot/1.0', '1.2.3.4', expect('unverified', null, null, 'ip-list-unavailable')],
  ];
  const failures = [];
  for (const [ua, ip, want] of rows) {
    const got = await claim(ua, ip);
    if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${ua} from ${ip}: ${JSON.stringify(got)}`);
  }
  assert.deepEqual(failures, []);
  // Each list was fetched once (first use, kept in isolate memory); a failed one is asked again
  // only after a minute.
  assert.equal(listHits['/googlebot.json'], 1);
  await claim('DownBot/1.0', '1.2.3.4');
  assert.equal(listHits['/down.json'], 1);
});

const page = (gate, path, headers) => fetch(`${gates.url(gate)}${path}`, { headers: { 'user-agent': CHROME, ...headers } });
const gateUrl = (gate, path) => `${gates.url(gate)}${path}`;

test('the gate: a verified agent obeys its token\'s group; a spoofed claim and an invalid signature get a 403', async () => {
  const sig = (gate, path, o) => signedHeaders(gateUrl(gate, path), 'https://signer.test', keyA, o);
  // robots.txt: ExampleBot may go anywhere but /private-examplebot; * nowhere.
  const ok = await page('strict', '/page', sig('strict', '/page'));
  assert.equal(ok.status, 200, gates.log());
  assert.equal(ok.headers.get('x-origin'), 'yes');
  const no = await page('strict', '/private-examplebot', sig('strict', '/private-examplebot'));
  assert.equal(no.status, 403);
  assert.equal(no.headers.get('x-robots-eval'), 'disallowed; line=2; rule="Disallow: /private-examplebot"; crawler="Safari"; by=signature; '
    + 'identity=verified; identity-reason=signature-verified; token="ExampleBot"; signature-agent="https://signer.test"');
  // Googlebot from its addresses obeys Googlebot's group.
  assert.equal((await page('strict', '/page', { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '66.249.64.10' })).status, 200);
  const noGoogle = await page('strict', '/no-google', { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '66.249.64.10' });
  assert.match(noGoogle.headers.get('x-robots-eval'), /; identity=ip-verified; identity-reason=address-in-list; token="Googlebot"$/);
  // Googlebot's User-Agent from elsewhere: 403 before robots.txt.
  const spoofed = await page('strict', '/page', { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.50' });
  assert.equal(spoofed.status, 403);
  assert.equal(spoofed.headers.get('x-robots-eval'), 'forbidden; crawler="Googlebot"; by=isbot; identity=spoofed; identity-reason=address-not-in-list; token="Googlebot"');
  assert.match(await spoofed.text(), /claims to be Googlebot/);
  // A forged signature: 403.
  const forged = await page('strict', '/page', sig('strict', '/page', { authority: 'elsewhere.example' }));
  assert.equal(forged.status, 403);
  assert.equal(forged.headers.get('x-robots-eval'), 'forbidden; crawler="Safari"; by=signature; identity=invalid; identity-reason=bad-signature; token=""');
  // People pass, from anywhere, without a lookup.
  assert.equal((await page('strict', '/no-google', { 'cf-connecting-ip': '203.0.113.50' })).status, 200);
});

test('SPOOFED = "unknown", INVALID_SIGNATURE = "unverified", USER_TRIGGERED = "pass"', async () => {
  // A spoofed claim is an unknown crawler: the * group.
  const spoofed = await page('lenient', '/page', { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.50' });
  assert.equal(spoofed.status, 403);
  assert.equal(spoofed.headers.get('x-robots-eval'), 'disallowed; line=13; rule="Disallow: /"; crawler="Googlebot"; by=isbot; identity=spoofed; identity-reason=address-not-in-list; token="*"');
  // An invalid signature is ignored; the address check still applies.
  const forged = signedHeaders(gateUrl('lenient', '/page'), 'https://signer.test', keyB, { keyid: keyA.keyid });
  const ignored = await page('lenient', '/page', forged);
  assert.match(ignored.headers.get('x-robots-eval'), /; identity=unverified; identity-reason=ignored-bad-signature; token="Safari"$/);
  assert.equal((await page('lenient', '/page', { ...forged, 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '66.249.64.10' })).status, 200);
  const caught = await page('lenient', '/page', { ...forged, 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.50' });
  assert.match(caught.headers.get('x-robots-eval'), /identity=spoofed; identity-reason=address-not-in-list; token="\*"$/);
  // A verified user-triggered fetcher passes although robots.txt disallows it; a claimed one does not.
  const user = { 'user-agent': CHATGPT_USER, 'cf-connecting-ip': '23.98.142.180' };
  assert.equal((await page('lenient', '/page', user)).status, 200);
  const held = await page('strict', '/page', user);
  assert.equal(held.status, 403);
  assert.match(held.headers.get('x-robots-eval'), /^disallowed; line=10; rule="Disallow: \/"; crawler="ChatGPT-User"; by=isbot; identity=ip-verified/);
  assert.equal((await page('lenient', '/page', { 'user-agent': CHATGPT_USER, 'cf-connecting-ip': '203.0.113.50' })).status, 403);
});

test('the identity in the Analytics Engine data point and the report-only log line', async () => {
  await page('strict', '/x', { 'user-agent': GOOGLEBOT, 'cf-connecting-ip': '203.0.113.77' });
  const [point] = await ae.where((p) => p.blobs[0] === 'forbidden' && p.blobs[1] === 'enforce');
  assert.deepEqual(point.blobs.slice(11, 15), ['spoofed', 'address-not-in-list', 'Googlebot', '']);
  const signedReq = signedHeaders(gateUrl('report', '/private-examplebot'), 'https://signer.test', keyA);
  const res = await page('report', '/private-examplebot', signedReq);
  assert.equal(res.status, 200);
  const [reported] = await ae.where((p) => p.blobs[1] === 'report-only' && p.blobs[11] === 'verified');
  assert.deepEqual(reported.blobs.slice(11, 15), ['verified', 'signature-verified', 'ExampleBot', 'https://signer.test']);
  assert.equal(reported.blobs[0], 'disallowed');
  assert.match(gates.log(), /worker-gate report-only: \{"verdict":"disallowed".*"identity":"verified","identityReason":"signature-verified","token":"ExampleBot","signatureAgent":"https:\/\/signer.test"/);
});
