// AI usage preferences at the edge, in real workerd (test/harness.mjs): the Content-Usage header
// on crawler responses that pass (robots.txt's statement for the URL and crawler, combined with
// the origin's header per VOCAB §5.1), and AI_PREFERENCES = "enforce" (the package's resolver,
// Robots.aiUse) for every row of the AI crawler table (src/ai-crawlers.js) against Content-Usage
// rules, Cloudflare's Content-Signal and the origin's own header. test/ai-use.test.mjs has the
// other signals (tdmrep.json, X-Robots-Tag, tdm-reservation, META tags as the page streams).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AI_CRAWLERS } from '../src/ai-crawlers.js';
import { closeServers, dataPoints, origin, serve, startGates } from './harness.mjs';

// Line 2: a statement for the whole site; line 3: a longer path that allows training.
const USAGE = 'User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /open/ train-ai=y\nDisallow: /private\n';
// Cloudflare's managed robots.txt.
const SIGNAL = 'User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n';
const AI_USE = 'User-agent: *\nContent-Usage: ai-use=n\n';

const BIG = Buffer.alloc(4 * 1024 * 1024);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 2654435761) >>> 24;
const sha = (b) => createHash('sha256').update(b).digest('hex');
/** An origin page that sends its own Content-Usage header. */
const sending = (value) => (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-usage': value, 'x-origin': 'yes' });
  res.end('with a header');
};
const routes = {
  '/big': (req, res) => { res.writeHead(200, { 'content-length': BIG.length }); res.end(BIG); },
  '/hdr/x': sending('search=n'),
  '/open/hdr': sending('train-ai=n'),
  '/open/odd': sending('train-ai=y, x-future=7'),
};

const ae = dataPoints();

let gates;
before(async () => {
  const [usage, signal, aiUse] = [await serve(origin(USAGE, routes)), await serve(origin(SIGNAL, routes)), await serve(origin(AI_USE, routes))];
  const collector = new URL(await serve(ae.handler)).host;
  const enforce = { AI_PREFERENCES: 'enforce' };
  gates = await startGates({
    headers: { vars: { ORIGIN: usage } },
    usage: { vars: { ORIGIN: usage, ...enforce }, analytics: 'ae' },
    signal: { vars: { ORIGIN: signal, ...enforce } },
    aiUse: { vars: { ORIGIN: aiUse, ...enforce } },
    report: { vars: { ORIGIN: usage, ...enforce, MODE: 'report-only' }, analytics: 'ae' },
    custom: { vars: { ORIGIN: usage, ...enforce, AI_CRAWLERS: [{ token: 'GPTBot', purposes: ['search'], source: 'https://example.com/our-agreement' }] } },
  }, { ae: collector });
});

after(() => {
  gates?.stop();
  closeServers();
});

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const uaOf = (row) => `Mozilla/5.0 (compatible; ${row.token}/1.0; +${row.source})`;
const GPTBOT = uaOf(AI_CRAWLERS.find((r) => r.token === 'GPTBot'));
const get = (gate, path, ua) => fetch(`${gates.url(gate)}${path}`, { headers: { 'user-agent': ua } });

test("a crawler's response carries robots.txt's Content-Usage, combined with the origin's", async () => {
  const cases = [
    ['/page', GOOGLEBOT, 'train-ai=n, search=y'],
    ['/open/x', GOOGLEBOT, 'train-ai=y'], // the longest rule applies whole [I-3]
    ['/hdr/x', GOOGLEBOT, 'search=n, train-ai=n'], // the origin's search=n beats robots.txt's search=y; train-ai=n is added
    ['/open/hdr', GOOGLEBOT, 'train-ai=n'], // and its train-ai=n beats train-ai=y
    ['/open/odd', GOOGLEBOT, 'train-ai=y, x-future=7'], // says the same: the origin's header is kept as sent
    ['/page', GPTBOT, 'train-ai=n, search=y'], // without AI_PREFERENCES nothing is refused
    ['/page', BROWSER, null], // people's responses are untouched
    ['/hdr/x', BROWSER, 'search=n'],
  ];
  for (const [path, ua, want] of cases) {
    const res = await get('headers', path, ua);
    assert.equal(res.status, 200, `${path} ${ua}`);
    assert.equal(res.headers.get('content-usage'), want, `${path} ${ua}`);
    await res.arrayBuffer();
  }
  const big = await get('headers', '/big', GOOGLEBOT);
  assert.equal(big.headers.get('content-usage'), 'train-ai=n, search=y');
  assert.equal(sha(Buffer.from(await big.arrayBuffer())), sha(BIG));
});

