// robots-parser's own test file (tests/data/robots-parser/Robots.test.js: MIT, copied unchanged;
// tests/data/README.md gives its origin) run against what replaces robots-parser: the package's
// entry robots-eval/robots-parser through `require` and through `import`, and the override package
// (compat/robots-parser, installed under the name `robots-parser` as `overrides` installs it)
// through both. The file is unchanged: it runs as in robots-parser's repository, `test/Robots.js`
// beside an `index.js` that is the function under test, with mocha's `describe` and `it` (here
// node:test's) and chai. Every test passes but those listed in
// tests/data/robots-parser/differences.json, each a case where robots-parser's expectation is wrong
// by RFC 9309 or by Google's reference library: each of those must fail, on the assertion listed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = process.env.ROBOTS_EVAL_REPO;
assert.ok(repo, 'ROBOTS_EVAL_REPO must name the repository (scripts/test-js.sh sets it)');
const data = join(repo, 'tests', 'data', 'robots-parser');
const suite = join(data, 'Robots.test.js');
const { differences } = JSON.parse(readFileSync(join(data, 'differences.json'), 'utf8'));
const expectedFailures = new Map(differences.map((d) => [d.test, d]));
const require = createRequire(import.meta.url);

// The function each variant hands the unchanged file as `require('../index')`.
const UNDER_TEST = Symbol.for('robots-eval.robots-parser-under-test');
const variants = [
  ['robots-eval/robots-parser, require()', () => require('robots-eval/robots-parser')],
  ['robots-eval/robots-parser, import', async () => (await import('robots-eval/robots-parser')).default],
  ['the override package as robots-parser, require()', () => require('robots-parser')],
  ['the override package as robots-parser, import', async () => (await import('robots-parser')).default],
];

const overrideName = JSON.parse(readFileSync(require.resolve('robots-parser/package.json'), 'utf8')).name;
const root = mkdtempSync(join(process.cwd(), 'robots-parser-suite-'));
const seen = new Map(); // test name -> outcomes

