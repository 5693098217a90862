// AI usage preferences through the packed npm package: the public vectors
// (tests/data/ai-preferences.json) and this project's cases (tests/data/ai-preferences-project.json,
// reasons included) give what the Rust runner (tests/ai_preferences.rs) expects; every failure is
// reported. Also the contract's shapes: parseContentUsage, table(..., { ai: true }), bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots, parseContentUsage } from 'robots-eval/rich';

const repo = process.env.ROBOTS_EVAL_REPO;
assert.ok(repo, 'ROBOTS_EVAL_REPO must name the repository (scripts/test-js.sh sets it)');
const load = (name) => JSON.parse(readFileSync(join(repo, 'tests/data', name), 'utf8')).cases;

/** Compares a case's expectations with the package's answer; returns the differences. */
function differences(c) {
  const out = [];
  const robots = Robots.parse(c.robots, { dialect: c.dialect ?? 'rfc9309' });
  try {
    const got = robots.aiPreferences(c.url, c.agent, c.header === undefined ? undefined : { header: c.header });
    const e = c.expected;
    const same = (what, a, b) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${c.name}: ${what} ${JSON.stringify(a)}, expected ${JSON.stringify(b)}`);
    };
    same('allowed', got.allowed, e.allowed);
    for (const [field, gotField] of [['content_usage', got.contentUsage], ['header_usage', got.headerUsage], ['combined', got.combined]]) {
      for (const [label, value] of Object.entries(e[field] ?? {})) same(`${field} ${label}`, gotField?.[label], value);
    }
    for (const [label, text] of Object.entries(e.why ?? {})) same(`why ${label}`, got.why.contentUsage[label].text, text);
    for (const [label, text] of Object.entries(e.combined_why ?? {})) same(`combined why ${label}`, got.why.combined[label].text, text);
    if ('content_signal' in e) {
      const want = e.content_signal;
      const picked = got.contentSignal === null || want === null ? got.contentSignal : Object.fromEntries(Object.keys(want).map((k) => [k, got.contentSignal[k]]));
      same('content_signal', picked, want);
    }
    for (const [key, line] of Object.entries(e.signal_lines ?? {})) same(`signal line ${key}`, got.why.contentSignal[key], line);
    for (const [line, key, value] of e.extras ?? []) {
      same(`extra ${key}`, [got.contentSignal[key], got.why.contentSignal[key]], [value, line]);
    }
  } finally {
    robots.free();
  }
  return out;
}

for (const file of ['ai-preferences.json', 'ai-preferences-project.json']) {
  test(`${file}: the answers and reasons the Rust runner expects`, () => {
    const cases = load(file).filter((c) => c.robots !== undefined);
    const failed = cases.flatMap(differences);
    console.log(`${file}: ${cases.length} robots.txt cases, ${failed.length} differences`);
    assert.deepEqual(failed, []);
  });
}

test('ai-preferences.json: the header cases through parseContentUsage', () => {
  const failed = [];
  const cases = load('ai-preferences.json').filter((c) => c.header !== undefined);
  for (const c of cases) {
    const got = parseContentUsage(c.header);
    for (const [label, value] of Object.entries(c.expected.content_usage)) {
      if (got[label] !== value) failed.push(`${c.name}: ${label} ${got[label]}, expected ${value}`);
    }
  }
  console.log(`header cases: ${cases.length}, ${failed.length} differences`);
  assert.deepEqual(failed, []);
});

test('the contract: every category known, -08 ai-use included; reasons with their parts', () => {
  const robots = Robots.parse('User-agent: *\nContent-Usage: train-ai=n, Search=y\nContent-Signal: search=yes, ai-train=no, use=reference\n');
  const p = robots.aiPreferences('https://example.com/x', 'AnyBot', { header: ['ai-use=n', 'search=y'] });
  assert.deepEqual(Object.keys(p.contentUsage), ['train-ai', 'ai-use', 'search']);
  assert.deepEqual(p.contentUsage, { 'train-ai': null, 'ai-use': null, search: null });
  assert.deepEqual(p.why.contentUsage['train-ai'], {
    code: 'malformed', line: 2, offset: 12, failure: "a key must start with a-z or '*'",
    text: "line 2: the statement did not parse (at byte 12: a key must start with a-z or '*')",
  });
  assert.deepEqual(p.headerUsage, { 'train-ai': null, 'ai-use': 'n', search: 'y' });
  assert.deepEqual(p.combined, { 'train-ai': null, 'ai-use': 'n', search: 'y' });
  assert.equal(p.why.combined.search.text, 'stated by the Content-Usage header');
  assert.deepEqual(p.contentSignal, { search: 'yes', 'ai-input': null, 'ai-train': 'no', use: 'reference' });
  assert.deepEqual(p.why.contentSignal, { search: 3, 'ai-input': null, 'ai-train': 3, use: 3 });
  assert.deepEqual(parseContentUsage('train-ai=n, ai-use=y'), { 'train-ai': 'n', 'ai-use': 'y', search: null });
  const table = robots.table(['/a', '/b'], ['AnyBot', 'Other'], { ai: true });
  assert.equal(table.ai.length, 2);
  assert.deepEqual(table.ai[1][0], robots.aiPreferences('/b', 'AnyBot'));
  assert.equal(robots.table(['/a'], ['x']).ai, undefined);
  robots.free();
});

test('bad input is a TypeError that says what was wrong', () => {
  const robots = Robots.parse('User-agent: *\n');
  assert.throws(() => robots.aiPreferences('/x', 'bot', { header: 42 }), /Content-Usage header must be a string or an array of strings/);
  assert.throws(() => robots.aiPreferences('/x', 'bot', { headers: 'x' }), /unknown option "headers"/);
  assert.throws(() => robots.aiPreferences('/x', 7), TypeError);
  assert.throws(() => parseContentUsage(['a', 1]), TypeError);
  assert.throws(() => robots.table(['/x'], ['a'], { AI: true }), /unknown option "AI"/);
  robots.free();
  assert.throws(() => robots.aiPreferences('/x', 'bot'), /freed/);
});
