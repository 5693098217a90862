// The behaviours issue 12 found in other libraries' test suites (tests/data/records.json, each case
// naming the peer behaviour it follows), through the packed npm package: the same answers as the
// Rust runner (tests/records.rs) expects. Then the package's own surface for them: argument
// checks, agent arrays in every query, and the records' shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots } from 'robots-eval/rich';

const repo = process.env.ROBOTS_EVAL_REPO;
assert.ok(repo, 'ROBOTS_EVAL_REPO must name the repository (scripts/test-js.sh sets it)');
const doc = JSON.parse(readFileSync(join(repo, 'tests/data/records.json'), 'utf8'));
const ALL = ['rfc9309', 'google', 'draft1996', 'original1994', 'revisited'];

/** The robots field: text, or the exact bytes of `robots_hex`. */
const robotsOf = (c) => (typeof c.robots === 'string' ? c.robots : Uint8Array.from(c.robots_hex.match(/../g) ?? [], (h) => parseInt(h, 16)));
const show = (a) => JSON.stringify(a);

test('records.json: every case in every dialect it lists', () => {
  const failed = [];
  let checked = 0;
  const check = (ok, what) => {
    checked++;
    if (!ok) failed.push(what());
  };
  for (const c of doc.cases) {
    for (const dialect of c.dialects ?? ALL) {
      const name = `${c.name} [${dialect}]`;
      const robots = Robots.parse(robotsOf(c), { dialect });
      try {
        for (const [agent, want] of c.crawl_delay ?? []) {
          const got = robots.crawlDelay(agent);
          check(got === (want ?? undefined), () => `${name}: crawlDelay(${show(agent)}) = ${got}, expected ${want}`);
        }
        for (const [agent, want] of c.request_rate ?? []) {
          const got = robots.requestRate(agent);
          check(show(got) === show(want ?? undefined), () => `${name}: requestRate(${show(agent)}) = ${show(got)}, expected ${show(want)}`);
        }
        for (const [url, agent, want] of c.allowed ?? []) {
          const got = robots.isAllowed(url, agent);
          check(got === want, () => `${name}: isAllowed(${show(url)}, ${show(agent)}) = ${got}`);
          const e = robots.explain(url, agent);
          check(e.allowed === want, () => `${name}: explain(${show(url)}, ${show(agent)}).allowed = ${e.allowed}`);
          const cell = robots.table([url], [agent]).allowed[0][0];
          check(cell === want, () => `${name}: table([${show(url)}], [${show(agent)}]) = ${cell}`);
        }
        for (const [url, agent, want] of c.explicitly_disallowed ?? []) {
          const got = robots.isExplicitlyDisallowed(url, agent);
          check(got === want, () => `${name}: isExplicitlyDisallowed(${show(url)}, ${show(agent)}) = ${got}`);
        }
        if ('host' in c) check(robots.host === c.host, () => `${name}: host = ${show(robots.host)}, expected ${show(c.host)}`);
        if ('records' in c) check(show(robots.records) === show(c.records), () => `${name}: records = ${show(robots.records)}, expected ${show(c.records)}`);
        const found = robots.diagnostics.map((d) => `${d.code}@${d.line}`);
        for (const [code, line] of c.diagnostics ?? []) {
          check(found.includes(`${code}@${line}`), () => `${name}: no diagnostic ${code} on line ${line}; found ${found}`);
        }
        for (const code of c.not_diagnostics ?? []) {
          check(!found.some((f) => f.startsWith(`${code}@`)), () => `${name}: unexpected diagnostic ${code}; found ${found}`);
        }
      } finally {
        robots.free();
      }
    }
  }
  assert.ok(checked > 300, `only ${checked} checks ran`);
  assert.deepEqual(failed, [], `${failed.length} of ${checked} failed`);
});

/** Runs `f` on a parsed file, then frees it. */
function withRobots(text, f) {
  const robots = Robots.parse(text);
  try {
    return f(robots);
  } finally {
    robots.free();
  }
}

const LISTS = 'User-agent: FooBot\nCrawl-delay: 3\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n';

