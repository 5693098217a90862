// The gate in real workerd (test/harness.mjs), in front of real origin servers on 127.0.0.1, one
// per robots.txt scenario: byte-identical passthrough, the deciding line, and robots.txt that
// fails in every way (status codes, timeouts, redirect chains, oversize, outages), per dialect,
// with its caching in isolate memory and in the Cache API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cacheService, closeServers, origin, serve, startGates } from './harness.mjs';

const ROBOTS = 'User-agent: BadBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /nocrawl\n';
const BIG = Buffer.alloc(10 * 1024 * 1024);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 2654435761) >>> 24;
const sha = (b) => createHash('sha256').update(b).digest('hex');

/** Asserts that `res` is the gate's 403 with this X-Robots-Eval header (a string, or a RegExp it matches). */
function assertBlocked(res, header, message) {
  assert.equal(res.status, 403, message);
  const got = res.headers.get('x-robots-eval');
  if (header instanceof RegExp) assert.match(got, header, message);
  else assert.equal(got, header, message);
}

/** Asserts that the gate passed the request to the origin, which answered. */
function assertPassed(res, message) {
  assert.equal(res.status, 200, message);
  assert.equal(res.headers.get('x-origin'), 'yes', message);
}

// robots.txt behind `hops` redirects: /robots.txt -> /hop/1 -> ... -> /hop/<hops> (the file).
function redirecting(hops) {
  return (req, res, pathname) => {
    const at = pathname === '/robots.txt' ? 0 : pathname.startsWith('/hop/') ? Number(pathname.slice(5)) : -1;
    if (at < 0) return false;
    if (at < hops) { res.writeHead(301, { location: `/hop/${at + 1}` }); res.end(); return true; }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(ROBOTS);
    return true;
  };
}

// Counts robots.txt requests; serves `state.text` with `state.cacheControl`.
function counting(state) {
  return (req, res, pathname) => {
    if (pathname !== '/robots.txt') return false;
    state.hits++;
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': state.cacheControl });
    res.end(state.text);
    return true;
  };
}

// robots.txt over 500 KiB: a rule in the first part, padding, a rule past the limit.
const OVERSIZED = `User-agent: *\nDisallow: /early\n${'# padding padding padding padding padding padding padding\n'.repeat(10000)}Disallow: /late\n`;

// A stand-in for Cloudflare's cache behind caches.default (test/harness.mjs).
const sharedCache = cacheService();

const ttlState = { hits: 0, text: 'User-agent: *\nDisallow: /old\n', cacheControl: 'max-age=2' };
// robots.txt answers 503 (with `retryAfter` unless null, and a day of max-age that must not count)
// while `down`, then 200 with `text`.
function outage(state) {
  return (req, res, pathname) => {
    if (pathname !== '/robots.txt') return false;
    state.hits++;
    if (state.down) {
      res.writeHead(503, { 'cache-control': 'max-age=86400', ...(state.retryAfter === null ? {} : { 'retry-after': state.retryAfter }) });
      res.end('down');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(state.text);
    }
    return true;
  };
}
const outageRa = { hits: 0, down: true, retryAfter: '1', text: 'User-agent: *\nDisallow: /private\n' };
const outageTtl = { hits: 0, down: true, retryAfter: null, text: 'User-agent: *\nDisallow: /private\n' };
const sharedState = { hits: 0, text: 'User-agent: *\nDisallow: /shared\n', cacheControl: 'max-age=60' };

let gates; // the running workerd

