// RobotRules: the WWW::RobotRules API (seed 002) for crawlers, on top of Robots and fetchRobots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as pkg from 'robots-eval/rich';

// The class under test is the package's export (from the installed tarball), never the
// repository's file.
const { Robots, fetchRobots, RobotRules } = pkg;
// The repository's js/rules.js only for the test that wraps Robots.parse (to see every object
// freed): the package does not export defineRobotRules.
const { defineRobotRules } = await import(pathToFileURL(join(process.env.ROBOTS_EVAL_REPO, 'js', 'rules.js')).href);

test('RobotRules is the package\'s export, bound to its Robots', async () => {
  assert.equal(typeof RobotRules, 'function');
  assert.equal(RobotRules.name, 'RobotRules');
  assert.equal(Robots.name, 'Robots');
  assert.equal(fetchRobots.name, 'fetchRobots');
  assert.equal(pkg.default, Robots);
  assert.notEqual(RobotRules, defineRobotRules({ Robots, fetchRobots }));
  // Both entries of the installed package export it: ESM and CommonJS.
  const { createRequire } = await import('node:module');
  const cjs = createRequire(import.meta.url)('robots-eval');
  assert.equal(typeof cjs.RobotRules, 'function');
  assert.match(import.meta.resolve('robots-eval'), /node_modules\/robots-eval\/pkg\/node\.js$/);
  const rules = new RobotRules('Bot');
  rules.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /x\n');
  assert.equal(rules.allowed('https://a.example/x'), false);
  rules.clear();
});

const MEMORY = Symbol.for('robots-eval.memoryBytes');
const MARYS = `# This is the robots.txt file for Mary's Antiques web site
User-Agent: Suzy-Spider
Disallow: /dynamic
Allow: /dynamic/suzy
Disallow: /private

User-Agent: *
Disallow: /private
`;

function clock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  const now = () => t;
  now.advance = (ms) => { t += ms; };
  return now;
}

test('seed 002: one object, the rules of several sites kept apart', () => {
  const rules = new RobotRules('SuperRobot/1.0');
  rules.parse('http://www.joes-hardware.com/robots.txt', 'User-agent: *\nDisallow: /tools\n');
  rules.parse('http://www.marys-antiques.com/robots.txt', MARYS);
  assert.equal(rules.allowed('http://www.joes-hardware.com/tools/hammer'), false);
  assert.equal(rules.allowed('http://www.joes-hardware.com/private'), true);
  assert.equal(rules.allowed('http://www.marys-antiques.com/private/x'), false);
  assert.equal(rules.allowed('http://www.marys-antiques.com/tools/hammer'), true);
  const suzy = new RobotRules('Suzy-Spider');
  suzy.parse('http://www.marys-antiques.com/robots.txt', MARYS);
  assert.equal(suzy.allowed('http://www.marys-antiques.com/dynamic/x'), false);
  assert.equal(suzy.allowed('http://www.marys-antiques.com/dynamic/suzy/x'), true);
  const e = suzy.explain(new URL('http://www.marys-antiques.com/dynamic/x'));
  assert.equal(e.known, true);
  assert.equal(e.allowed, false);
  assert.equal(e.verdict.line, 3);
  assert.equal(e.source.reason, 'success');
  assert.equal(rules.agent, 'SuperRobot/1.0');
  assert.equal(rules.dialect, 'rfc9309');
  rules.clear();
  suzy.clear();
});

test('an unknown site: undefined, and explain() says why', () => {
  const rules = new RobotRules('Bot');
  assert.equal(rules.allowed('https://nowhere.example/a'), undefined);
  assert.equal(rules.expired('https://nowhere.example/a'), true);
  assert.deepEqual(rules.explain('https://nowhere.example/a'), {
    known: false, site: 'https://nowhere.example', code: 'unknown-site', reason: 'no robots.txt parsed for https://nowhere.example',
  });
  // Another scheme or port is another site.
  rules.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /\n');
  assert.equal(rules.allowed('http://a.example/x'), undefined);
  assert.equal(rules.allowed('https://a.example:8443/x'), undefined);
  assert.equal(rules.allowed('https://a.example/x'), false);
  assert.deepEqual(rules.stats, { sites: 1, hits: 1, misses: 4, evictions: 0, expired: 0 });
  assert.throws(() => rules.allowed('/relative'), TypeError);
  assert.throws(() => rules.allowed('ftp://a.example/x'), /http: or https:/);
  assert.throws(() => rules.allowed(42), TypeError);
});