test('agent arrays: explain names the groups of the token that decided; table keeps the columns as given', () => withRobots(LISTS, (robots) => {
  const e = robots.explain('/b', ['QuxBot', 'BarBot', 'FooBot']);
  assert.deepEqual({ allowed: e.allowed, line: e.line, agents: e.group.agents }, { allowed: false, line: 6, agents: ['BarBot'] });
  const t = robots.table(['/a', '/b'], ['FooBot', ['BarBot', 'FooBot'], ['QuxBot']]);
  assert.deepEqual(t.agents, ['FooBot', ['BarBot', 'FooBot'], ['QuxBot']]);
  assert.deepEqual(t.allowed, [[false, true, true], [true, false, true]]);
  assert.deepEqual(t.reasons, [['rule', 'no-match', 'no-match'], ['no-match', 'rule', 'no-match']]);
  // coverage (the core's, src/coverage.rs): the same deciding agents; URLs and agents as indices.
  const c = robots.coverage(['/a', '/b'], ['FooBot', ['BarBot', 'FooBot'], ['QuxBot']]);
  const rule = (line, text, agent, answers, status, urls) => ({ line, text, agents: [{ agent, answers }], allowed: 0, disallowed: answers, status, matched: 0, urls });
  assert.deepEqual(c, {
    answers: 6,
    rules: [rule(3, 'Disallow: /a', 0, 1, 'decides', [0]), rule(6, 'Disallow: /b', 1, 1, 'decides', [1]), rule(9, 'Disallow: /c', 2, 0, 'unmatched', [])],
    noRule: { allowed: 4, disallowed: 0 },
    otherGroups: 0,
  });
}));

test('agent arguments: a string or a non-empty array of strings, else a TypeError naming the call', () => withRobots(LISTS, (robots) => {
  for (const [call, f] of [
    ['isAllowed(url, agent)', (a) => robots.isAllowed('/a', a)],
    ['explain(url, agent)', (a) => robots.explain('/a', a)],
    ['crawlDelay(agent)', (a) => robots.crawlDelay(a)],
    ['requestRate(agent)', (a) => robots.requestRate(a)],
    ['isExplicitlyDisallowed(url, agent)', (a) => robots.isExplicitlyDisallowed('/a', a)],
    ['coverage(urls, agents)', (a) => robots.coverage(['/a'], [a])],
  ]) {
    for (const bad of [42, null, undefined, [], ['a', 7], { length: 1, 0: 'a' }]) {
      assert.throws(() => f(bad), (e) => e instanceof TypeError && e.message.includes(call), `${call} with ${show(bad)}`);
    }
  }
  assert.throws(() => robots.table(['/a'], [['FooBot', 1]]), TypeError);
  assert.throws(() => robots.table(['/a'], [[]]), TypeError);
  for (const bad of [null, 'FooBot', 42]) {
    assert.throws(() => robots.coverage(bad, ['FooBot']), (e) => e instanceof TypeError && e.message.includes('coverage(urls, agents)'));
    assert.throws(() => robots.coverage(['/a'], bad), (e) => e instanceof TypeError && e.message.includes('coverage(urls, agents)'));
  }
}));

test('records: frozen objects, a copy per read; host and requestRate of a freed object throw', () => {
  const robots = Robots.parse('Host: example.com\nUser-agent: a\nRequest-rate: 3/1m\nX-Note: hi # comment\n');
  const records = robots.records;
  assert.deepEqual(records, [
    { key: 'Host', value: 'example.com', line: 1, agents: null },
    { key: 'Request-rate', value: '3/1m', line: 3, agents: ['a'] },
    { key: 'X-Note', value: 'hi', line: 4, agents: ['a'] },
  ]);
  assert.ok(Object.isFrozen(records[1]) && Object.isFrozen(records[1].agents));
  records.pop();
  assert.equal(robots.records.length, 3);
  assert.equal(robots.host, 'example.com');
  assert.deepEqual(robots.requestRate('a'), { requests: 3, seconds: 60 });
  assert.equal(robots.requestRate('b'), undefined);
  robots.free();
  assert.throws(() => robots.host, /freed/);
  assert.throws(() => robots.records, /freed/);
  assert.throws(() => robots.requestRate('a'), /freed/);
  assert.throws(() => robots.isExplicitlyDisallowed('/', 'a'), /freed/);
});

test('non-UTF-8 and long values cross the boundary intact', () => {
  const bytes = new Uint8Array([...new TextEncoder().encode('User-agent: a\nX-Bytes: '), 0xff, 0x41, ...new TextEncoder().encode('\nX-Long: '), ...new Uint8Array(70000).fill(0x62)]);
  withRobots(bytes, (robots) => {
    const [odd, long] = robots.records;
    assert.deepEqual({ key: odd.key, value: odd.value }, { key: 'X-Bytes', value: '\uFFFDA' });
    assert.equal(long.value.length, 70000);
  });
});