before(async () => {
  const origins = {};
  const scenarios = {
    main: ROBOTS, long: `User-agent: *\nDisallow: /long${'x'.repeat(10000)}\n`, e500: 500, e404: 404, e403: 403, e401: 401, e429: 429,
    hang: (req, res, pathname) => (pathname === '/robots.txt' ? true : false), // never answers robots.txt
    chain5: redirecting(5), chain6: redirecting(6),
    big: (req, res, pathname) => {
      if (pathname !== '/robots.txt') return false;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(OVERSIZED);
      return true;
    },
    ttl: counting(ttlState), shared: counting(sharedState),
    outageRa: outage(outageRa), outageTtl: outage(outageTtl),
  };
  const big = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG.length });
    res.end(BIG);
  };
  for (const [name, robots] of Object.entries(scenarios)) origins[name] = await serve(origin(robots, { '/big': big }));
  const vars = {
    enforce: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.main },
    report: { MODE: 'report-only', DIALECT: 'rfc9309', ORIGIN: origins.main },
    long: { DIALECT: 'rfc9309', ORIGIN: origins.long },
    exempt: { DIALECT: 'rfc9309', ORIGIN: origins.main, NOT_CRAWLERS: 'curl/, BadBot' },
    e500: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e500 },
    e404: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e404 },
    e403rfc: { MODE: 'enforce', DIALECT: 'rfc9309', ORIGIN: origins.e403 },
    e403draft: { MODE: 'enforce', DIALECT: 'draft1996', ORIGIN: origins.e403 },
    e401rfc: { DIALECT: 'rfc9309', ORIGIN: origins.e401 },
    e401draft: { DIALECT: 'draft1996', ORIGIN: origins.e401 },
    e429rfc: { DIALECT: 'rfc9309', ORIGIN: origins.e429 },
    e429google: { DIALECT: 'google', ORIGIN: origins.e429 },
    e429draft: { DIALECT: 'draft1996', ORIGIN: origins.e429 },
    hangrfc: { DIALECT: 'rfc9309', ORIGIN: origins.hang, ROBOTS_TIMEOUT_MS: '300' },
    hangdraft: { DIALECT: 'draft1996', ORIGIN: origins.hang, ROBOTS_TIMEOUT_MS: '300' },
    chain5rfc: { DIALECT: 'rfc9309', ORIGIN: origins.chain5 },
    chain6rfc: { DIALECT: 'rfc9309', ORIGIN: origins.chain6 },
    chain6draft: { DIALECT: 'draft1996', ORIGIN: origins.chain6 },
    big: { DIALECT: 'rfc9309', ORIGIN: origins.big },
    ttl: { DIALECT: 'rfc9309', ORIGIN: origins.ttl },
    sharedA: { DIALECT: 'rfc9309', ORIGIN: origins.shared },
    sharedB: { DIALECT: 'rfc9309', ORIGIN: origins.shared },
    outageRa: { DIALECT: 'rfc9309', ORIGIN: origins.outageRa },
    outageTtl: { DIALECT: 'rfc9309', ORIGIN: origins.outageTtl, ROBOTS_FAILURE_TTL_MS: '1200' },
  };
  const withCache = new Set(['ttl', 'sharedA', 'sharedB']);
  const cache = new URL(await serve(sharedCache.handler)).host;
  gates = await startGates(
    Object.fromEntries(Object.entries(vars).map(([n, v]) => [n, {
      vars: { CRAWLERS: 'ListedBot, OtherBot', MODE: 'enforce', ...v },
      cache: withCache.has(n) ? 'cache' : undefined,
    }])),
    { cache },
  );
});

