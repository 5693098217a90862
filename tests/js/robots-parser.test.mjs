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
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
