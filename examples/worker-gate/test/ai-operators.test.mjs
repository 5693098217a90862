// The gate's AI crawler table is the package's one operator table (src/aipref/operators.rs):
// src/ai-operators.js is generated from it (scripts/ai-operators.mjs) and must not drift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OUT, RUST, readOperators, render } from '../scripts/ai-operators.mjs';
import { OPERATORS } from '../src/ai-operators.js';
import { AI_CRAWLERS, aiCrawlerTable } from '../src/ai-crawlers.js';
import { tokenFinder } from '../src/product-tokens.js';

test('src/ai-operators.js is generated from src/aipref/operators.rs (node scripts/ai-operators.mjs)', () => {
  assert.equal(readFileSync(OUT, 'utf8'), render(readOperators(readFileSync(RUST, 'utf8'))));
});

test("the reader fails on a row it cannot read, rather than dropping it", () => {
  const rust = readFileSync(RUST, 'utf8').replace('row("GPTBot", "OpenAI", Kind::Crawler, T, true, OPENAI)', 'row("GPTBot", "OpenAI", Kind::Crawler, T, true, "inline")');
  assert.throws(() => readOperators(rust), /read 26 rows of OPERATORS, the array declares 27/);
});

test('the gate keys every token a User-Agent sends; control tokens and rows without a purpose are left out', () => {
  const keys = AI_CRAWLERS.map((r) => r.token);
  assert.ok(keys.includes('GPTBot') && keys.includes('Googlebot') && keys.includes('Amzn-SearchBot'));
  assert.ok(!keys.includes('Google-Extended') && !keys.includes('facebookexternalhit'));
  assert.equal(AI_CRAWLERS.length, OPERATORS.filter((r) => r.kind !== 'control-token' && r.purposes.length > 0).length);
  const table = aiCrawlerTable([{ token: 'GPTBot', purposes: ['training', 'search'] }, { token: 'Acme-Fetch', purposes: ['user-input'] }]);
  const find = tokenFinder(table, 'rfc9309');
  assert.deepEqual(find('Mozilla/5.0 (compatible; GPTBot/1.3)').purposes, ['train-ai', 'search']);
  assert.equal(find('Acme-Fetch/1').kind, 'user-fetcher');
  assert.throws(() => aiCrawlerTable([{ token: 'X', purposes: ['train-ai'], kind: 'robot' }]), /kind among crawler, user-fetcher/);
});
