// The gate under attack, in real workerd (test/harness.mjs, entry test/identity-worker.js for the
// test signers' names): each hole of issue 30 as an attacker would use it, the requests written
// out byte for byte where the bytes are the attack (raw HTTP/1.1 on a socket, so no client
// library normalizes them first). Every test here failed on the gate before the fix it names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Robots } from 'robots-eval/rich';
import { closeServers, origin, serve, startGates } from './harness.mjs';
import { newKey, signedHeaders } from './signer.mjs';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

// The site's origin, and a server the attacker would like the gate to contact instead: both
// record every request they get (its Host and path).
const seen = { origin: [], evil: [] };
const recorder = (name) => (req, res) => {
  seen[name].push({ host: req.headers.host, path: req.url, ua: req.headers['user-agent'] ?? '' });
  if (req.url === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(name === 'evil' ? 'User-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /private\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': name });
  res.end(`${name} ${req.url}`);
};

// Googlebot may fetch everything, anyone else nothing: a request that gets Googlebot's group
// without coming from Googlebot's addresses gets the page.
const ROBOTS = 'User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n';
const GOOGLE_IP = '66.249.64.10';
const OUTSIDE_IP = '203.0.113.9';
const DIALECTS = ['rfc9309', 'google', 'draft1996', 'original1994', 'revisited'];

const signer = newKey();
const known = { hits: 0, state: 'ok' };
const listRequests = [];
let gates;
let evilHost;
before(async () => {
  const site = await serve(recorder('origin'));
  evilHost = new URL(await serve(recorder('evil'))).host;
  const lists = await serve((req, res) => {
    listRequests.push(req.url);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ prefixes: [{ ipv4Prefix: '66.249.64.0/27' }] }));
  });
  const claimSite = await serve(origin(ROBOTS));
  const claimVars = { ORIGIN: claimSite, IP_LISTS_BUILT_IN: 'off', CLIENT_ADDRESS_HEADER: 'cf-connecting-ip', TEST_HOSTS: { 'lists.test': new URL(lists).host }, IP_LISTS: [{ tokens: ['Googlebot'], url: 'https://lists.test/googlebot.json' }, { tokens: ['ChatGPT-User'], url: 'https://lists.test/chatgpt.json' }] };
  // The built-in lists, served under their own names (identity-worker.js carries the names to
  // loopback): Google's user-triggered fetchers' two lists, one of them Google Cloud's.
  const operatorLists = await serve((req, res) => {
    const prefixes = {
      '/static/crawling/ipranges/common-crawlers.json': ['66.249.64.0/27'],
      '/static/crawling/ipranges/user-triggered-fetchers-google.json': ['66.102.0.0/20'],
      '/static/crawling/ipranges/user-triggered-fetchers.json': ['34.0.0.0/15'],
    }[req.url] ?? ['192.0.2.0/30'];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ prefixes: prefixes.map((p) => ({ ipv4Prefix: p })) }));
  });
  const operators = new URL(operatorLists).host;
  const closedSite = await serve(origin('User-agent: *\nDisallow: /\n'));
  // A signer whose key directory the gate fetches (https://signer.test, carried to loopback), and
  // a site that lets its token (ExampleBot) fetch everything and nobody else anything.
  const directory = new URL(await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=3600' });
    res.end(JSON.stringify({ keys: [signer.jwk] }));
  })).host;
  const signedSite = await serve(origin('User-agent: ExampleBot\nAllow: /\n\nUser-agent: *\nDisallow: /\n'));
  const signedVars = { ORIGIN: signedSite, IP_LISTS_BUILT_IN: 'off', TEST_HOSTS: { 'signer.test': directory }, SIGNATURE_AGENTS: [{ origin: 'https://signer.test', token: 'ExampleBot' }] };
  // Hole 5: a configured signer's directory that can go slow or down; directories that never
  // answer (a flood of made-up names), and one that answers with another key (for evictions).
  const knownDir = new URL(await serve((req, res) => {
    known.hits++;
    if (known.state === 'hang') return;
    if (known.state === 'down') { res.writeHead(503); res.end(); return; }
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=60' });
    res.end(JSON.stringify({ keys: [signer.jwk] }));
  })).host;
  const hanging = new URL(await serve(() => {})).host;
  const other = new URL(await serve((req, res) => { res.writeHead(200); res.end(JSON.stringify({ keys: [newKey().jwk] })); })).host;
  const dirHosts = { 'known.test': knownDir, 'evict.test': other, 'one.test': hanging };
  for (let i = 0; i < 40; i++) dirHosts[`flood${i}.test`] = hanging;
  // An origin that sends the start of a page's head, then nothing for 10 s.
  const stalling = await serve((req, res) => {
    if (req.url === '/robots.txt') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('User-agent: *\nAllow: /\n'); return; }
    if (req.url === '/.well-known/tdmrep.json') { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><head><meta name="robots" content="index"><title>');
    const timer = setTimeout(() => res.end('slow</title></head><body>page</body></html>'), 10_000);
    res.on('close', () => clearTimeout(timer));
  });
  gates = await startGates({
    stall: { vars: { ORIGIN: stalling, AI_PREFERENCES: 'enforce', AI_HEAD_MAX_MS: '300', IP_LISTS_BUILT_IN: 'off' } },
    dirs: { vars: { ORIGIN: signedSite, IP_LISTS_BUILT_IN: 'off', TEST_HOSTS: dirHosts, DIRECTORY_TIMEOUT_MS: '2000', SIGNATURE_AGENTS: [{ origin: 'https://known.test', token: 'ExampleBot' }] } },
    // Two isolates sharing one NONCE_STORE (Durable Object namespace), one with none, one strict.
    signedA: { vars: signedVars, nonceStore: true },
    signedB: { vars: signedVars, nonceStore: 'signedA' },
    signedMemory: { vars: signedVars },
    signedStrict: { vars: { ...signedVars, SIGNATURE_COVERAGE: 'request', SIGNATURE_MAX_WINDOW_S: '3600' } },
    builtin: { vars: { ORIGIN: closedSite, USER_TRIGGERED: 'pass', CLIENT_ADDRESS_HEADER: 'cf-connecting-ip', TEST_HOSTS: { 'developers.google.com': operators, 'www.bing.com': operators, 'openai.com': operators } } },
    forward: { vars: { ORIGIN: site, IP_LISTS_BUILT_IN: 'off' } },
    ...Object.fromEntries(DIALECTS.map((d) => [d, { vars: { ...claimVars, DIALECT: d } }])),
    // Self-hosted: nobody in front of workerd sets the client's address; and a list over http.
    selfHosted: { vars: { ...claimVars, CLIENT_ADDRESS_HEADER: '' } },
    plainList: { vars: { ...claimVars, IP_LISTS: [{ tokens: ['Googlebot'], url: 'http://lists.test/plain.json' }] } },
  }, {}, { entry: 'test/identity-worker.js' });
});

