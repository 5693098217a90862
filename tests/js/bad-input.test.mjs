// Bad input: every misuse gets a TypeError/RangeError/Error with a message saying what to do,
// or a documented safe result; never a wasm trap, and the next call still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Robots, RobotRules, fetchRobots, metaRobots, xRobotsTag } from 'robots-eval/rich';

const MEMORY = Symbol.for('robots-eval.memoryBytes');
const robots = Robots.parse('User-agent: *\nDisallow: /private\n');

function stillWorks() {
  assert.equal(robots.isAllowed('/private/x', 'bot'), false);
  const fresh = Robots.parse('User-agent: *\nDisallow: /\n');
  assert.equal(fresh.isAllowed('/x', 'bot'), false);
  fresh.free();
}

function throwsClearly(fn, type, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof type, `${e} is not a ${type.name}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), 'a wasm trap escaped');
    assert.match(e.message, /^robots-eval: /);
    assert.match(e.message, pattern);
    return true;
  });
  stillWorks();
}

test('Robots.parse: text of the wrong type is a TypeError', () => {
  for (const bad of [undefined, null, 42, 42n, true, {}, [], Symbol('s'), () => 1, new Uint16Array(2), new DataView(new ArrayBuffer(1))]) {
    throwsClearly(() => Robots.parse(bad), TypeError, /Robots\.parse\(text, options\): text must be a string or Uint8Array, got /);
  }
  throwsClearly(() => Robots.parse(undefined), TypeError, /got undefined$/);
  // An ArrayBuffer is read as bytes.
  const r = Robots.parse(new TextEncoder().encode('User-agent: *\nDisallow: /a\n').buffer);
  assert.equal(r.isAllowed('/a', 'b'), false);
  r.free();
});

test('Robots.parse: bad options', () => {
  throwsClearly(() => Robots.parse('', 'google'), TypeError, /options must be an object, got "google"/);
  throwsClearly(() => Robots.parse('', { dialect: 7 }), TypeError, /options\.dialect must be a string, got number 7/);
  throwsClearly(() => Robots.parse('', { dialect: 'rfc' }), RangeError, /unknown dialect "rfc"; the dialects are 'rfc9309', 'google', 'draft1996', 'original1994', 'revisited'/);
  throwsClearly(() => Robots.parse('', { maxBytes: '10' }), TypeError, /options\.maxBytes must be a number/);
  for (const bad of [-1, 1.5, NaN, -Infinity]) {
    throwsClearly(() => Robots.parse('', { maxBytes: bad }), RangeError, /options\.maxBytes must be a non-negative integer or Infinity/);
  }
  // null options and undefined fields mean the defaults; Infinity means no limit (capped at 4 GiB).
  for (const ok of [null, {}, { dialect: undefined, maxBytes: undefined }, { maxBytes: Infinity }, { maxBytes: 0 }]) {
    Robots.parse('User-agent: *\nDisallow: /\n', ok).free();
  }
});

test('queries: arguments of the wrong type are TypeErrors', () => {
  for (const bad of [undefined, null, 1, {}, ['/x']]) {
    throwsClearly(() => robots.isAllowed(bad, 'bot'), TypeError, /isAllowed\(url, agent\): url must be a string or a URL, got /);
    throwsClearly(() => robots.explain(bad, 'bot'), TypeError, /explain\(url, agent\): url must be a string or a URL/);
  }
  // An agent is a product token or a list of them (['Googlebot-News', 'Googlebot']).
  for (const bad of [undefined, null, 1, {}, [], [1], ['a', null]]) {
    throwsClearly(() => robots.isAllowed('/x', bad), TypeError, /isAllowed\(url, agent\): agent must be a string or a non-empty array of strings, got /);
    throwsClearly(() => robots.crawlDelay(bad), TypeError, /crawlDelay\(agent\): agent must be a string or a non-empty array of strings/);
  }
  throwsClearly(() => robots.table('/x', ['a']), TypeError, /table\(urls, agents\): urls must be an array of strings, got "\/x"/);
  throwsClearly(() => robots.table(['/x'], undefined), TypeError, /agents must be an array of strings, got undefined/);
  throwsClearly(() => robots.table(['/x', 3], ['a']), TypeError, /urls\[1\]: url must be a string or a URL, got number 3/);
  throwsClearly(() => robots.table(['/x'], ['a', null]), TypeError, /agents\[1\]: agent must be a string or a non-empty array of strings, got null/);
  throwsClearly(() => new Robots(), TypeError, /use Robots\.parse/);
});

test('invalid URLs and agents: a verdict, never an error (the URL is read as a path)', () => {
  const urls = ['', 'http://', '::::', '%', '%zz', '%00', '\u0000', '\ud800', '\udfff\ud800', 'javascript:alert(1)', '//x', '?', '#', '*', '$',
    'http://[::1', 'https://example.com:99999/private', '/private'.repeat(200000), '😀'.repeat(100000)];
  for (const url of urls) {
    for (const agent of ['', ' ', '*', '\ud800', 'Mozilla/5.0 (compatible; Googlebot/2.1)', 'x'.repeat(1 << 20)]) {
      assert.equal(typeof robots.isAllowed(url, agent), 'boolean');
      const e = robots.explain(url, agent);
      assert.equal(typeof e.allowed, 'boolean');
    }
  }
  assert.equal(robots.table(urls, ['a', '']).allowed.length, urls.length);
  stillWorks();
});

test('huge input: only maxBytes of it reaches the module', () => {
  const before = Robots[MEMORY];
  const huge = 'User-agent: *\nDisallow: /a\n' + '#'.repeat(200 * 1024 * 1024); // 200 MB of comment
  const r = Robots.parse(huge);
  assert.equal(r.truncated, true);
  assert.equal(r.isAllowed('/a', 'x'), false);
  assert.ok(r.diagnostics.some((d) => d.code === 'truncated'));
  r.free();
  const bytes = Robots.parse(new Uint8Array(100 * 1024 * 1024).fill(35)); // 100 MB of '#'
  assert.equal(bytes.truncated, true);
  bytes.free();
  const grown = Robots[MEMORY] - before;
  console.log(`wasm memory grew by ${grown} bytes for a 200 MB string and a 100 MB array`);
  assert.ok(grown < 8 * 1024 * 1024, `memory grew by ${grown}`);
  stillWorks();
});

test('a 10 MB robots.txt, read in full with maxBytes: Infinity', () => {
  let text = 'User-agent: *\n';
  const rules = [];
  for (let i = 0; text.length < 10 * 1024 * 1024; i++) {
    const rule = `Disallow: /dir${i}/*.php$\n`;
    rules.push(rule);
    text += rule;
  }
  const t0 = performance.now();
  const r = Robots.parse(text, { maxBytes: Infinity });
  const ms = performance.now() - t0;
  assert.equal(r.truncated, false);
  assert.equal(r.isAllowed('/dir7/x.php', 'bot'), false);
  assert.equal(r.isAllowed('/dir7/x.php5', 'bot'), true);
  const last = rules.length - 1;
  assert.equal(r.explain(`/dir${last}/a.php`, 'bot').line, rules.length + 1);
  console.log(`10 MB, ${rules.length} rules: parsed in ${ms.toFixed(0)} ms`);
  r.free();
  // And with the default limit it stops at 500 KiB.
  const capped = Robots.parse(text);
  assert.equal(capped.truncated, true);
  capped.free();
  stillWorks();
});

test('after free(): every call is an Error; free() twice is fine', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /\n');
  r.free();
  r.free();
  assert.equal(r.freed, true);
  for (const call of [() => r.isAllowed('/', 'a'), () => r.explain('/', 'a'), () => r.table(['/'], ['a']), () => r.crawlDelay('a'),
    () => r.sitemaps, () => r.diagnostics, () => r.dialect, () => r.truncated]) {
    throwsClearly(call, Error, /this Robots object was freed; parse the file again/);
  }
});

test('options: an unknown key or a wrong type is a TypeError naming it and the accepted ones, in every function', async () => {
  const unknown = (key, accepted) => new RegExp(`unknown option "${key}"; the options are ${accepted.map((k) => `'${k}'`).join(', ')}$`);
  throwsClearly(() => Robots.parse('', { dialekt: 'google' }), TypeError, unknown('dialekt', ['dialect', 'maxBytes', 'url']));
  throwsClearly(() => Robots.parse('', { url: '/robots.txt' }), TypeError, /options\.url must be an absolute http: or https: URL/);
  throwsClearly(() => metaRobots('', 'bot', { conflicts: 'seed001' }), TypeError, unknown('conflicts', ['conflict']));
  throwsClearly(() => metaRobots('', 'bot', { conflict: 1 }), TypeError, /options\.conflict must be 'most-restrictive' or 'seed001', got number 1/);
  throwsClearly(() => xRobotsTag('noindex', 'bot', { Conflict: 'seed001' }), TypeError, unknown('Conflict', ['conflict']));
  throwsClearly(() => new RobotRules('Bot', { maxsites: 3 }), TypeError,
    unknown('maxsites', ['dialect', 'maxSites', 'now', 'maxBytes', 'minTtlMs', 'retryAfterMs']));
  throwsClearly(() => new RobotRules('Bot', { maxSites: '3' }), TypeError, /options\.maxSites must be a number, got "3"/);
  throwsClearly(() => new RobotRules('Bot', { maxBytes: '3' }), TypeError, /options\.maxBytes must be a number/);
  throwsClearly(() => new RobotRules('Bot', { minTtlMs: null }), TypeError, /options\.minTtlMs must be a number, got null/);
  const rules = new RobotRules('Bot');
  throwsClearly(() => rules.parse('https://a.example/', '', { stauts: 404 }), TypeError, unknown('stauts', ['status', 'freshUntil', 'siteDown']));
  throwsClearly(() => rules.parse('https://a.example/', '', { status: '404' }), TypeError, /options\.status must be a number/);
  const fetchOptions = ['fetch', 'userAgent', 'dialect', 'timeoutMs', 'signal', 'maxBytes', 'retryAfterMs', 'previous', 'now', 'siteDown'];
  // Rejected before any request is made: `fetch` would throw if it were called.
  const never = () => { throw new Error('fetch was called'); };
  const rejects = (promise, type, pattern) => assert.rejects(promise, (e) => e instanceof type && pattern.test(e.message));
  await rejects(fetchRobots('https://a.example/', { fetch: never, timeout: 5 }), TypeError, unknown('timeout', fetchOptions));
  await rejects(fetchRobots('https://a.example/', { fetch: never, timeoutMs: '5' }), TypeError, /options\.timeoutMs must be a number/);
  await rejects(fetchRobots('https://a.example/', { fetch: never, signal: 5 }), TypeError, /options\.signal must be an AbortSignal/);
  // RobotRules sets dialect, now and previous itself: they are not options of its fetch().
  await rejects(rules.fetch('https://a.example/', { fetch: never, dialect: 'google' }), TypeError,
    unknown('dialect', ['fetch', 'userAgent', 'timeoutMs', 'signal', 'maxBytes', 'retryAfterMs', 'siteDown']));
  // Options given as undefined or null are no options.
  Robots.parse('', undefined).free();
  Robots.parse('', null).free();
  assert.equal(metaRobots('', 'bot', null).index, true);
});

test('a URL of another site than the one robots.txt belongs to is a RangeError, never a guess', () => {
  const text = 'User-agent: *\nDisallow: /p\n';
  const r = Robots.parse(text, { url: 'https://example.com/robots.txt' });
  const sameSite = ['https://example.com/p', 'HTTPS://Example.COM:443/p?q', 'https://example.com', '/p', 'p'];
  for (const same of sameSite) {
    const allowed = !same.includes('p') || same === 'https://example.com';
    assert.equal(r.isAllowed(same, 'bot'), allowed, same);
    assert.equal(r.explain(same, 'bot').allowed, allowed, same);
    assert.equal(r.isExplicitlyDisallowed(same, 'bot'), false, same); // (only `*` names it)
  }
  // The table too: the module flags the URLs it cannot settle at a glance, the wrapper's URL
  // parser settles them, and the first row that is not on the site is the one named.
  assert.deepEqual(r.table(sameSite, ['bot']).allowed, sameSite.map((u) => [u === 'https://example.com']));
  throwsClearly(() => r.table([...sameSite, 'https://other.example/p', 'http://example.com/p'], ['bot', 'other']), RangeError,
    /table\(urls, agents\): urls\[5\]: "https:\/\/other\.example\/p" is not on/);
  assert.equal(r.isAllowed(new URL('https://example.com/p/x'), 'bot'), false);
  const other = /is not on https:\/\/example\.com, the site this robots\.txt belongs to/;
  for (const url of ['https://other.example/p', 'http://example.com/p', 'https://example.com:8443/p', '//other.example/p', 'https://example.com.evil.example/p', 'mailto:a@example.com']) {
    throwsClearly(() => r.isAllowed(url, 'bot'), RangeError, other);
    throwsClearly(() => r.isExplicitlyDisallowed(url, 'bot'), RangeError, other);
    throwsClearly(() => r.explain(url, 'bot'), RangeError, other);
  }
  throwsClearly(() => r.table(['/p', 'https://other.example/p'], ['bot']), RangeError, /table\(urls, agents\): urls\[1\]: "https:\/\/other\.example\/p" is not on/);
  // Every octet of the site counts (the module compares them eight at a time, the last eight
  // overlapping): one letter changed anywhere in it makes another site.
  const origin = 'https://example.com';
  for (let i = 0; i < origin.length; i++) {
    if (!/[a-z]/.test(origin[i])) continue;
    const url = `${origin.slice(0, i)}${origin[i] === 'z' ? 'y' : String.fromCharCode(origin.charCodeAt(i) + 1)}${origin.slice(i + 1)}/p`;
    throwsClearly(() => r.isAllowed(url, 'bot'), RangeError, /is not on https:\/\/example\.com/);
    throwsClearly(() => r.table([url], ['bot']), RangeError, /is not on https:\/\/example\.com/);
  }
  // A long URL is quoted too, its start (the site) with its length.
  const long = `https://other.example/${'a'.repeat(100)}`;
  throwsClearly(() => r.isAllowed(long, 'bot'), RangeError,
    new RegExp(`isAllowed\\(url, agent\\): "https://other\\.example/a{58}"\\.\\.\\. \\(122 characters\\) is not on https://example\\.com`));
  throwsClearly(() => r.explain(`https://other.example/${'b'.repeat(30)}`, 'bot'), RangeError, /explain\(url, agent\): "https:\/\/other\.example\/b{30}" is not on/);
  r.free();
  // Without a known site every URL is taken as this file's (the rules are read for its path).
  const any = Robots.parse(text);
  assert.equal(any.isAllowed('https://other.example/p', 'bot'), false);
  any.free();
  // RobotRules keys every site by origin, and its Robots know theirs.
  const rules = new RobotRules('bot');
  rules.parse('https://example.com/robots.txt', text);
  assert.equal(rules.allowed('https://example.com/p'), false);
  assert.equal(rules.allowed('https://other.example/p'), undefined);
  rules.clear();
});

// A URL written as the file's site and a path is read from where the site ends (the module skips
// the search for the path: wasm/src/lib.rs, site_and_path), unless the site is one google/robotstxt
// reads differently (`;` ends its authority): every dialect answers as it does for the same file
// without a site.
test('a file given its site answers its URLs as the same file without one, in every dialect', () => {
  const text = 'User-agent: *\nDisallow: /a\nDisallow: /*.gif$\nAllow: /a/%7Eb\nDisallow: /\u00e9\nDisallow: /c;d\n\nUser-agent: bot\nDisallow: /\nAllow: /robots.txt\n';
  const paths = ['/', '/a', '/a/~b', '/a/%7eb', '/x.gif', '/x.gif?y', '/x.gif#f', '/\u00e9', '/%C3%A9', '/c;d', '/robots.txt', '/robots.txt?x', '/a\0b', '/%2Fa'];
  for (const site of ['https://example.com', 'http://[::1]:8080', 'http://a;b.example']) {
    for (const dialect of Robots.dialects) {
      const known = Robots.parse(text, { url: `${site}/robots.txt`, dialect });
      const unknown = Robots.parse(text, { dialect });
      for (const path of paths) {
        for (const agent of ['bot', 'other']) {
          const url = site + path;
          assert.equal(known.isAllowed(url, agent), unknown.isAllowed(url, agent), `${dialect} ${url} ${agent}`);
          assert.deepEqual(known.table([url], [agent]).allowed, [[unknown.isAllowed(url, agent)]], `${dialect} ${url} ${agent}`);
        }
      }
      known.free();
      unknown.free();
    }
  }
});

test("an uncaught error: Node's excerpt of the throwing source line is short (the bundle keeps its line breaks)", () => {
  const cases = [
    ['--input-type=module', "import { Robots } from 'robots-eval'; Robots.parse('', { dialekt: 'google' });"],
    ['--input-type=commonjs', "require('robots-eval').Robots.parse('', { dialekt: 'google' });"],
  ];
  for (const [type, code] of cases) {
    let stderr = '';
    try {
      execFileSync(process.execPath, [type, '-e', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      stderr = e.stderr;
    }
    const at = stderr.indexOf('TypeError: robots-eval: Robots.parse(text, options): unknown option "dialekt"');
    assert.ok(at >= 0, `${type}: ${stderr.slice(0, 300)}`);
    // The file name, the source line and the caret: a line of code, not the whole wrapper.
    assert.ok(at < 600, `${type}: ${at} characters before the message:\n${stderr.slice(0, 1000)}`);
  }
});