test('default ports are folded; host case and IDN are normalised', () => {
  const rules = new RobotRules('Bot');
  rules.parse('http://example.com:80/robots.txt', 'User-agent: *\nDisallow: /a\n');
  rules.parse('https://Example.COM/robots.txt', 'User-agent: *\nDisallow: /b\n');
  rules.parse('https://BÜCHER.example/robots.txt', 'User-agent: *\nDisallow: /c\n');
  assert.equal(rules.stats.sites, 3);
  assert.equal(rules.allowed('http://EXAMPLE.com/a'), false);
  assert.equal(rules.allowed('http://example.com/b'), true);
  assert.equal(rules.allowed('https://example.com:443/b'), false);
  assert.equal(rules.allowed('https://example.com:443/a'), true);
  assert.equal(rules.allowed('https://xn--bcher-kva.example/c'), false);
  assert.equal(rules.allowed('https://bücher.example:443/c/d'), false);
  assert.equal(rules.explain('https://BÜCHER.example/x').site, 'https://xn--bcher-kva.example');
  // A non-default port is its own site.
  assert.equal(rules.allowed('http://example.com:8080/a'), undefined);
  // Parsing again replaces the site's rules (the punycode spelling, same site).
  rules.parse('https://xn--bcher-kva.example/robots.txt', '');
  assert.equal(rules.stats.sites, 3);
  assert.equal(rules.allowed('https://BÜCHER.example/c'), true);
  rules.clear();
  assert.equal(rules.stats.sites, 0);
});

test('expiry on a fake clock: freshUntil, the dialect default, expired() and explain()', () => {
  const now = clock();
  const rules = new RobotRules('Bot', { now });
  const t0 = now();
  rules.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /x\n', { freshUntil: t0 + 60_000 });
  rules.parse('https://b.example/robots.txt', 'User-agent: *\nDisallow: /x\n', { freshUntil: new Date(t0 + 120_000) });
  rules.parse('https://c.example/robots.txt', 'User-agent: *\nDisallow: /x\n'); // 24 h under rfc9309
  assert.equal(rules.allowed('https://a.example/x'), false);
  assert.equal(rules.expired('https://a.example/'), false);
  now.advance(60_000);
  assert.equal(rules.expired('https://a.example/'), true);
  assert.equal(rules.allowed('https://a.example/x'), undefined);
  const e = rules.explain('https://a.example/x');
  assert.equal(e.known, false);
  assert.equal(e.code, 'expired');
  assert.equal(e.expiredAt, t0 + 60_000);
  assert.equal(e.reason, `the robots.txt of https://a.example expired at ${new Date(t0 + 60_000).toISOString()}`);
  assert.equal(rules.allowed('https://b.example/x'), false);
  now.advance(60_000);
  assert.equal(rules.allowed('https://b.example/x'), undefined);
  assert.equal(rules.allowed('https://c.example/x'), false);
  now.advance(24 * 3600_000 - 120_000 - 1);
  assert.equal(rules.allowed('https://c.example/x'), false);
  now.advance(1);
  assert.equal(rules.allowed('https://c.example/x'), undefined);
  const { hits, expired } = rules.stats;
  assert.deepEqual({ hits, expired }, { hits: 4, expired: 4 });
  // Parsing again makes it fresh.
  rules.parse('https://a.example/robots.txt', '', { freshUntil: now() + 1000 });
  assert.equal(rules.allowed('https://a.example/x'), true);
  // The 1996 draft defaults to 7 days.
  const draft = new RobotRules('Bot', { now, dialect: 'draft1996' });
  draft.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /x\n');
  now.advance(7 * 24 * 3600_000 - 1);
  assert.equal(draft.allowed('https://a.example/x'), false);
  now.advance(1);
  assert.equal(draft.allowed('https://a.example/x'), undefined);
  rules.clear();
  draft.clear();
});