after(() => {
  gates?.stop();
  closeServers();
});

/**
 * Sends `head` (the request line and header lines, CRLF-joined here) as is to the gate `gate`
 * and resolves to `{ status, headers, body }` (the connection is closed after one response).
 */
function raw(gate, lines) {
  const { hostname, port } = new URL(gates.url(gate));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    let data = Buffer.alloc(0);
    const done = () => {
      const text = data.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status: Number(statusLine.split(' ')[1]) || 0, headers, body: text.slice(split + 4) };
    };
    socket.on('data', (c) => {
      data = Buffer.concat([data, c]);
      // One response read whole (by its length or its last chunk): the server may keep the
      // connection open whatever the request said.
      const r = done();
      const length = Number(r.headers['content-length']);
      if (data.indexOf('\r\n\r\n') >= 0 && (r.body.length >= length || (r.headers['transfer-encoding'] === 'chunked' && r.body.endsWith('0\r\n\r\n')))) {
        socket.destroy();
        resolve(r);
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(done()));
  });
}

test('hole 1: no request path moves the gate off ORIGIN (browsers and crawlers, robots.txt too)', async () => {
  const E = evilHost;
  // Request targets an attacker sends: network-path references in every spelling, encoded
  // slashes, dot segments, a full URL as the path, user info, a tab (which URL parsing strips),
  // and the absolute form of the request line.
  const targets = [
    `//${E}/steal`,
    `/\\${E}/steal`,
    `/\\\\${E}/steal`,
    `/%2F%2F${E}/steal`,
    `/%2f%5c${E}/steal`,
    `/..//${E}/steal`,
    `/./..//${E}/steal`,
    `/https://${E}/steal`,
    `/http:/\\${E}/steal`,
    `//user@${E}/steal`,
    `/@${E}/steal`,
    `/\t/${E}/steal`,
    `//${E}%2F..%2F/steal`,
    `http://${E}/steal`,
  ];
  const failures = [];
  for (const target of targets) {
    for (const ua of [CHROME, 'curl/8.5.0']) {
      const before = seen.origin.length;
      const res = await raw('forward', [`GET ${target} HTTP/1.1`, 'Host: gate.example', `User-Agent: ${ua}`]);
      // The server's own parser may refuse a request line (400): then nothing was forwarded.
      if (res.status === 400) continue;
      const reached = seen.origin.slice(before).filter((r) => r.path !== '/robots.txt');
      if (res.headers['x-served-by'] === 'evil') failures.push(`${JSON.stringify(target)} (${ua}): answered by the attacker's server`);
      if (res.status === 200 && reached.length !== 1) failures.push(`${JSON.stringify(target)} (${ua}): ${res.status}, origin saw ${JSON.stringify(reached)}`);
    }
  }
  assert.deepEqual(seen.evil, [], `the attacker's server was contacted: ${JSON.stringify(seen.evil)}`);
  assert.deepEqual(failures, []);
  // The path reaches the origin as sent (after URL parsing), on the origin's host.
  const res = await raw('forward', [`GET //${E}/steal?x=//${E} HTTP/1.1`, 'Host: gate.example', `User-Agent: ${CHROME}`]);
  assert.equal(res.status, 200);
  assert.deepEqual(seen.origin.at(-1).path, `//${E}/steal?x=//${E}`);
  assert.notEqual(seen.origin.at(-1).host, E);
  // robots.txt was only ever fetched from the origin, and still decides there.
  const blocked = await raw('forward', [`GET //${E}/../../private HTTP/1.1`, 'Host: gate.example', 'User-Agent: curl/8.5.0']);
  assert.equal(blocked.status, 403, JSON.stringify(blocked));
  assert.ok(seen.origin.some((r) => r.path === '/robots.txt'));
});

