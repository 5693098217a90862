// Node, CommonJS: `require('robots-eval')` (and 'robots-eval/rich') from the installed tarball.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Robots } = require('robots-eval/rich');

test('Node CommonJS: the whole API', async () => {
  const { smoke } = await import('./smoke.mjs');
  assert.deepEqual(smoke(require('robots-eval/rich')), []);
  assert.equal(require('robots-eval/rich').default, Robots);
});

test('Node CommonJS: RobotRules and fetchRobots are exported too', () => {
  const { RobotRules, fetchRobots } = require('robots-eval');
  assert.equal(typeof fetchRobots, 'function');
  assert.equal(typeof RobotRules, 'function');
  const rules = new RobotRules('Bot');
  rules.parse('https://a.example/robots.txt', 'User-agent: *\nDisallow: /x\n');
  assert.equal(rules.allowed('https://a.example/x'), false);
  assert.equal(rules.allowed('https://a.example/y'), true);
  assert.equal(Object.prototype.toString.call(rules), '[object RobotRules]');
  rules.clear();
});

// The entries Node itself does not pick, by file: what runtimes and resolvers without the `node`
// condition (and `require`-only ones) get. Each passes the smoke check on its own instance.
test('every entry file of the package passes the smoke check', async () => {
  const { smoke, smokeVerdict } = await import('./smoke.mjs');
  const { join, dirname } = require('node:path');
  const { pathToFileURL } = require('node:url');
  const dir = dirname(require.resolve('robots-eval'));
  // Each with its rich calls installed (what 'robots-eval/rich' does for the entry Node picks).
  const rich = (pkg) => {
    pkg.installRich();
    return pkg;
  };
  for (const file of ['index.cjs', 'node.cjs']) assert.deepEqual(smoke(rich(require(join(dir, file)))), [], file);
  for (const file of ['index.js', 'node.js']) assert.deepEqual(smoke(rich(await import(pathToFileURL(join(dir, file)).href))), [], file);
  // The 'robots-eval/verdict' entry's files.
  for (const file of ['verdict.cjs', 'verdict-node.cjs']) assert.deepEqual(smokeVerdict(require(join(dir, file))), [], file);
  for (const file of ['verdict.js', 'verdict-node.js']) assert.deepEqual(smokeVerdict(await import(pathToFileURL(join(dir, file)).href)), [], file);
  assert.deepEqual(smokeVerdict(require('robots-eval/verdict')), [], "require('robots-eval/verdict')");
  // 'robots-eval/rich', which imports the package by name.
  assert.deepEqual(smoke(require(join(dir, 'rich.cjs'))), [], 'rich.cjs');
  assert.deepEqual(smoke(await import(pathToFileURL(join(dir, 'rich.js')).href)), [], 'rich.js');
});
