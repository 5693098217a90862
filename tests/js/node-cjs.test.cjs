// Node, CommonJS: `require('robots-eval')` from the installed tarball.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Robots } = require('robots-eval');

test('Node CommonJS: the whole API', async () => {
  const { smoke } = await import('./smoke.mjs');
  assert.deepEqual(smoke(Robots), []);
  assert.equal(require('robots-eval').default, Robots);
});