test('a status other than 2xx gets the dialect\'s policy, the same as fetchRobots', async () => {
  const statuses = [0, 200, 204, 400, 401, 403, 404, 405, 408, 410, 429, 451, 500, 502, 503, 504, 599];
  for (const dialect of Robots.dialects) {
    const rules = new RobotRules('Bot', { dialect });
    for (const status of statuses) {
      const site = `https://s${status}.example`;
      const stored = rules.parse(`${site}/robots.txt`, status === 204 ? '' : 'User-agent: *\nDisallow: /x\n', { status });
      const fetched = await fetchRobots(site, {
        dialect,
        fetch: async () => {
          if (status === 0) throw new TypeError('network error');
          return new Response(status === 204 ? null : 'User-agent: *\nDisallow: /x\n', { status });
        },
      });
      const want = fetched.source;
      const at = `${dialect} ${status}`;
      assert.equal(stored.policy, want.policy, at);
      assert.equal(stored.treatedAs, want.treatedAs, at);
      assert.equal(stored.reason, want.reason, at);
      // The same lifetime without a freshUntil: the dialect's default for a file or "no file",
      // retryAfterMs (5 minutes) for a failure.
      assert.equal(stored.freshUntil - stored.fetchedAt, want.freshUntil - want.fetchedAt, `${at} lifetime`);
      for (const path of ['/x', '/y']) assert.equal(rules.allowed(`${site}${path}`), fetched.isAllowed(path, 'Bot'), `${at} ${path}`);
      fetched.free();
    }
    rules.clear();
  }
  const rules = new RobotRules('Bot');
  assert.throws(() => rules.parse('https://a.example/robots.txt', '', { status: 301 }), /follow redirects first/);
  assert.throws(() => rules.parse('https://a.example/robots.txt', '', { status: 700 }), RangeError);
});

test('a failure without freshUntil is kept for retryAfterMs, capped as fetchRobots caps it', async () => {
  const now = clock();
  const rules = new RobotRules('Bot', { now });
  const s = rules.parse('https://a.example/robots.txt', null, { status: 503 });
  assert.equal(s.treatedAs, 'disallow-all');
  assert.equal(s.freshUntil, now() + 300_000);
  now.advance(300_000 - 1);
  assert.equal(rules.allowed('https://a.example/x'), false);
  now.advance(1);
  assert.equal(rules.allowed('https://a.example/x'), undefined);
  // An explicit freshUntil is obeyed, for a failure too.
  rules.parse('https://a.example/robots.txt', null, { status: 503, freshUntil: now() + 5000 });
  assert.equal(rules.explain('https://a.example/x').source.freshUntil, now() + 5000);
  const fiveHundred = { fetch: async () => new Response('down', { status: 500 }) };
  for (const dialect of Robots.dialects) {
    const long = new RobotRules('Bot', { now, dialect, retryAfterMs: 1e12 });
    const stored = long.parse('https://b.example/robots.txt', null, { status: 500 });
    const fetched = await fetchRobots('https://b.example/', { dialect, retryAfterMs: 1e12, ...fiveHundred });
    assert.equal(stored.freshUntil - stored.fetchedAt, fetched.source.freshUntil - fetched.source.fetchedAt, dialect);
    assert.ok(stored.freshUntil - stored.fetchedAt <= 7 * 24 * 3600_000, dialect);
    fetched.free();
    long.clear();
  }
  assert.throws(() => new RobotRules('Bot', { retryAfterMs: -5 }), /retryAfterMs must be a non-negative number/);
  rules.clear();
});

