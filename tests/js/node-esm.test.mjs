// Node, ESM: `import { Robots } from 'robots-eval'` from the installed tarball.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Robots } from 'robots-eval';
import DefaultRobots from 'robots-eval';
import { smoke } from './smoke.mjs';

test('Node ESM: the whole API', () => {
  assert.deepEqual(smoke(Robots), []);
  assert.equal(DefaultRobots, Robots);
});

test('Node ESM resolves the ESM entry and CommonJS the CommonJS one', () => {
  const require = createRequire(import.meta.url);
  assert.match(import.meta.resolve('robots-eval'), /robots-eval\/pkg\/index\.js$/);
  assert.match(require.resolve('robots-eval'), /robots-eval\/pkg\/index\.cjs$/);
});

test('using: Symbol.dispose frees', () => {
  const robots = Robots.parse('User-agent: *\nDisallow: /\n');
  assert.equal(typeof robots[Symbol.dispose], 'function');
  robots[Symbol.dispose]();
  assert.equal(robots.freed, true);
  robots.free(); // twice: nothing happens
});

test('every dialect parses', () => {
  assert.deepEqual(Robots.dialects, ['rfc9309', 'google', 'draft1996', 'original1994', 'revisited']);
  for (const dialect of Robots.dialects) {
    const r = Robots.parse('User-agent: *\nAllow: /a\nDisallow: /\n', { dialect: dialect.toUpperCase() });
    assert.equal(r.dialect, dialect);
    assert.equal(r.isAllowed('/b', 'bot'), false, dialect);
    r.free();
  }
  const allow = (dialect) => Robots.parse('User-agent: *\nAllow: /a\nDisallow: /\n', { dialect }).isAllowed('/a', 'bot');
  assert.equal(allow('rfc9309'), true);
  assert.equal(allow('original1994'), false); // the 1994 standard has no Allow
});

test('URL objects and non-ASCII in table()', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /ä\nDisallow: /ü$\n');
  const t = r.table([new URL('https://e.com/%C3%A4x'), '/ü', '/üx', '😀/a'], ['bot', 'Bötchen', '']);
  assert.deepEqual(t.allowed, [[false, false, false], [false, false, false], [true, true, true], [true, true, true]]);
  assert.equal(t.urls[0], 'https://e.com/%C3%A4x');
  r.free();
});

test('maxBytes truncates (and says so)', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /a\nDisallow: /b\n', { maxBytes: 27 });
  assert.equal(r.truncated, true);
  assert.equal(r.isAllowed('/a', 'x'), false);
  assert.equal(r.isAllowed('/b', 'x'), true);
  assert.ok(r.diagnostics.some((d) => d.code === 'truncated'));
  r.free();
});