/** The product tokens of the groups the engine gives `ua` in `dialect` under ROBOTS ([] for `*`). */
function engineGroup(ua, dialect) {
  const robots = Robots.parse(ROBOTS, { dialect });
  try {
    return robots.explain('/', ua).group?.agents.filter((a) => a !== '*') ?? [];
  } finally {
    robots.free();
  }
}

// Every octet the engine's rfc9309 reading splits a header's words on that a client can send in
// a field value (src/agent.rs: a header is read as words of letters, digits, `-`, `_` and `.`):
// each printable ASCII character outside those, space, tab, and a byte above 0x7f.
const SEPARATORS = [' ', '\t', ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).filter((c) => !/[A-Za-z0-9._-]/.test(c)), '\u00e9'];

/** User-Agents that claim Googlebot to the engine in `dialect`, each with how it was written. */
function hostileAgents(dialect) {
  const out = [];
  if (dialect === 'rfc9309') {
    for (const c of SEPARATORS) out.push(`Mozilla/5.0 (compatible${c}Googlebot${c}2.1)`, `Mozilla/5.0 (compatible;${c}Googlebot${c}`);
    out.push('Mozilla/5.0 (compatible; Googlebot:2.1)', 'x/1 GOOGLEBOT', 'Googlebot', 'googlebot');
  } else if (dialect === 'google') {
    out.push('Googlebot', 'GOOGLEBOT', 'googleBot');
  } else if (dialect === 'draft1996') {
    // The robot's name is contained in a group's value: `bot`, `Google`, `oglebo` all name Googlebot.
    out.push('Mozilla/5.0 (compatible; bot/1.0)', 'Mozilla/5.0 (compatible; Google/1.0)', 'Googlebot', 'Mozilla/5.0 (compatible; Googlebo/1.0)', 'Mozilla/5.0 (compatible; Googlebot/2.1)');
  } else {
    // The group's value is contained in the agent: anything around it.
    out.push('xGooglebotx', 'Mozilla/5.0 (compatible; xxGOOGLEBOTxx/2.1)', 'MyGooglebotScraper', 'Googlebot', 'Mozilla/5.0 (compatible:Googlebot:2.1)');
  }
  return out;
}