test('304 refreshes a held copy; without one it is an invalid response', () => {
  const now = clock();
  const rules = new RobotRules('Bot', { now });
  rules.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /x\n', { freshUntil: now() + 1000 });
  now.advance(2000);
  assert.equal(rules.allowed('https://a.example/x'), undefined);
  const s = rules.parse('https://a.example/robots.txt', null, { status: 304, freshUntil: now() + 1000 });
  assert.equal(s.policy, 'use-cached');
  assert.equal(rules.allowed('https://a.example/x'), false);
  assert.equal(rules.allowed('https://a.example/y'), true);
  const none = rules.parse('https://b.example/robots.txt', null, { status: 304 });
  assert.equal(none.reason, 'unreachable');
  assert.equal(rules.allowed('https://b.example/y'), false);
  rules.clear();
});

test('LRU over sites: the least recently used site is evicted and its Robots freed', () => {
  const made = [];
  const Spy = {
    get dialects() { return Robots.dialects; },
    parse(text, options) {
      const r = Robots.parse(text, options);
      made.push(r);
      return r;
    },
  };
  const SpyRules = defineRobotRules({ Robots: Spy, fetchRobots });
  const rules = new SpyRules('Bot', { maxSites: 3 });
  for (const h of ['a', 'b', 'c']) rules.parse(`https://${h}.example/robots.txt`, 'User-agent: *\nDisallow: /x\n');
  assert.equal(rules.allowed('https://a.example/x'), false); // a is now the most recently used
  rules.parse('https://d.example/robots.txt', ''); // evicts b
  assert.deepEqual(made.map((r) => r.freed), [false, true, false, false]);
  assert.equal(rules.allowed('https://b.example/x'), undefined);
  assert.deepEqual(rules.stats, { sites: 3, hits: 1, misses: 1, evictions: 1, expired: 0 });
  // Replacing a site's rules frees the old ones (no eviction).
  rules.parse('https://a.example/robots.txt', '');
  assert.equal(made[0].freed, true);
  assert.equal(rules.stats.evictions, 1);
  assert.equal(rules.forget('https://c.example/'), true);
  assert.equal(made[2].freed, true);
  assert.equal(rules.forget('https://c.example/'), false);
  rules.clear();
  assert.ok(made.every((r) => r.freed));
});