test('AI_PREFERENCES=enforce refuses each row of the AI crawler table whose every purpose the site denies', async () => {
  // [gate, path, the purposes denied there, the deciding signal and where (the header's signals="...")]
  const sites = [
    ['usage', '/page', ['train-ai'], 'content-usage (line 2)'],
    ['signal', '/page', ['train-ai'], 'content-signal (line 2)'],
    ['aiUse', '/page', ['ai-use'], 'content-usage (line 2)'],
    ['usage', '/open/x', [], null],
  ];
  const failures = [];
  for (const row of AI_CRAWLERS) {
    for (const [gate, path, denied, signal] of sites) {
      const res = await get(gate, path, uaOf(row));
      const header = res.headers.get('x-robots-eval');
      await res.arrayBuffer();
      const label = `${row.token} (${row.purposes}) on ${gate}${path}`;
      // Refused only when every purpose the crawler's operator declares is denied: a crawler
      // that also serves a purpose the site allows or leaves open may fetch (the Content-Usage
      // header it gets says the rest).
      if (row.purposes.every((p) => denied.includes(p))) {
        const want = `refused; purpose=${row.purposes.join(',')}; at=before-origin; signals="${signal}`;
        if (res.status !== 403 || !header?.startsWith(want) || !header.includes(`; line=2; crawler="${row.token}"`)) failures.push(`${label}: ${res.status} ${header}, want 403 ${want}`);
      } else if (res.status !== 200) {
        failures.push(`${label}: ${res.status} ${header}, want 200`);
      }
    }
  }
  assert.deepEqual(failures, []);
  // Googlebot serves search and AI use: the site allows search, so it passes; robots.txt's
  // Allow/Disallow still apply.
  assert.equal((await get('usage', '/page', GOOGLEBOT)).status, 200);
  assert.equal((await get('usage', '/private/x', GOOGLEBOT)).status, 403);
});

test("the origin's own Content-Usage refuses too, and the 403 names it", async () => {
  const res = await get('usage', '/open/hdr', GPTBOT);
  assert.equal(res.status, 403);
  const header = res.headers.get('x-robots-eval');
  assert.match(header, /^refused; purpose=train-ai; at=headers; signals="[^"]*content-usage-header \(Content-Usage\) train-ai=n[^"]*"; (line=\d+; )?crawler="GPTBot"; by=isbot; identity=unverified; identity-reason=no-client-address; token="\*"$/);
  assert.match(await res.text(), /content-usage-header \(Content-Usage\) train-ai=n/);
});

test('AI_CRAWLERS overrides a purpose; report-only logs the refusal and passes', async () => {
  assert.equal((await get('custom', '/page', GPTBOT)).status, 200);
  const res = await get('report', '/page', GPTBOT);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-usage'), 'train-ai=n, search=y');
  const [point] = await ae.where((p) => p.blobs[1] === 'report-only' && p.index === 'GPTBot');
  assert.deepEqual(point.blobs.slice(0, 6), ['refused', 'report-only', 'GPTBot', 'isbot', '', '/page']);
  assert.match(point.blobs[6], /^content-usage \(line 2\)/);
  assert.deepEqual(point.blobs.slice(7, 11), ['*', GPTBOT, 'train-ai', 'train-ai=n, search=y']);
  assert.match(point.blobs[15], /content-usage \(line 2\)/); // aiSignals: every deciding entry
  // aiInputs: this origin answers 200 to every path, so its tdmrep.json is there (and not JSON,
  // which the resolver's trace says; it decides nothing).
  assert.equal(point.blobs[16], 'tdmrep=present; refused-at=before-origin');
  assert.equal(point.doubles[0], 2);
  assert.match(gates.log(), /worker-gate report-only: \{"verdict":"refused"/);
});
