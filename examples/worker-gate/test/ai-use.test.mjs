// AI_PREFERENCES = "enforce" with every signal the resolver (Robots.aiUse) reads, in real workerd
// (test/harness.mjs) in front of real origins on 127.0.0.1: the site's /.well-known/tdmrep.json
// (fetched and cached as robots.txt is), the page's X-Robots-Tag, tdm-reservation and
// Content-Usage headers (a 403 before any of the body is sent), and its META tags, read as the
// page streams through HTMLRewriter: the head is held back until it ends, so a META refusal is
// still a 403, and a page that passes streams on whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cacheService, closeServers, dataPoints, origin, serve, startGates } from './harness.mjs';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';
const SEARCHBOT = 'Mozilla/5.0 (compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot)';
const CLAUDEBOT = 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ROBOTS = 'User-agent: *\nAllow: /\n';

// A 4 MiB HTML page whose head allows everything: it must arrive byte for byte.
const BIG = Buffer.concat([
  Buffer.from('<!doctype html><html><head><title>big</title><meta name="robots" content="index, follow"></head><body>'),
  Buffer.from('<p>x</p>'.repeat(512 * 1024)),
  Buffer.from('</body></html>'),
]);
const sha = (b) => createHash('sha256').update(b).digest('hex');

/** Counts of what each origin path was asked, and whether a streamed body was read to its end. */
const hits = {};
const count = (name) => (hits[name] = (hits[name] ?? 0) + 1);