test('LRU bounds the wasm memory: 20,000 sites through a 100-site object', () => {
  const big = 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /p${i}/*x$\n`).join('');
  const rules = new RobotRules('Bot', { maxSites: 100 });
  const round = (k) => {
    for (let i = 0; i < 2000; i++) {
      const site = `https://s${k}-${i}.example`;
      rules.parse(`${site}/robots.txt`, big);
      assert.equal(rules.allowed(`${site}/p7/ax`), false);
    }
  };
  round(0); // the allocator reaches its working size
  const start = Robots[MEMORY];
  for (let k = 1; k < 10; k++) round(k);
  const end = Robots[MEMORY];
  console.log(`wasm memory: ${start} bytes after 2,000 sites, ${end} bytes after 20,000 (100 held)`);
  // Flat but for allocator fragmentation (a page or two, as with plain parse/free in a ring);
  // 18,000 unfreed files of this size would take over 100 MB.
  assert.ok(end - start <= 256 * 1024, `grew by ${end - start} bytes`);
  assert.equal(rules.stats.sites, 100);
  assert.equal(rules.stats.evictions, 20000 - 100);
  rules.clear();
});

let server;
let base;
let hits = 0;
before(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
      res.end(`User-agent: ${req.headers['user-agent']}\nDisallow: /mine\n`);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => { server.closeAllConnections?.(); server.close(); });

test('fetch(): fetchRobots with the crawler\'s User-Agent, stored with its lifetime on the object\'s clock', async () => {
  const now = clock();
  const rules = new RobotRules('FetchBot/1.0', { now });
  const s = await rules.fetch(`${base}/some/page`);
  assert.equal(s.status, 200);
  assert.equal(s.url, `${base}/robots.txt`);
  assert.equal(s.freshUntil, now() + 60_000);
  assert.equal(hits, 1);
  assert.equal(rules.allowed(`${base}/mine/x`), false);
  assert.equal(rules.allowed(`${base}/other`), true);
  assert.equal(rules.crawlDelay(`${base}/`), undefined);
  now.advance(60_000);
  assert.equal(rules.expired(`${base}/mine/x`), true);
  // A custom fetch is passed on.
  let seen = null;
  await rules.fetch(`${base}/`, { fetch: (url, init) => { seen = init.headers['user-agent']; return fetch(url, init); } });
  assert.equal(seen, 'FetchBot/1.0');
  assert.equal(rules.allowed(`${base}/mine/x`), false);
  // Unreachable: the dialect's policy, asked again after retryAfterMs (default 5 minutes) or at
  // Retry-After; minTtlMs is a floor under every lifetime.
  const refused = { fetch: async () => { throw new TypeError('refused'); } };
  const down = new RobotRules('FetchBot', { now, minTtlMs: 30_000, retryAfterMs: 10_000 });
  const d = await down.fetch('http://127.0.0.1:9/', refused);
  assert.equal(d.treatedAs, 'disallow-all');
  assert.equal(d.freshUntil, now() + 30_000);
  assert.equal(down.allowed('http://127.0.0.1:9/a'), false);
  const plain = new RobotRules('FetchBot', { now });
  assert.equal((await plain.fetch('http://127.0.0.1:9/', refused)).freshUntil, now() + 300_000);
  const e503 = { fetch: async () => new Response('down', { status: 503, headers: { 'retry-after': '90', 'cache-control': 'max-age=86400' } }) };
  const s503 = await plain.fetch('https://down.example/', e503);
  assert.equal(s503.freshUntil, now() + 90_000);
  assert.equal(plain.allowed('https://down.example/x'), false);
  now.advance(90_000);
  assert.equal(plain.allowed('https://down.example/x'), undefined);
  assert.equal(plain.expired('https://down.example/x'), true);
  // retryAfterMs per fetch overrides the object's.
  assert.equal((await plain.fetch('http://127.0.0.1:9/', { ...refused, retryAfterMs: 1000 })).freshUntil, now() + 1000);
  rules.clear();
  down.clear();
  plain.clear();
});

test('bad arguments throw TypeError or RangeError naming the argument', () => {
  assert.throws(() => new RobotRules(), /agent must be a non-empty string/);
  assert.throws(() => new RobotRules('Bot', { dialect: 'nope' }), /unknown dialect "nope"/);
  assert.throws(() => new RobotRules('Bot', { maxSites: 0 }), /maxSites must be a positive integer/);
  assert.throws(() => new RobotRules('Bot', { now: 5 }), /options.now must be a function/);
  assert.equal(new RobotRules('Bot', { dialect: 'GOOGLE' }).dialect, 'google');
  const rules = new RobotRules('Bot');
  assert.throws(() => rules.parse('https://a.example/robots.txt', '', { freshUntil: 'soon' }), /freshUntil must be a number/);
  assert.throws(() => rules.parse('not a url', ''), TypeError);
  assert.equal(Object.prototype.toString.call(rules), '[object RobotRules]');
});

// ---- Unreachable with a held copy (issue 5) ---------------------------------------------------

test('google: a 500 within 12 h of the first failure disallows; then the held copy; after 30 days allow-all', async () => {
  const H = 3600_000;
  const now = clock();
  const rules = new RobotRules('Bot', { now, dialect: 'google' });
  const at = (status) => ({ fetch: async () => new Response(status === 200 ? 'User-agent: *\nDisallow: /x\n' : 'down', { status }) });
  await rules.fetch('https://g.example/', at(200));
  assert.equal(rules.allowed('https://g.example/x'), false);
  assert.equal(rules.allowed('https://g.example/y'), true);
  now.advance(2 * 24 * H); // the copy has expired: fetch() passes it on all the same
  const t1 = now();
  let s = await rules.fetch('https://g.example/', at(500));
  assert.deepEqual([s.policy, s.unreachableSince], ['disallow-all', t1]);
  assert.equal(rules.allowed('https://g.example/y'), false);
  now.advance(12 * H - 1);
  s = await rules.fetch('https://g.example/', at(500));
  assert.deepEqual([s.policy, s.unreachableSince], ['disallow-all', t1]);
  now.advance(1);
  s = await rules.fetch('https://g.example/', at(503));
  assert.deepEqual([s.policy, s.reason, s.unreachableSince], ['use-cached', 'server-error-cached', t1]);
  assert.equal(rules.allowed('https://g.example/x'), false);
  assert.equal(rules.allowed('https://g.example/y'), true);
  // parse() with a failure status tracks the same run of failures.
  now.advance(10 * 24 * H);
  s = rules.parse('https://g.example/robots.txt', null, { status: 0 });
  assert.deepEqual([s.policy, s.unreachableSince], ['use-cached', t1]);
  assert.equal(rules.allowed('https://g.example/x'), false);
  assert.equal(rules.allowed('https://g.example/y'), true);
  now.advance(t1 + 30 * 24 * H - now());
  s = rules.parse('https://g.example/robots.txt', null, { status: 500 });
  assert.deepEqual([s.policy, s.reason, s.unreachableSince], ['allow-all', 'server-error-long', t1]);
  assert.equal(rules.allowed('https://g.example/x'), true);
  // ... unless the caller knows the whole site is down: then crawling stays stopped.
  s = rules.parse('https://g.example/robots.txt', null, { status: 500, siteDown: true });
  assert.deepEqual([s.policy, s.reason, s.unreachableSince], ['disallow-all', 'server-error-site-down', t1]);
  assert.equal(rules.allowed('https://g.example/y'), false);
  assert.throws(() => rules.parse('https://g.example/robots.txt', null, { status: 500, siteDown: 1 }), /options\.siteDown must be a boolean/);
  // A success ends the run.
  s = rules.parse('https://g.example/robots.txt', 'User-agent: *\nDisallow: /y\n');
  assert.deepEqual([s.policy, s.unreachableSince], ['parse', null]);
  assert.equal(rules.allowed('https://g.example/y'), false);
  rules.clear();
});

test('rfc9309: disallow-all for the first 30 days despite a held copy, then the copy (parse and fetch)', async () => {
  const D = 24 * 3600_000;
  const now = clock();
  const rules = new RobotRules('Bot', { now });
  const copy = new TextEncoder().encode('User-agent: *\nDisallow: /x\n');
  rules.parse('https://r.example/robots.txt', copy);
  copy.fill(0x20); // the held copy is the rules' own
  const t1 = now();
  for (const days of [0, 1, 29]) {
    now.advance(t1 + days * D - now());
    const s = rules.parse('https://r.example/robots.txt', 'ignored', { status: 503 });
    assert.deepEqual([s.policy, s.reason, s.unreachableSince], ['disallow-all', 'unreachable', t1], `${days}`);
    assert.equal(rules.allowed('https://r.example/y'), false);
  }
  now.advance(t1 + 30 * D - now());
  const s = await rules.fetch('https://r.example/', { fetch: async () => { throw new TypeError('refused'); } });
  assert.deepEqual([s.policy, s.reason, s.unreachableSince], ['use-cached', 'unreachable-long-cached', t1]);
  assert.equal(rules.allowed('https://r.example/x'), false);
  assert.equal(rules.allowed('https://r.example/y'), true);
  // A first failure without any good copy: disallow-all, and no copy appears later.
  rules.parse('https://n.example/robots.txt', null, { status: 500 });
  now.advance(31 * D);
  const n = rules.parse('https://n.example/robots.txt', null, { status: 500 });
  assert.deepEqual([n.policy, n.reason], ['allow-all', 'unreachable-long']);
  rules.clear();
});
