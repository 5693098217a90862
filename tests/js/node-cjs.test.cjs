// Node, CommonJS: `require('robots-eval')` from the installed tarball.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Robots } = require('robots-eval');

test('Node CommonJS: the whole API', async () => {
  const { smoke } = await import('./smoke.mjs');
  assert.deepEqual(smoke(Robots), []);
  assert.equal(require('robots-eval').default, Robots);
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