/** An HTML page sent in 16-byte pieces (the head arrives over many chunks), with `headers`. */
const streamed = (html, headers = {}, name) => (req, res) => {
  count(name ?? html);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  let at = 0;
  const next = () => {
    if (at >= html.length) return res.end();
    res.write(html.slice(at, at + 16));
    at += 16;
    setTimeout(next, 1);
  };
  next();
};
const page = (head, body = '<p>the article</p>') => `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;

/**
 * A page whose origin sends its head and the start of its body, then waits for the test
 * (`release()`) before the rest: what the client gets meanwhile shows what the gate held back.
 */
const held = { release: null, closed: null };
const pausing = (head) => (req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.write(`<!doctype html><html><head>${head}</head><body><p>first</p>`);
  held.closed = new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
  const timer = setTimeout(() => res.end('<p>timed out</p></body></html>'), 10_000);
  held.release = () => {
    clearTimeout(timer);
    res.end('<p>rest</p></body></html>');
  };
};

const routes = {
  '/pause': pausing('<meta name="robots" content="index">'),
  '/pause-noai': pausing('<meta name="robots" content="noai">'),
  '/meta-noai': streamed(page('<meta charset="utf-8"><meta name="robots" content="noai, noimageai">'), {}, 'meta-noai'),
  '/meta-gptbot': streamed(page('<meta name="GPTBot" content="noai">')),
  '/meta-tdm': streamed(page('<meta name="tdm-reservation" content="1">')),
  '/meta-late': streamed(page('<meta name="description" content="d">', '<p>x</p><meta name="robots" content="noai">')),
  '/no-head-tags': streamed('<html><meta name="robots" content="noai"><p>text</p></html>'),
  '/plain-noai': (req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('<meta name="robots" content="noai">'); },
  '/xrt': (req, res) => { count('xrt'); res.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noai' }); res.end(page('')); },
  '/xrt-other': (req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'otherbot: noai' }); res.end(page('')); },
  '/tdm-header': (req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'tdm-reservation': '1', 'tdm-policy': 'https://example.com/policy.json' }); res.end(page('')); },
  '/big': (req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'content-length': BIG.length }); res.end(BIG); },
};

// Sites: one with no tdmrep.json (404), one reserving TDM for /reserved/, one whose file fails.
const TDMREP = JSON.stringify([{ location: '/reserved/*', 'tdm-reservation': 1, 'tdm-policy': 'https://example.com/policy.json' }, { location: '/*', 'tdm-reservation': 0 }]);
const site = (tdmrep) => origin((req, res, pathname) => {
  if (pathname !== '/.well-known/tdmrep.json') return false;
  count(`tdmrep ${tdmrep}`);
  if (typeof tdmrep === 'number') { res.writeHead(tdmrep); res.end('no'); return; }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
  res.end(tdmrep);
}, routes);
const withRobots = (handler) => (req, res) => {
  if (req.url === '/robots.txt') { res.writeHead(200, { 'content-type': 'text/plain' }); return res.end(ROBOTS); }
  return handler(req, res);
};

// A site without the file that says so for an hour: its 404 is kept in the Cache API.
const none = origin((req, res, pathname) => {
  if (pathname === '/robots.txt') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(ROBOTS); return; }
  if (pathname !== '/.well-known/tdmrep.json') return false;
  count('tdmrep none');
  res.writeHead(404, { 'cache-control': 'max-age=3600' });
  res.end();
}, routes);

const ae = dataPoints();
const shared = cacheService();
let gates;
before(async () => {
  const [plain, reserving, failing, absent] = [await serve(withRobots(site(404))), await serve(withRobots(site(TDMREP))), await serve(withRobots(site(503))), await serve(none)];
  const collector = new URL(await serve(ae.handler)).host;
  const cache = new URL(await serve(shared.handler)).host;
  const enforce = { AI_PREFERENCES: 'enforce' };
  gates = await startGates({
    plain: { vars: { ORIGIN: plain, ...enforce }, analytics: 'ae' },
    reserving: { vars: { ORIGIN: reserving, ...enforce } },
    failing: { vars: { ORIGIN: failing, ...enforce, ROBOTS_FAILURE_TTL_MS: '60000' } },
    report: { vars: { ORIGIN: plain, ...enforce, MODE: 'report-only' }, analytics: 'ae' },
    off: { vars: { ORIGIN: plain } },
    small: { vars: { ORIGIN: plain, ...enforce, AI_HEAD_MAX_BYTES: '40' } },
    // A crawler the package's table does not know: its purposes come from AI_CRAWLERS.
    acme: { vars: { ORIGIN: plain, ...enforce, AI_CRAWLERS: [{ token: 'AcmeAI-Reader', purposes: ['train-ai'], source: 'https://acme.example/bot' }] } },
    sharingA: { vars: { ORIGIN: absent, ...enforce }, cache: 'cache' },
    sharingB: { vars: { ORIGIN: absent, ...enforce }, cache: 'cache' },
  }, { ae: collector, cache });
});

after(() => {
  gates?.stop();
  closeServers();
});

const get = (gate, path, ua) => fetch(`${gates.url(gate)}${path}`, { headers: { 'user-agent': ua } });
/** The status, the decision header and the body of a request. */
async function ask(gate, path, ua) {
  const res = await get(gate, path, ua);
  return { status: res.status, header: res.headers.get('x-robots-eval'), body: await res.text() };
}

test("META tags refuse as the page streams: the head is held back, so it is a 403 naming the tag", async () => {
  const noai = await ask('plain', '/meta-noai', GPTBOT);
  assert.equal(noai.status, 403, noai.header);
  // `meta 1`: the first named META tag (the charset tag has no name).
  assert.match(noai.header, /^refused; purpose=train-ai; at=head; signals="robots-meta \(meta 1\) noai"; crawler="GPTBot";/);
  assert.doesNotMatch(noai.body, /the article/);
  // noai denies training only: a search crawler gets the whole page.
  const search = await ask('plain', '/meta-noai', SEARCHBOT);
  assert.equal(search.status, 200, search.header);
  assert.equal(search.body, page('<meta charset="utf-8"><meta name="robots" content="noai, noimageai">'));
  // A META tag naming the crawler, and TDMRep's META tag.
  assert.equal((await ask('plain', '/meta-gptbot', GPTBOT)).status, 403);
  assert.equal((await ask('plain', '/meta-gptbot', CLAUDEBOT)).status, 200);
  const tdm = await ask('plain', '/meta-tdm', CLAUDEBOT);
  assert.equal(tdm.status, 403, tdm.header);
  assert.match(tdm.header, /at=head; signals="tdmrep \(meta 1\)/);
  // A crawler only AI_CRAWLERS knows, held to the purposes its row declares.
  const acme = await ask('acme', '/meta-noai', 'AcmeAI-Reader/1.0');
  assert.equal(acme.status, 403, acme.header);
  assert.match(acme.header, /^refused; purpose=train-ai; at=head; signals="robots-meta \(meta 1\) noai"; crawler="AcmeAI-Reader";/);
  assert.match(acme.body, /https:\/\/acme\.example\/bot/);
  // <html> with no <head>: the head ends at the first element that cannot be in one.
  assert.equal((await ask('plain', '/no-head-tags', GPTBOT)).status, 403);
});

test('only the head is held back: the page streams before its origin has finished; a refusal does not wait for the body', async () => {
  const res = await get('plain', '/pause', GPTBOT);
  assert.equal(res.status, 200);
  const reader = res.body.getReader();
  let got = '';
  while (!got.includes('<body>')) got += new TextDecoder().decode((await reader.read()).value);
  // The head arrived while the origin still holds the rest of its body.
  held.release();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    got += new TextDecoder().decode(value);
  }
  assert.equal(got, '<!doctype html><html><head><meta name="robots" content="index"></head><body><p>first</p><p>rest</p></body></html>');
  // A refusal is answered while the origin is still sending, and its body is cancelled.
  const refused = await ask('plain', '/pause-noai', GPTBOT);
  assert.equal(refused.status, 403);
  assert.match(refused.header, /at=head; signals="robots-meta \(meta 1\) noai"/);
  assert.equal(await held.closed, false); // the origin's response closed before it was finished
});

test('only the head is read: a META tag in the body, or in a text/plain body, decides nothing', async () => {
  const late = await ask('plain', '/meta-late', GPTBOT);
  assert.equal(late.status, 200, late.header);
  assert.match(late.body, /<\/body><\/html>$/);
  assert.equal((await ask('plain', '/plain-noai', GPTBOT)).status, 200);
  // AI_HEAD_MAX_BYTES: a head longer than the limit is read up to it (the chunk that passes it).
  assert.equal((await ask('small', '/meta-late', GPTBOT)).status, 200);
});

test("the page's headers refuse before its body is read: X-Robots-Tag, tdm-reservation, for the crawlers they address", async () => {
  const xrt = await ask('plain', '/xrt', GPTBOT);
  assert.equal(xrt.status, 403);
  assert.match(xrt.header, /^refused; purpose=train-ai; at=headers; signals="x-robots-tag \(X-Robots-Tag\) noai"; crawler="GPTBot";/);
  assert.equal((await ask('plain', '/xrt-other', GPTBOT)).status, 200); // addressed to another crawler
  const tdm = await ask('plain', '/tdm-header', CLAUDEBOT);
  assert.equal(tdm.status, 403);
  assert.match(tdm.header, /at=headers; signals="tdmrep \(tdm-reservation\) tdm-reservation: 1 tdm-policy: https:\/\/example\.com\/policy\.json"/);
  assert.equal((await ask('plain', '/tdm-header', SEARCHBOT)).status, 200); // TDMRep says nothing about search
});

test('/.well-known/tdmrep.json: fetched once and cached, refuses before the origin is asked; a failure is no file, kept briefly', async () => {
  const before = hits.xrt ?? 0;
  const reserved = await ask('reserving', '/reserved/xrt', GPTBOT);
  assert.equal(reserved.status, 403, reserved.header);
  assert.match(reserved.header, /^refused; purpose=train-ai; at=before-origin; signals="tdmrep \(\/\.well-known\/tdmrep\.json rule 0\)/);
  assert.match(reserved.body, /tdmrep/);
  assert.equal((await ask('reserving', '/open', GPTBOT)).status, 200); // rule 1: tdm-reservation 0
  assert.equal((await ask('reserving', '/reserved/x', SEARCHBOT)).status, 200);
  assert.equal((await ask('reserving', '/reserved/x', BROWSER)).status, 200);
  assert.equal(hits[`tdmrep ${TDMREP}`], 1);
  assert.equal(hits.xrt ?? 0, before); // the refused request never reached the origin
  // The file itself passes to every client.
  assert.equal((await get('reserving', '/.well-known/tdmrep.json', GPTBOT)).status, 200);
  // 503: no file; fetched once within ROBOTS_FAILURE_TTL_MS.
  assert.equal((await ask('failing', '/page', GPTBOT)).status, 200);
  assert.equal((await ask('failing', '/page', GPTBOT)).status, 200);
  assert.equal(hits['tdmrep 503'], 1);
  // Two Workers (isolates) sharing the Cache API: a 404 with a lifetime is fetched once for both.
  assert.equal((await ask('sharingA', '/page', GPTBOT)).status, 200);
  for (let i = 0; i < 50 && shared.puts === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal((await ask('sharingB', '/page', GPTBOT)).status, 200);
  assert.equal(hits['tdmrep none'], 1);
  assert.ok(shared.hits >= 1);
});

test('a page that passes streams whole; browsers, and gates without enforce, are not read at all', async () => {
  for (const [gate, ua] of [['plain', GPTBOT], ['plain', BROWSER], ['off', GPTBOT]]) {
    const res = await get(gate, '/big', ua);
    assert.equal(res.status, 200);
    assert.equal(sha(Buffer.from(await res.arrayBuffer())), sha(BIG), `${gate} ${ua}`);
  }
  assert.equal((await ask('off', '/meta-noai', GPTBOT)).status, 200);
  assert.equal((await ask('plain', '/meta-noai', BROWSER)).status, 200);
});

test('report-only: a META refusal is recorded (the signal, where, the moment) and the page passes whole', async () => {
  const res = await ask('report', '/meta-noai', GPTBOT);
  assert.equal(res.status, 200);
  assert.match(res.body, /the article/);
  const [point] = await ae.where((p) => p.blobs[1] === 'report-only' && p.index === 'GPTBot' && p.blobs[0] === 'refused');
  assert.equal(point.blobs[6], 'robots-meta (meta 1) noai');
  assert.equal(point.blobs[15], 'robots-meta (meta 1) noai');
  assert.equal(point.blobs[16], 'tdmrep=absent; head=head; refused-at=head');
  assert.match(gates.log(), /worker-gate report-only: \{"verdict":"refused"[^\n]*"aiInputs":"tdmrep=absent; head=head; refused-at=head"/);
});