for (const [name, load] of variants) {
  const fn = await load();
  // Each variant in a folder of its own (a module is loaded once per path): robots-parser's
  // layout, CommonJS, with chai from the repository's devDependencies.
  const dir = join(root, name.replace(/\W+/g, '-'));
  mkdirSync(join(dir, 'test'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(repo, 'node_modules', 'chai'), join(dir, 'node_modules', 'chai'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(join(dir, 'index.js'), `module.exports = globalThis[Symbol.for(${JSON.stringify(UNDER_TEST.description)})];\n`);
  copyFileSync(suite, join(dir, 'test', 'Robots.js'));

  describe(name, () => {
    it('is the function itself', () => {
      assert.equal(typeof fn, 'function');
      if (name.startsWith('the override')) assert.equal(overrideName, '@robots-eval/robots-parser');
    });
    // mocha's globals, as node:test's, for the file's `describe('Robots', ...)` and its `it`s.
    globalThis.describe = describe;
    globalThis.it = (title, body) => it(title, () => {
      const expected = expectedFailures.get(title);
      let failure = null;
      try {
        body();
      } catch (e) {
        failure = e;
      }
      seen.set(title, [...(seen.get(title) ?? []), failure === null ? 'pass' : 'fail']);
      if (expected === undefined) {
        if (failure !== null) throw failure;
        return;
      }
      assert.ok(failure !== null, `robots-parser's test "${title}" passes: it is listed in differences.json as one robots-parser gets wrong; take it off the list`);
      assert.match(String(failure.message), new RegExp(expected.fails), `"${title}" fails, but not on the assertion listed (${expected.fails})`);
    });
    globalThis[UNDER_TEST] = fn;
    try {
      createRequire(join(dir, 'index.js'))('./test/Robots.js');
    } finally {
      delete globalThis.describe;
      delete globalThis.it;
    }
  });
}

describe('the override package', () => {
  it('depends on this very version of robots-eval, and has its version', () => {
    const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    const override = JSON.parse(readFileSync(join(repo, 'compat', 'robots-parser', 'package.json'), 'utf8'));
    assert.equal(override.dependencies['robots-eval'], root.version);
    assert.equal(override.version, root.version);
  });
});

describe('the list of differences', () => {
  it('names only tests of the file, each failing for every variant', () => {
    for (const title of expectedFailures.keys()) {
      assert.deepEqual(seen.get(title), variants.map(() => 'fail'), `differences.json lists "${title}"`);
    }
    const passed = [...seen].filter(([, r]) => r.every((x) => x === 'pass')).length;
    console.log(`robots-parser's ${seen.size} tests, for each of ${variants.length} ways to load the replacement: ${passed} pass, ${expectedFailures.size} fail as listed in tests/data/robots-parser/differences.json (robots-parser wrong)`);
    assert.equal(seen.size, 44, 'robots-parser\'s test file at fc27a00 has 44 tests');
  });
});

// robots-parser's conventions, beyond what its file tests: each as robots-parser 3.0.1 answers it
// (asked of the real robots-parser too, in the repository's devDependencies).
describe('robots-parser\'s conventions, asked of both', () => {
  const original = createRequire(join(repo, 'package.json'))('robots-parser');
  const ours = require('robots-eval/robots-parser');
  const text = 'User-agent: *\nDisallow: /private\nDisallow:\nCrawl-delay: 2\n\nUser-agent: MyBot\nDisallow: /mine\nAllow: /private/open\n\nSitemap: https://example.com/s.xml\nHost: Example.COM\nHost: www.example.com\n';
  const site = 'https://example.com/robots.txt';
  const questions = [
    ['isAllowed', 'https://example.com/private/x'], ['isAllowed', 'https://example.com/private/x', 'MyBot/2.1'],
    ['isAllowed', 'https://example.com/mine', 'mybot'], ['isAllowed', 'https://example.com/private/open', 'MyBot'],
    ['isAllowed', 'https://example.com/private/x', ''], ['isAllowed', 'https://example.com/x', ' MyBot '],
    ['isAllowed', 'https://example.com/mine', 'MyBot/2.1 (+https://example.com/bot)'], ['isAllowed', 'https://example.com/mine', ' MyBot /2'],
    ['isAllowed', 'https://example.com/private/x', 'Mozilla/5.0 (compatible; MyBot/2.1)'], ['isAllowed', 'https://example.com/private/x', ' /x'],
    ['isAllowed', 'https://example.com/private/x', undefined], ['isAllowed', 'https://example.com/private/x', null],
    ['isAllowed', 'http://example.com/private/x'], ['isAllowed', 'https://example.com:8443/private/x'], ['isAllowed', 'https://other.example/private/x'],
    ['isAllowed', '/private/x'], ['isAllowed', 'example.com/private/x'], ['isAllowed', 'HTTPS://EXAMPLE.com/private/x'],
    ['isAllowed', 'https://user@example.com:443/private/x'], ['isAllowed', '//example.com/private/x'], ['isAllowed', 'https://example.com'],
    ['isDisallowed', 'https://other.example/x'], ['isDisallowed', 'https://example.com/private/x'],
    ['getMatchingLineNumber', 'https://example.com/private/x'], ['getMatchingLineNumber', 'https://example.com/public'],
    ['getMatchingLineNumber', 'https://other.example/private/x'], ['getMatchingLineNumber', 'https://example.com/private/open', 'MyBot'],
    ['getCrawlDelay'], ['getCrawlDelay', 'MyBot'], ['getCrawlDelay', 'Unknown/1.0'],
    ['getSitemaps'], ['getPreferredHost'],
  ];
  for (const [method, ...args] of questions) {
    it(`${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`, () => {
      assert.deepEqual(ours(site, text)[method](...args), original(site, text)[method](...args));
    });
  }
  // One object asked for many agents in turn answers as fresh ones do: the entry reads each agent
  // once and keeps its group (js/robots-parser.js, READ_AGENTS), keyed by the agent as given.
  it('one object, agents in turn', () => {
    const agents = ['MyBot', 'MyBot/2.1', ' MyBot ', 'mybot', '', ' /x', 'Other', 'Mozilla/5.0 (compatible; MyBot/2.1)', 'MyBot'];
    const urls = ['https://example.com/mine', 'https://example.com/private/x', 'https://example.com/private/open', 'https://other.example/mine'];
    const robot = ours(site, text);
    for (let round = 0; round < 2; round++) {
      for (const agent of agents) {
        for (const url of urls) {
          const expected = original(site, text).isAllowed(url, agent);
          assert.equal(robot.isAllowed(url, agent), expected, `isAllowed(${url}, ${JSON.stringify(agent)})`);
          assert.equal(robot.isDisallowed(url, agent), expected === undefined ? true : !expected);
          assert.equal(robot.getMatchingLineNumber(url, agent), original(site, text).getMatchingLineNumber(url, agent));
        }
      }
    }
  });
  // Not in 3.0.1: robots-parser's master (fc27a00) answers these, as its source reads.
  it('isExplicitlyDisallowed, as on robots-parser\'s master', () => {
    const robot = ours(site, text);
    assert.equal(robot.isExplicitlyDisallowed('https://example.com/mine', 'MyBot'), true);
    assert.equal(robot.isExplicitlyDisallowed('https://example.com/private/x', 'OtherBot'), false);
    assert.equal(robot.isExplicitlyDisallowed('https://other.example/mine', 'MyBot'), undefined);
    assert.equal(robot.isExplicitlyDisallowed('https://example.com/mine', 'MyBot/2.1'), true);
    assert.equal(robot.isExplicitlyDisallowed('https://example.com/private/x', ''), false);
  });
  it('a URL object, null and bytes', () => {
    assert.equal(ours(new URL(site), text).isAllowed(new URL('https://example.com/private/x')), false);
    assert.equal(ours(site, null).isAllowed('https://example.com/x'), true);
    assert.equal(ours(site, new TextEncoder().encode(text)).isAllowed('https://example.com/private/x'), false);
  });
  it('contents of another type: a TypeError that says what it takes', () => {
    assert.throws(() => ours(site, 42), { name: 'TypeError', message: /contents must be a string, a Uint8Array, null or undefined, got number/ });
  });
});

// The entry in the other runtimes that install npm packages: Deno (import) and Bun (import, require).
describe('robots-eval/robots-parser in Deno and Bun', () => {
  const use = (load) => `${load}; const r = robotsParser('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /private\\n'); ` +
    "console.log(JSON.stringify([r.isAllowed('https://example.com/private/x'), r.isAllowed('https://example.com/x'), r.isAllowed('https://other.example/x') ?? 'undefined']));";
  const expected = [false, true, 'undefined'];
  const last = (out) => JSON.parse(out.toString().trim().split('\n').pop());
  const file = join(process.cwd(), 'robots-parser-entry.mjs');
  writeFileSync(file, use("import robotsParser from 'robots-eval/robots-parser'"));
  it('Deno, import', () => {
    const env = { ...process.env, DENO_DIR: mkdtempSync(join(tmpdir(), 'deno-')), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const deno = join(repo, 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
    assert.deepEqual(last(execFileSync(deno, ['run', '--quiet', '--allow-read', '--allow-env', '--no-lock', file], { env })), expected);
  });
  it('Bun, import and require', () => {
    const env = { ...process.env, BUN_INSTALL_CACHE_DIR: mkdtempSync(join(tmpdir(), 'bun-')) };
    const bun = join(repo, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun');
    assert.deepEqual(last(execFileSync(bun, ['run', file], { env })), expected);
    assert.deepEqual(last(execFileSync(bun, ['-e', use("const robotsParser = require('robots-eval/robots-parser')")], { env })), expected);
  });
});
