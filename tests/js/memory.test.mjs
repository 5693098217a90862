// Memory: a million parse/query/free cycles leave the wasm memory flat, and objects that are
// never freed are reclaimed by the FinalizationRegistry backstop. Needs node --expose-gc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots } from 'robots-eval/rich';

const MEMORY = Symbol.for('robots-eval.memoryBytes');
const TEXT = 'User-agent: FooBot\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /*.php$\nSitemap: https://example.com/s.xml\n';

test('1,000,000 parse/query/free cycles: the wasm memory stays flat', () => {
  const cycle = (i) => {
    const r = Robots.parse(TEXT);
    r.isAllowed(`/private/${i}`, 'FooBot');
    r.explain(`/x${i}.php`, 'Other');
    r.free();
  };
  for (let i = 0; i < 10000; i++) cycle(i); // warm up: the allocator reaches its working size
  const start = Robots[MEMORY];
  const t0 = performance.now();
  for (let i = 0; i < 1000000; i++) cycle(i);
  const end = Robots[MEMORY];
  console.log(`wasm memory: ${start} bytes at the start, ${end} bytes after 1,000,000 cycles (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  assert.equal(end, start);
});

test('objects never freed are reclaimed by the FinalizationRegistry', async () => {
  assert.equal(typeof globalThis.gc, 'function', 'run with node --expose-gc');
  const big = 'User-agent: *\n' + Array.from({ length: 2000 }, (_, i) => `Disallow: /p${i}/*x$\n`).join('');
  let collected = 0;
  const watch = new FinalizationRegistry(() => collected++);
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await settle();
  const start = Robots[MEMORY];
  const ROUNDS = 20, PER_ROUND = 200;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < PER_ROUND; i++) {
      const leaked = Robots.parse(big); // ~60 KB of wasm memory each, never freed
      leaked.isAllowed('/p1/ax', 'bot');
      watch.register(leaked, null);
    }
    await settle();
  }
  const end = Robots[MEMORY];
  const perObject = 60 * 1024;
  console.log(`${ROUNDS * PER_ROUND} objects never freed: ${collected} reclaimed; wasm memory ${start} -> ${end} bytes (never reclaimed, that would be about ${ROUNDS * PER_ROUND * perObject} bytes)`);
  assert.ok(collected > ROUNDS * PER_ROUND * 0.9, `only ${collected} reclaimed`);
  assert.ok(end - start < 64 * 1024 * 1024, `memory grew by ${end - start}`);
});