test('hole 2: a User-Agent the engine reads as a listed crawler is that claim, in every dialect, whatever its separators', async () => {
  const failures = [];
  let asked = 0;
  for (const dialect of DIALECTS) {
    for (const ua of hostileAgents(dialect)) {
      // The test's premise, from the package itself: the engine gives this header Googlebot's group.
      if (!engineGroup(ua, dialect).includes('Googlebot')) {
        failures.push(`${dialect}: the engine does not read ${JSON.stringify(ua)} as Googlebot; not a hostile header`);
        continue;
      }
      asked++;
      const outside = await fetch(`${gates.url(dialect)}/page`, { headers: { 'user-agent': ua, 'cf-connecting-ip': OUTSIDE_IP } });
      const header = outside.headers.get('x-robots-eval') ?? '';
      if (outside.status !== 403 || !/identity=spoofed; identity-reason=address-not-in-list; token="Googlebot"$/.test(header)) {
        failures.push(`${dialect}: ${JSON.stringify(ua)} from ${OUTSIDE_IP}: ${outside.status} ${header}`);
      }
      await outside.text();
      const inside = await fetch(`${gates.url(dialect)}/__identify`, { method: 'POST', body: JSON.stringify({ url: 'https://site.example/', headers: { 'user-agent': ua, 'cf-connecting-ip': GOOGLE_IP } }) });
      const id = await inside.json();
      if (id.identity !== 'ip-verified' || id.token !== 'Googlebot') failures.push(`${dialect}: ${JSON.stringify(ua)} from ${GOOGLE_IP}: ${JSON.stringify(id)}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(asked > SEPARATORS.length * 2, `${asked} headers asked`);
  // What the engine does not read as Googlebot is no claim, and gets no more than the * group.
  for (const dialect of DIALECTS) {
    for (const ua of ['Mozilla/5.0 (compatible; Googlebotx/1.0)', 'Googlebot:2.1']) {
      if (engineGroup(ua, dialect).includes('Googlebot')) continue;
      const res = await fetch(`${gates.url(dialect)}/page`, { headers: { 'user-agent': ua, 'cf-connecting-ip': OUTSIDE_IP } });
      assert.equal(res.status, 403, `${dialect}: ${ua}`);
      assert.match(res.headers.get('x-robots-eval'), /^disallowed; /, `${dialect}: ${ua}`);
    }
  }
});

test('hole 3: an address in a list cloud customers send from verifies nobody, and never skips robots.txt', async () => {
  const FEEDFETCHER = 'FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)';
  const ask = (ua, ip) => fetch(`${gates.url('builtin')}/feed.xml`, { headers: { 'user-agent': ua, 'cf-connecting-ip': ip } });
  // A Google Cloud customer's app, sending Google's fetcher's User-Agent from Google Cloud
  // (user-triggered-fetchers.json): robots.txt applies, as to any unverified crawler.
  const gcp = await ask(FEEDFETCHER, '34.1.2.3');
  assert.equal(gcp.status, 403);
  assert.match(gcp.headers.get('x-robots-eval'), /^disallowed; line=2; .*identity=unverified; identity-reason=address-in-shared-list; /);
  // Google's own fetcher (user-triggered-fetchers-google.json) is verified, and passes as the
  // site chose (USER_TRIGGERED = "pass").
  const google = await ask(FEEDFETCHER, '66.102.1.5');
  assert.equal(google.status, 200, google.headers.get('x-robots-eval') ?? '');
  // The same User-Agent from anywhere else is spoofed.
  assert.match((await ask(FEEDFETCHER, '198.51.100.4')).headers.get('x-robots-eval'), /identity=spoofed; identity-reason=address-not-in-list; token="FeedFetcher-Google"$/);
  // Googlebot from Google's crawlers' list is verified (and held to robots.txt: not user-triggered).
  assert.match((await ask('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', '66.249.64.9')).headers.get('x-robots-eval'), /identity=ip-verified; identity-reason=address-in-list; token="Googlebot"$/);
});

test('hole 4: a captured signature is used once; no signature lives past its window; @authority alone can be refused', async () => {
  const now = Math.floor(Date.now() / 1000);
  // Every request names signedA's host (the site's name: the signature covers @authority), as
  // it would reach any isolate of the deployment; `gate` says which one answers.
  const host = new URL(gates.url('signedA')).host;
  const send = (gate, path, headers, method = 'GET') => raw(gate, [`${method} ${path} HTTP/1.1`, `Host: ${host}`, `User-Agent: ${CHROME}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), ...(method === 'GET' ? [] : ['Content-Length: 0'])]);
  const reason = async (res) => (res.status === 200 ? 'passed' : /identity-reason=([\w-]+)/.exec(res.headers['x-robots-eval'] ?? '')?.[1] ?? `${res.status}`);
  // The crawler's own request, seen by the attacker (a log, a proxy): headers copied as they are.
  const captured = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer);
  assert.equal(await reason(await send('signedA', '/page', captured)), 'passed');
  // Replayed: the same request, another isolate of the same deployment, another path and method.
  assert.equal(await reason(await send('signedA', '/page', captured)), 'replayed');
  assert.equal(await reason(await send('signedB', '/page', captured)), 'replayed');
  assert.equal(await reason(await send('signedA', '/admin', captured, 'POST')), 'replayed');
  // Without a store bound, the isolate's memory still refuses it.
  const seenHere = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer);
  assert.equal(await reason(await send('signedMemory', '/page', seenHere)), 'passed');
  assert.equal(await reason(await send('signedMemory', '/page', seenHere)), 'replayed');
  // A signature with no nonce, replayed as it was sent.
  const bare = signedHeaders(`${gates.url('signedA')}/bare`, 'https://signer.test', signer, { nonce: null });
  assert.equal(await reason(await send('signedA', '/bare', bare)), 'passed');
  assert.equal(await reason(await send('signedB', '/bare', bare)), 'replayed');
  // A signer that wrote a far `expires`: at most 24 hours (SIGNATURE_MAX_WINDOW_S) is believed.
  const forever = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer, { created: now, expires: now + 30 * 86400 });
  assert.equal(await reason(await send('signedA', '/page', forever)), 'window-too-long');
  const day = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer, { created: now, expires: now + 86400 });
  assert.equal(await reason(await send('signedA', '/page', day)), 'passed');
  const hours = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer, { created: now, expires: now + 7200, components: ['@method', '@path', '@authority', 'signature-agent'] });
  assert.equal(await reason(await send('signedStrict', '/page', hours)), 'window-too-long');
  // SIGNATURE_COVERAGE = "request": a signature over @authority alone, which verifies on any path
  // and method of the site until it expires, is refused; one over the method and path is not.
  const authorityOnly = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer);
  assert.equal(await reason(await send('signedStrict', '/page', authorityOnly)), 'request-not-covered');
  const narrow = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer, { components: ['@method', '@path', '@authority', 'signature-agent'] });
  assert.equal(await reason(await send('signedStrict', '/page', narrow)), 'passed');
  // A signature that names no creation time is no Web Bot Auth signature.
  const h = signedHeaders(`${gates.url('signedA')}/page`, 'https://signer.test', signer);
  assert.equal(await reason(await send('signedA', '/page', { ...h, 'signature-input': h['signature-input'].replace(/;created=\d+/, '') })), 'missing-parameter');
});

