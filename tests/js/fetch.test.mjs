// fetchRobots against a real HTTP server on 127.0.0.1 (a free port, started here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { fetchRobots, Robots } from 'robots-eval';
import { closedPort } from './loopback.mjs';

const BODY = 'User-agent: *\nDisallow: /private\n';
let server;
let base;
const hosts = new Map(); // scenario -> handler

before(async () => {
  server = createServer((req, res) => {
    const handler = hosts.get(scenarioFromUa(req));
    if (!handler) { res.writeHead(599); res.end(); return; }
    handler(req, res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => { server.closeAllConnections?.(); server.close(); });

// robots.txt is always at /robots.txt, so the scenario travels in the User-Agent: "Test/<scenario>".
function scenarioFromUa(req) {
  return (req.headers['user-agent'] ?? '').replace(/^Test\//, '');
}
function on(name, handler) {
  hosts.set(name, handler);
  return { userAgent: `Test/${name}` };
}

test('200: parses the body and computes freshness from Cache-Control', async () => {
  let seenRedirect;
  const opts = on('ok', (req, res) => {
    seenRedirect = req.url;
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
    res.end(BODY);
  });
  const before = Date.now();
  const robots = await fetchRobots(`${base}/some/page?q=1`, opts);
  assert.equal(seenRedirect, '/robots.txt');
  assert.equal(robots.isAllowed('/private/x', 'bot'), false);
  assert.equal(robots.isAllowed('/public', 'bot'), true);
  const s = robots.source;
  assert.equal(s.url, `${base}/robots.txt`);
  assert.equal(s.finalUrl, `${base}/robots.txt`);
  assert.equal(s.status, 200);
  assert.equal(s.policy, 'parse');
  assert.ok(s.fetchedAt >= before);
  assert.ok(Math.abs(s.freshUntil - s.fetchedAt - 60000) < 2000, `freshUntil ${s.freshUntil - s.fetchedAt}`);
  assert.equal(Robots.parse('').source, null);
});

test('404: allow all', async () => {
  const robots = await fetchRobots(base, on('nf', (req, res) => { res.writeHead(404); res.end('nope'); }));
  assert.equal(robots.source.status, 404);
  assert.equal(robots.source.policy, 'allow-all');
  assert.equal(robots.isAllowed('/anything', 'bot'), true);
});

for (const status of [401, 403]) {
  test(`${status}: rfc9309 allows all, draft1996 disallows all`, async () => {
    const opts = on(`auth${status}`, (req, res) => { res.writeHead(status); res.end(); });
    const rfc = await fetchRobots(base, opts);
    assert.equal(rfc.source.policy, 'allow-all');
    assert.equal(rfc.isAllowed('/x', 'bot'), true);
    const draft = await fetchRobots(base, { ...opts, dialect: 'draft1996' });
    assert.equal(draft.source.policy, 'disallow-all');
    assert.equal(draft.isAllowed('/x', 'bot'), false);
    assert.equal(draft.dialect, 'draft1996');
  });
}

test('429: rfc9309 allows all, google disallows, draft1996 defers (treated as disallow-all)', async () => {
  const opts = on('busy', (req, res) => { res.writeHead(429, { 'retry-after': '120' }); res.end(); });
  const rfc = await fetchRobots(base, opts);
  assert.equal(rfc.source.policy, 'allow-all');
  const google = await fetchRobots(base, { ...opts, dialect: 'google' });
  assert.equal(google.source.policy, 'disallow-all');
  assert.equal(google.isAllowed('/x', 'bot'), false);
  const draft = await fetchRobots(base, { ...opts, dialect: 'draft1996' });
  assert.equal(draft.source.policy, 'defer');
  assert.equal(draft.source.treatedAs, 'disallow-all');
  assert.match(draft.source.message, /disallow-all/);
  assert.equal(draft.isAllowed('/x', 'bot'), false);
  // rfc9309's allow-all is a usable answer (the default 24 h); the failures end at Retry-After.
  assert.equal(rfc.source.freshUntil - rfc.source.fetchedAt, 24 * 3600_000);
  assert.equal(google.source.freshUntil - google.source.fetchedAt, 120_000);
  assert.equal(draft.source.freshUntil - draft.source.fetchedAt, 120_000);
});

test('500: rfc9309 disallows all', async () => {
  const robots = await fetchRobots(base, on('err', (req, res) => { res.writeHead(500); res.end('boom'); }));
  assert.equal(robots.source.status, 500);
  assert.equal(robots.source.policy, 'disallow-all');
  assert.equal(robots.isAllowed('/x', 'bot'), false);
});

// A failure's answer is kept until Retry-After, else for retryAfterMs (default 5 minutes), capped
// by the dialect; never for the cache headers' lifetime (one 503 must not block a site for a day).
const MIN = 60_000;
const HOUR = 60 * MIN;
const lifetime = (r) => r.source.freshUntil - r.source.fetchedAt;

test('503 without Retry-After: kept for retryAfterMs (default 5 minutes), not for its cache headers', async () => {
  const opts = on('e503', (req, res) => { res.writeHead(503, { 'cache-control': 'max-age=86400' }); res.end('down'); });
  for (const dialect of ['rfc9309', 'google', 'draft1996', 'original1994', 'revisited']) {
    const r = await fetchRobots(base, { ...opts, dialect });
    assert.equal(r.source.status, 503);
    assert.equal(r.source.treatedAs, 'disallow-all', dialect);
    assert.equal(lifetime(r), 5 * MIN, dialect);
    r.free();
  }
  const short = await fetchRobots(base, { ...opts, retryAfterMs: 1500 });
  assert.equal(lifetime(short), 1500);
  const zero = await fetchRobots(base, { ...opts, retryAfterMs: 0 });
  assert.equal(lifetime(zero), 0);
  // Capped by the dialect: 24 h (rfc9309), 12 h (google: then the failure is handled otherwise), 7 days.
  const caps = { rfc9309: 24 * HOUR, google: 12 * HOUR, draft1996: 168 * HOUR, original1994: 168 * HOUR, revisited: 168 * HOUR };
  for (const [dialect, cap] of Object.entries(caps)) {
    const r = await fetchRobots(base, { ...opts, dialect, retryAfterMs: 365 * 24 * HOUR });
    assert.equal(lifetime(r), cap, dialect);
    r.free();
  }
  await assert.rejects(fetchRobots(base, { ...opts, retryAfterMs: -1 }), /retryAfterMs must be a non-negative number/);
  await assert.rejects(fetchRobots(base, { ...opts, retryAfterMs: '5' }), TypeError);
});

test('503 with Retry-After: kept until then (delay-seconds or an HTTP-date), capped by the dialect', async () => {
  let retryAfter;
  const opts = on('e503ra', (req, res) => { res.writeHead(503, { 'retry-after': retryAfter, 'cache-control': 'max-age=86400' }); res.end('down'); });
  retryAfter = '120';
  const r = await fetchRobots(base, opts);
  assert.equal(r.source.policy, 'disallow-all');
  assert.equal(r.isAllowed('/x', 'bot'), false);
  assert.equal(lifetime(r), 120_000);
  // Retry-After wins over retryAfterMs, both ways.
  assert.equal(lifetime(await fetchRobots(base, { ...opts, retryAfterMs: 1000 })), 120_000);
  assert.equal(lifetime(await fetchRobots(base, { ...opts, retryAfterMs: HOUR })), 120_000);
  const when = Math.floor(Date.now() / 1000) * 1000 + 2 * HOUR;
  retryAfter = new Date(when).toUTCString();
  assert.equal((await fetchRobots(base, opts)).source.freshUntil, when);
  // A date in the past: ask again now.
  retryAfter = 'Fri, 25 Jun 2010 15:00:00 GMT';
  assert.equal(lifetime(await fetchRobots(base, opts)), 0);
  // Unreadable: as if absent.
  retryAfter = 'soon';
  assert.equal(lifetime(await fetchRobots(base, opts)), 5 * MIN);
  retryAfter = String(30 * 24 * 3600);
  assert.equal(lifetime(await fetchRobots(base, opts)), 24 * HOUR);
  assert.equal(lifetime(await fetchRobots(base, { ...opts, dialect: 'google' })), 12 * HOUR);
  assert.equal(lifetime(await fetchRobots(base, { ...opts, dialect: 'draft1996' })), 7 * 24 * HOUR);
});

test('a network error is kept for retryAfterMs too; a 4xx keeps its cache headers', async () => {
  const port = await closedPort();
  const down = await fetchRobots(`http://127.0.0.1:${port}/`);
  assert.equal(down.source.status, 0);
  assert.equal(lifetime(down), 5 * MIN);
  const nf = await fetchRobots(base, on('nf60', (req, res) => { res.writeHead(404, { 'cache-control': 'max-age=60', 'retry-after': '5' }); res.end(); }));
  assert.equal(nf.source.policy, 'allow-all');
  assert.equal(lifetime(nf), 60_000);
});

function chain(name, hops) {
  return on(name, (req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    const n = pathname === '/robots.txt' ? 0 : Number(pathname.split('/')[2]);
    if (n < hops) {
      res.writeHead(n % 2 ? 302 : 301, { location: `/hop/${n + 1}` });
      res.end();
    } else {
      res.writeHead(200);
      res.end('User-agent: *\nDisallow: /chained\n');
    }
  });
}

test('redirects within the limit are followed; rules apply to the original URL', async () => {
  const robots = await fetchRobots(`${base}/page`, chain('hops5', 5));
  assert.equal(robots.source.policy, 'parse');
  assert.equal(robots.source.redirects, 5);
  assert.equal(robots.source.url, `${base}/robots.txt`);
  assert.equal(robots.source.finalUrl, `${base}/hop/5`);
  assert.equal(robots.isAllowed('/chained', 'bot'), false);
});

test('redirects beyond the limit: allow all (rfc9309: 5; draft1996: 20)', async () => {
  const opts = chain('hops6', 6);
  const rfc = await fetchRobots(base, opts);
  assert.equal(rfc.source.policy, 'allow-all');
  assert.equal(rfc.source.redirects, 5);
  assert.equal(rfc.isAllowed('/chained', 'bot'), true);
  const draft = await fetchRobots(base, { ...opts, dialect: 'draft1996' });
  assert.equal(draft.source.policy, 'parse');
  assert.equal(draft.isAllowed('/chained', 'bot'), false);
});

test('a timeout: disallow all under rfc9309', async () => {
  const opts = on('slow', (req, res) => { setTimeout(() => { res.writeHead(200); res.end(BODY); }, 3000).unref(); });
  const t0 = Date.now();
  const robots = await fetchRobots(base, { ...opts, timeoutMs: 200 });
  assert.ok(Date.now() - t0 < 2000);
  assert.equal(robots.source.status, 0);
  assert.equal(robots.source.reason.length > 0, true);
  assert.equal(robots.source.policy, 'disallow-all');
  assert.equal(robots.isAllowed('/x', 'bot'), false);
});

test('a network error (connection refused): disallow all under rfc9309', async () => {
  const port = await closedPort();
  const robots = await fetchRobots(`http://127.0.0.1:${port}/`);
  assert.equal(robots.source.status, 0);
  assert.equal(robots.source.policy, 'disallow-all');
});

test('an oversized body is read only up to maxBytes', async () => {
  let sent = 0;
  let closed = false;
  const opts = on('huge', (req, res) => {
    res.writeHead(200);
    res.write('User-agent: *\nDisallow: /early\n');
    const chunk = Buffer.alloc(64 * 1024, '#');
    const pump = () => {
      while (!closed && sent < 64 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once('drain', pump);
      }
      res.end('\nDisallow: /late\n');
    };
    res.on('close', () => { closed = true; });
    pump();
  });
  const robots = await fetchRobots(base, { ...opts, maxBytes: 100000 });
  assert.equal(robots.truncated, true);
  assert.equal(robots.isAllowed('/early', 'bot'), false);
  assert.equal(robots.isAllowed('/late', 'bot'), true);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(sent < 64 * 1024 * 1024, `the whole body was sent (${sent} bytes)`);
});

test('bad arguments throw', async () => {
  await assert.rejects(fetchRobots(42), TypeError);
  await assert.rejects(fetchRobots('/relative'), TypeError);
  await assert.rejects(fetchRobots(base, { dialect: 'nope' }), RangeError);
  await assert.rejects(fetchRobots(base, { timeoutMs: -1 }), RangeError);
  const ac = new AbortController();
  ac.abort(new Error('stop'));
  await assert.rejects(fetchRobots(base, { signal: ac.signal }), /stop/);
});

// ---- Unreachable with a previous copy (issue 5): options.previous, options.now ----------------

const DAY = 24 * HOUR;
const serve = (status) => async () => new Response(status === 200 ? BODY : 'down', { status });

test('google: a failure within 12 h is disallow-all despite a cached copy; then the copy; after 30 days allow-all', async () => {
  let t = Date.UTC(2026, 0, 1);
  const now = () => t;
  const site = 'https://g.example/';
  const google = (status, previous) => fetchRobots(site, { dialect: 'google', fetch: serve(status), now, previous });
  const good = await google(200);
  assert.equal(good.source.unreachableSince, null);
  assert.equal(good.isAllowed('/public', 'bot'), true);
  t += HOUR;
  const t1 = t;
  const first = await google(500, good);
  assert.equal(first.source.policy, 'disallow-all');
  assert.equal(first.source.reason, 'server-error');
  assert.equal(first.source.unreachableSince, t1);
  assert.equal(first.isAllowed('/public', 'bot'), false);
  assert.ok(first.source.freshUntil <= t1 + 12 * HOUR);
  assert.equal(good.freed, false); // the caller's object is left alone
  t = t1 + 12 * HOUR - 1;
  const late = await google(500, first); // the run of failures began at t1, not now
  assert.equal(late.source.policy, 'disallow-all');
  assert.equal(late.source.unreachableSince, t1);
  assert.equal(late.source.freshUntil, t1 + 12 * HOUR); // asked again when the answer changes
  t = t1 + 12 * HOUR;
  good.free(); // the copy travels with each result, so freeing an older one changes nothing
  const cached = await google(500, late);
  assert.equal(cached.source.policy, 'use-cached');
  assert.equal(cached.source.treatedAs, 'use-cached');
  assert.equal(cached.source.reason, 'server-error-cached');
  assert.equal(cached.source.unreachableSince, t1);
  assert.equal(cached.source.freshUntil, t + 300_000);
  assert.equal(cached.isAllowed('/public', 'bot'), true);
  assert.equal(cached.isAllowed('/private', 'bot'), false);
  t = t1 + 30 * DAY - 1;
  const still = await google(503, cached);
  assert.equal(still.source.policy, 'use-cached');
  assert.equal(still.isAllowed('/private', 'bot'), false);
  t = t1 + 30 * DAY;
  const gone = await google(500, still);
  assert.equal(gone.source.policy, 'allow-all');
  assert.equal(gone.source.reason, 'server-error-long');
  assert.equal(gone.source.unreachableSince, t1);
  assert.equal(gone.isAllowed('/private', 'bot'), true);
  // ... while the site is up. When the caller knows the whole site is down, crawling stays stopped.
  const down = await fetchRobots(site, { dialect: 'google', fetch: serve(500), now, previous: still, siteDown: true });
  assert.deepEqual([down.source.policy, down.source.reason, down.source.unreachableSince], ['disallow-all', 'server-error-site-down', t1]);
  assert.equal(down.isAllowed('/public', 'bot'), false);
  down.free();
  await assert.rejects(fetchRobots(site, { fetch: serve(500), siteDown: 'yes' }), /options\.siteDown must be a boolean/);
  // Back up: a fresh copy, and the run of failures is over.
  const back = await google(200, gone);
  assert.equal(back.source.policy, 'parse');
  assert.equal(back.source.unreachableSince, null);
  // Without a good copy (only failures so far): allow-all after 12 hours.
  const lone = await google(500);
  t += 12 * HOUR;
  const none = await google(500, lone);
  assert.equal(none.source.policy, 'allow-all');
  assert.equal(none.source.reason, 'server-error-no-cache');
  for (const r of [first, late, cached, still, gone, back, lone, none]) r.free();
});

test('rfc9309: complete disallow for the first 30 days despite a cached copy, then the copy', async () => {
  let t = Date.UTC(2026, 0, 1);
  const now = () => t;
  const site = 'https://r.example/';
  const rfc = (status, previous) => fetchRobots(site, { fetch: status === 0 ? async () => { throw new TypeError('refused'); } : serve(status), now, previous });
  let last = await rfc(200);
  const t1 = t;
  for (const [at, status] of [[0, 503], [13 * HOUR, 0], [29 * DAY, 500], [30 * DAY - 1, 502]]) {
    t = t1 + at;
    const next = await rfc(status, last);
    last.free();
    last = next;
    assert.equal(last.source.policy, 'disallow-all', `${at}`);
    assert.equal(last.source.reason, 'unreachable');
    assert.equal(last.source.unreachableSince, t1);
    assert.equal(last.isAllowed('/public', 'bot'), false);
  }
  t = t1 + 30 * DAY;
  const cached = await rfc(500, last);
  assert.equal(cached.source.policy, 'use-cached');
  assert.equal(cached.source.reason, 'unreachable-long-cached');
  assert.equal(cached.source.unreachableSince, t1);
  assert.equal(cached.isAllowed('/public', 'bot'), true);
  assert.equal(cached.isAllowed('/private', 'bot'), false);
  assert.equal(last.freed, false);
  last.free();
  cached.free();
});

test('options.previous must be a fetched Robots of the same site', async () => {
  const mine = await fetchRobots('https://a.example/', { fetch: serve(200) });
  await assert.rejects(fetchRobots('https://b.example/', { fetch: serve(500), previous: mine }), /options.previous is the robots.txt of https:\/\/a.example\/robots.txt/);
  const parsed = Robots.parse(BODY);
  await assert.rejects(fetchRobots('https://a.example/', { fetch: serve(500), previous: parsed }), TypeError);
  await assert.rejects(fetchRobots('https://a.example/', { fetch: serve(500), previous: {} }), TypeError);
  await assert.rejects(fetchRobots('https://a.example/', { now: 5 }), /options.now must be a function/);
  mine.free();
  parsed.free();
});
