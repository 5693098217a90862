// robots-eval/robots-parser without free(), as robots-parser's users hold it (Crawlee keeps up to
// 1,000 parsed files per crawler and never lets go): 100,000 files parsed in a loop that awaits now
// and then, 1,000 alive at any time, each asked on arrival and again later. The entry keeps at
// most 1,024 files (and 8 MiB of their text) parsed in the WebAssembly memory and parses an
// evicted one again when it is asked; so the memory stays under the limits below, where a Robots
// never freed would hold every file (memory-unfreed.test.mjs). A file of its own: a fresh process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import robotsParser from 'robots-eval/robots-parser';
import { Robots } from 'robots-eval';

const MEMORY = Symbol.for('robots-eval.memoryBytes');
/** The limits this test holds the process to. */
const WASM_LIMIT = 64 * 1024 * 1024;
const RSS_LIMIT = 256 * 1024 * 1024;
const FILES = 100_000;
const ALIVE = 1_000;

/** A file of its own for each i (about 2 KB): nothing is shared between files. */
const fileOf = (i) => `User-agent: *\n${Array.from({ length: 60 }, (_, k) => `Disallow: /f${i}/section-${k}/*.php$\n`).join('')}Allow: /f${i}/section-7/open\n`;

test(`${FILES.toLocaleString('en')} files parsed without free(), ${ALIVE.toLocaleString('en')} alive at a time: the memory stays bounded`, async () => {
  const alive = new Array(ALIVE).fill(null);
  let maxWasm = 0;
  let maxRss = 0;
  let wasmAtHalf = 0;
  const started = performance.now();
  for (let i = 0; i < FILES; i++) {
    const robot = robotsParser(`https://site${i}.example/robots.txt`, fileOf(i));
    assert.equal(robot.isAllowed(`https://site${i}.example/f${i}/section-3/x.php`, 'MyCrawler'), false);
    // The one it replaces, asked once more before it is dropped (its file may have been parsed
    // again since: the answers must not change).
    const old = alive[i % ALIVE];
    if (old !== null) {
      const j = i - ALIVE;
      assert.equal(old.isAllowed(`https://site${j}.example/f${j}/section-7/open`, 'MyCrawler'), true);
      assert.equal(old.isAllowed(`https://site${j}.example/f${j}/section-9/y.php`), false);
    }
    alive[i % ALIVE] = robot;
    if (i % 100 === 99) {
      // A crawler awaits its fetches between files.
      await new Promise((resolve) => setImmediate(resolve));
      const wasm = Robots[MEMORY];
      const rss = process.memoryUsage().rss;
      maxWasm = Math.max(maxWasm, wasm);
      maxRss = Math.max(maxRss, rss);
      if (i === FILES / 2 - 1) wasmAtHalf = wasm;
    }
  }
  const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(`${FILES} files of ${fileOf(0).length} bytes, ${ALIVE} alive, never freed, in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
    `WebAssembly memory at most ${mb(maxWasm)} (${mb(wasmAtHalf)} half way; limit ${mb(WASM_LIMIT)}), process RSS at most ${mb(maxRss)} (limit ${mb(RSS_LIMIT)})`);
  assert.ok(maxWasm <= WASM_LIMIT, `WebAssembly memory reached ${mb(maxWasm)}`);
  assert.ok(maxRss <= RSS_LIMIT, `RSS reached ${mb(maxRss)}`);
  // Bounded, not merely slow to grow: the second half of the run added nothing.
  assert.equal(Robots[MEMORY], wasmAtHalf, 'the WebAssembly memory grew in the second half of the run');
});

test('a file evicted from the WebAssembly memory is parsed again when asked, with the same answers', async () => {
  // 3,000 alive, more than the entry keeps parsed (1,024): asking them round-robin parses them again.
  const robots = Array.from({ length: 3000 }, (_, i) => robotsParser(`https://site${i}.example/robots.txt`, fileOf(i)));
  for (let round = 0; round < 3; round++) {
    robots.forEach((robot, i) => {
      assert.equal(robot.isAllowed(`https://site${i}.example/f${i}/section-3/x.php`, 'MyCrawler'), false);
      assert.equal(robot.isAllowed(`https://site${i}.example/f${i}/section-7/open`), true);
      assert.equal(robot.getMatchingLineNumber(`https://site${i}.example/f${i}/section-7/open`), 62);
      assert.equal(robot.isAllowed(`https://site${i + 1}.example/f${i}/section-3/x.php`), undefined);
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
});