test('hole 5: unknown directories neither starve nor evict a configured signer; reasons are coarse', async () => {
  const t0 = Date.now();
  const at = (ms) => Math.floor((t0 + ms) / 1000);
  const identify = async (agent, ms, o = {}) => {
    const headers = { 'user-agent': CHROME, ...signedHeaders('https://site.example/page', agent, o.key ?? signer, { created: at(ms), expires: at(ms) + 300, ...o }) };
    const res = await fetch(`${gates.url('dirs')}/__identify`, { method: 'POST', body: JSON.stringify({ url: 'https://site.example/page', headers, now: t0 + ms }) });
    return res.json();
  };
  // The configured signer is verified; its directory says its keys keep a minute.
  assert.equal((await identify('https://known.test', 0)).identity, 'verified');
  // Two minutes later its keys are past their lifetime, and its directory hangs. An attacker
  // names 40 directories that never answer, at once, filling every fetch slot.
  known.state = 'hang';
  const flood = Promise.all(Array.from({ length: 40 }, (_, i) => identify(`https://flood${i}.test`, 120_000)));
  await new Promise((r) => setTimeout(r, 200));
  const during = await identify('https://known.test', 120_500);
  assert.deepEqual([during.identity, during.token, during.reason], ['verified', 'ExampleBot', 'signature-verified'], JSON.stringify(during));
  const reasons = (await flood).map((r) => r.reason);
  assert.equal(reasons.filter((r) => r === 'directory-timeout').length, 16, reasons.join());
  // One host gets at most two fetches at a time, whatever paths and queries it names.
  const one = await Promise.all(Array.from({ length: 6 }, (_, i) => identify(`https://one.test/keys/${i}.json?x=${i}`, 130_000)));
  assert.equal(one.filter((r) => r.reason === 'directory-busy').length, 4, JSON.stringify(one));
  // 1,200 directory URLs (query variants of one, and paths) do not evict the configured signer's
  // keys: with its directory down, its held keys still verify it.
  known.state = 'down';
  for (let i = 0; i < 1200; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => identify(`https://evict.test/keys.json?v=${i + j}`, 200_000)));
  }
  const after = await identify('https://known.test', 260_000);
  assert.deepEqual([after.identity, after.reason], ['verified', 'signature-verified'], JSON.stringify(after));
  // The 403 tells the client only that a directory is unavailable or refused; the details are the
  // site owner's (the data point, the log).
  const send = (agent) => fetch(`${gates.url('dirs')}/page`, { headers: { 'user-agent': CHROME, ...signedHeaders(`${gates.url('dirs')}/page`, agent, signer) } });
  assert.match((await send('https://flood0.test')).headers.get('x-robots-eval'), /identity=unverified; identity-reason=directory-unavailable; /);
  assert.match((await send('https://127.0.0.1')).headers.get('x-robots-eval'), /identity=unverified; identity-reason=directory-refused; /);
});

