// README.md, "Memory": the FinalizationRegistry cannot help a synchronous loop. Its callbacks
// run only between jobs, so every file parsed and dropped in one loop stays in the wasm memory
// until the loop ends. A file of its own: a fresh process, whose memory has no free room that
// other tests left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots } from 'robots-eval/rich';

const MEMORY = Symbol.for('robots-eval.memoryBytes');

test('a synchronous loop that never frees grows the wasm memory by every file it parsed', () => {
  const text = 'User-agent: *\n' + Array.from({ length: 200 }, (_, i) => `Disallow: /section-${i}/*.php$\n`).join('');
  const N = 2000;
  Robots.parse(text).free();
  const start = Robots[MEMORY];
  for (let i = 0; i < N; i++) Robots.parse(text).isAllowed(`/section-${i % 200}/x.php`, 'bot'); // never freed
  const grown = Robots[MEMORY] - start;
  console.log(`${N} files of ${text.length} bytes parsed in one synchronous loop and never freed: wasm memory ${start} -> ${start + grown} bytes (+${(grown / N / text.length).toFixed(1)}x each file's size); memory.test.mjs: with free(), flat`);
  assert.ok(grown >= N * text.length, `grew by only ${grown}`);
});