after(() => {
  gates?.stop();
  closeServers();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const get = (gate, path, ua) => fetch(`${gates.url(gate)}${path}`, { headers: { 'user-agent': ua } });
// The end of the X-Robots-Eval header: who the gate took for a crawler, and why.
// ...and the identity: no signature, and no claim an address list can check.
const unverified = (token) => `; identity=unverified; identity-reason=no-claim; token="${token}"`;
const listed = `; crawler="ListedBot"; by=CRAWLERS${unverified('ListedBot')}`;
const badBot = `; crawler="BadBot"; by=isbot${unverified('BadBot')}`;

test('an allowed crawler and a browser get a 10 MB body byte-identical', async () => {
  for (const ua of ['BadBot/1.0', BROWSER, 'ListedBot/2']) {
    const res = await get('enforce', '/big', ua);
    assert.equal(res.status, 200, gates.log());
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, BIG.length);
    assert.equal(sha(body), sha(BIG));
  }
});

test('a crawler named by robots.txt gets a 403 with the deciding line', async () => {
  const res = await get('enforce', '/private/x', 'Mozilla/5.0 (compatible; BadBot/1.0; +https://bad.example)');
  assertBlocked(res, `disallowed; line=2; rule="Disallow: /private"${badBot}`);
  assert.match(await res.text(), /line 2/);
});

test('a crawler from the CRAWLERS list, and one isbot knows, obey the * group', async () => {
  const res = await get('enforce', '/nocrawl/a', 'ListedBot/2');
  assertBlocked(res, `disallowed; line=5; rule="Disallow: /nocrawl"${listed}`);
  const curl = await get('enforce', '/nocrawl/a', 'curl/8.0');
  assertBlocked(curl, `disallowed; line=5; rule="Disallow: /nocrawl"; crawler="curl"; by=isbot${unverified('curl')}`);
  const allowed = await get('enforce', '/public', 'BadBot');
  assert.equal(allowed.status, 200);
  assert.equal(await allowed.text(), 'origin GET /public ua=BadBot');
});

test('NOT_CRAWLERS exempts a client, even one robots.txt names', async () => {
  for (const [path, ua] of [['/nocrawl/a', 'curl/8.0'], ['/private/x', 'BadBot/1.0']]) {
    const res = await get('exempt', path, ua);
    assertPassed(res, ua);
  }
  // Others still obey.
  assert.equal((await get('exempt', '/nocrawl/a', 'ListedBot')).status, 403);
});

test('browsers are never blocked, and /robots.txt always passes', async () => {
  assert.equal((await get('enforce', '/private/x', BROWSER)).status, 200);
  const res = await get('enforce', '/robots.txt', 'BadBot');
  assert.equal(res.status, 200);
  assert.equal(await res.text(), ROBOTS);
});

test('a 10 KB rule is cut in the header', async () => {
  const res = await get('long', `/long${'x'.repeat(10000)}/page`, 'ListedBot');
  assertBlocked(res, `disallowed; line=2; rule="Disallow: /long${'x'.repeat(256 - 3 - 15)}..."${listed}`);
});

test('report-only passes what enforce blocks', async () => {
  const res = await get('report', '/private/x', 'BadBot');
  assertPassed(res);
});

test('robots.txt 404/500/403 are handled per dialect', async () => {
  // 404: allow all.
  assert.equal((await get('e404', '/page', 'ListedBot')).status, 200);
  // 500 under rfc9309: complete disallow.
  const e500 = await get('e500', '/page', 'ListedBot');
  assertBlocked(e500, /^disallowed; robots-txt=500; policy=disallow-all/);
  // 403: rfc9309 allows all, the 1996 draft disallows all.
  assert.equal((await get('e403rfc', '/page', 'ListedBot')).status, 200);
  const draft = await get('e403draft', '/page', 'ListedBot');
  assertBlocked(draft, /robots-txt=403; policy=disallow-all/);
  // Browsers pass even then.
  assert.equal((await get('e500', '/page', BROWSER)).status, 200);
});

test('robots.txt 401 and 429 are handled per dialect', async () => {
  // 401: rfc9309 allows all (a 4xx), the 1996 draft disallows all.
  assert.equal((await get('e401rfc', '/page', 'ListedBot')).status, 200);
  const draft401 = await get('e401draft', '/page', 'ListedBot');
  assertBlocked(draft401, `disallowed; robots-txt=401; policy=disallow-all; reason=forbidden${listed}`);
  // 429: rfc9309 allows all (a 4xx); Google treats it as a server error; the draft defers.
  assert.equal((await get('e429rfc', '/page', 'ListedBot')).status, 200);
  const google = await get('e429google', '/page', 'ListedBot');
  assertBlocked(google, `disallowed; robots-txt=429; policy=disallow-all; reason=server-error${listed}`);
  const draft429 = await get('e429draft', '/page', 'ListedBot');
  assertBlocked(draft429, `disallowed; robots-txt=429; policy=defer; reason=temporary-failure${listed}`);
});

test('a robots.txt that never answers times out and is handled per dialect', async () => {
  const [rfc, draft] = await Promise.all([get('hangrfc', '/page', 'ListedBot'), get('hangdraft', '/page', 'ListedBot')]);
  assertBlocked(rfc, `disallowed; robots-txt=unreachable; policy=disallow-all; reason=unreachable${listed}`);
  assert.match(await rfc.text(), /no response/);
  assertBlocked(draft, `disallowed; robots-txt=unreachable; policy=defer; reason=temporary-failure${listed}`);
  // Browsers still pass, at once (the gate does not wait for robots.txt for them).
  assert.equal((await get('hangrfc', '/page', BROWSER)).status, 200);
});

test('redirect chains: followed up to the dialect\'s limit, allow-all beyond it', async () => {
  // rfc9309 follows 5 redirects: the rules apply.
  const five = await get('chain5rfc', '/private/x', 'BadBot');
  assertBlocked(five, `disallowed; line=2; rule="Disallow: /private"${badBot}`);
  // A sixth is too many: robots.txt is unavailable, everything is allowed.
  const six = await get('chain6rfc', '/private/x', 'BadBot');
  assertPassed(six);
  // The 1996 draft follows up to 20.
  assert.equal((await get('chain6draft', '/private/x', 'BadBot')).status, 403);
});

test('an oversized robots.txt: the first 500 KiB are enforced, the rest is ignored', async () => {
  const early = await get('big', '/early/x', 'ListedBot');
  assertBlocked(early, `disallowed; line=2; rule="Disallow: /early"${listed}`);
  assert.equal((await get('big', '/late/x', 'ListedBot')).status, 200);
});

test('Cache-Control max-age is honoured: the copy is reused while fresh, refetched after', async () => {
  const start = ttlState.hits;
  assert.equal((await get('ttl', '/old/a', 'ListedBot')).status, 403);
  assert.equal(ttlState.hits, start + 1);
  ttlState.text = 'User-agent: *\nDisallow: /new\n';
  // Within max-age=2 (room for a slow machine): the cached copy answers, the origin is not asked again.
  for (let i = 0; i < 5; i++) assert.equal((await get('ttl', '/old/a', 'ListedBot')).status, 403);
  assert.equal((await get('ttl', '/new/a', 'ListedBot')).status, 200);
  assert.equal(ttlState.hits, start + 1);
  await new Promise((r) => setTimeout(r, 2300));
  // Past max-age (in isolate memory and in the Cache API): the new rules apply.
  assert.equal((await get('ttl', '/new/a', 'ListedBot')).status, 403);
  assert.equal((await get('ttl', '/old/a', 'ListedBot')).status, 200);
  assert.equal(ttlState.hits, start + 2);
});

test('the Cache API (caches.default) shares robots.txt between isolates', async () => {
  const puts = sharedCache.puts;
  assert.equal((await get('sharedA', '/shared/a', 'ListedBot')).status, 403);
  assert.equal(sharedState.hits, 1);
  // Another Worker (another isolate, the same cache) gets it from the cache, not from the origin.
  for (let i = 0; i < 20 && sharedCache.puts === puts; i++) await new Promise((r) => setTimeout(r, 25)); // the put runs in waitUntil
  assert.equal(sharedCache.puts, puts + 1);
  const hits = sharedCache.hits;
  assert.equal((await get('sharedB', '/shared/a', 'ListedBot')).status, 403);
  assert.equal((await get('sharedB', '/other', 'ListedBot')).status, 200);
  assert.equal(sharedState.hits, 1);
  assert.equal(sharedCache.hits, hits + 1);
});

test('a 503 blocks until its Retry-After (or ROBOTS_FAILURE_TTL_MS), not for its max-age', async () => {
  for (const [gate, state] of [['outageRa', outageRa], ['outageTtl', outageTtl]]) {
    const down = await get(gate, '/page', 'ListedBot');
    assertBlocked(down, /^disallowed; robots-txt=503; policy=disallow-all; reason=unreachable/, gate);
    assert.equal((await get(gate, '/page', 'ListedBot')).status, 403, gate);
    assert.equal(state.hits, 1, `${gate}: the failure is kept while it lasts`);
    state.down = false;
  }
  await new Promise((r) => setTimeout(r, 1400));
  for (const [gate, state] of [['outageRa', outageRa], ['outageTtl', outageTtl]]) {
    // Refetched: the site's real rules apply again.
    assert.equal((await get(gate, '/page', 'ListedBot')).status, 200, gate);
    assert.equal((await get(gate, '/private/x', 'ListedBot')).status, 403, gate);
    assert.equal(state.hits, 2, gate);
  }
});