test('the client address: CF-Connecting-IP counts only where Cloudflare sets it; lists only over https', async () => {
  const identify = async (gate, headers) => (await fetch(`${gates.url(gate)}/__identify`, { method: 'POST', body: JSON.stringify({ url: 'https://site.example/', headers }) })).json();
  const googlebot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
  // A client of a self-hosted gate writes Google's address itself: no verification, and no
  // Googlebot group from the page either.
  assert.deepEqual(await identify('selfHosted', { ...googlebot, 'cf-connecting-ip': GOOGLE_IP }), { identity: 'unverified', token: null, signatureAgent: null, reason: 'no-client-address' });
  const page = await raw('selfHosted', ['GET /page HTTP/1.1', 'Host: gate.example', `User-Agent: ${googlebot['user-agent']}`, `CF-Connecting-IP: ${GOOGLE_IP}`]);
  assert.equal(page.status, 403, JSON.stringify(page.headers));
  // On Cloudflare (request.cf names the data centre: workerd's cf blob here), the edge's header counts.
  const onCloudflare = await raw('selfHosted', ['GET /page HTTP/1.1', 'Host: gate.example', `User-Agent: ${googlebot['user-agent']}`, `CF-Connecting-IP: ${GOOGLE_IP}`, 'cf-blob: {"colo":"AMS"}']);
  assert.equal(onCloudflare.status, 200, JSON.stringify(onCloudflare.headers));
  // A list configured over http is refused with the configuration (logged), and never fetched.
  assert.deepEqual(await identify('plainList', { ...googlebot, 'cf-connecting-ip': GOOGLE_IP }), { identity: 'unverified', token: null, signatureAgent: null, reason: 'no-claim' });
  assert.ok(!listRequests.includes('/plain.json'), listRequests.join());
  assert.match(gates.log(), /IP_LISTS: .*needs tokens \(product tokens\) and an https url; IP_LISTS ignored/);
});

test('hole 6: an origin that stalls in its head holds a crawler\'s response no longer than AI_HEAD_MAX_MS', async () => {
  const t0 = Date.now();
  const controller = new AbortController();
  const res = await fetch(`${gates.url('stall')}/page`, { headers: { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot' }, signal: controller.signal });
  const waited = Date.now() - t0;
  assert.equal(res.status, 200);
  // The held bytes come first, as they arrived.
  const reader = res.body.getReader();
  const { value } = await reader.read();
  assert.match(Buffer.from(value).toString(), /^<html><head><meta name="robots"/);
  controller.abort();
  assert.ok(waited < 3000, `the head was held ${waited} ms`);
});
