// A parsed file does some of its work on first use: a crawler's rule set is compiled by its first
// query (src/compile.rs) and the rule findings are made when the diagnostics are first read
// (src/lint.rs). With a large file that work needs more memory than the module has free, so the
// memory grows inside the call, which detaches every view of the old buffer: `table` once read
// its cells through a view made before its call and threw "Cannot perform Construct on a
// detached ArrayBuffer". Its own file, so the module's memory starts small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots } from 'robots-eval/rich';

const MEMORY = Symbol.for('robots-eval.memoryBytes');

/** A file of `rules` rules for three crawlers; with `twice`, each rule written twice. */
function file(rules, twice) {
  const lines = ['User-agent: a', 'User-agent: b', 'User-agent: c'];
  for (let i = 0; i < rules; i++) {
    lines.push(`Disallow: /d${i}/*.php$`);
    if (twice) lines.push(`Disallow: /d${i}/*.php$`); // a finding: duplicate-rule
  }
  return lines.join('\n') + '\n';
}

test('first uses that grow the memory mid-call: table, isAllowed, explain, diagnostics', () => {
  const kept = [];
  let rules = 50_000;
  for (const first of ['table', 'isAllowed', 'explain', 'diagnostics']) {
    // Twice the rules each time, the earlier files kept: the first use must grow the memory.
    // (Each duplicate is a finding with its own text: the findings need more than the rules.)
    const r = Robots.parse(file(rules, first === 'diagnostics'), { maxBytes: Infinity });
    kept.push(r);
    const before = Robots[MEMORY];
    if (first === 'table') {
      assert.deepEqual(r.table(['/d7/x.php', '/e'], ['a']).allowed, [[false], [true]]);
    } else if (first === 'isAllowed') {
      assert.equal(r.isAllowed('/d7/x.php', 'b'), false);
    } else if (first === 'explain') {
      assert.equal(r.explain('/d9/x.php', 'c').line, 13);
    } else {
      const found = r.diagnostics.filter((d) => d.code === 'duplicate-rule');
      assert.equal(found.length, rules);
      assert.deepEqual([found[0].line, found.at(-1).line], [5, 2 * rules + 3]);
    }
    // (explain and diagnostics are the rich module's, which reads the file again into its own
    // memory: wasm-bindgen's glue reads it through fresh views after each call.)
    if (first === 'table' || first === 'isAllowed') assert.ok(Robots[MEMORY] > before, `${first}: the memory grew in the call (${before} bytes before)`);
    assert.equal(r.isAllowed('/d9/x.php', 'a'), false);
    assert.deepEqual(r.table(['/d9/x.php'], ['c']).allowed, [[false]]);
    rules *= 2;
  }
  for (const r of kept) r.free();
});
