// The figures docs/robots-parser.md and the README publish for robots-eval/robots-parser against
// robots-parser over the real-world corpus are what scripts/robots-parser-corpus.mjs prints now
// (it runs on the repository's pkg/ and robots-parser 3.0.1). Skipped without ../shared/corpus
// (ROBOTS_EVAL_CORPUS names another copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const repo = process.env.ROBOTS_EVAL_REPO;
const corpus = process.env.ROBOTS_EVAL_CORPUS ?? join(repo, '..', 'shared', 'corpus');
const absent = !existsSync(join(corpus, 'urls.txt'));

test('docs/robots-parser.md publishes what the corpus comparison prints, and the README points at it', { skip: absent && `SKIPPED: ${corpus} is absent`, timeout: 600_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [join(repo, 'scripts', 'robots-parser-corpus.mjs'), '--corpus', corpus], { cwd: repo, maxBuffer: 1 << 24 });
  const doc = readFileSync(join(repo, 'docs', 'robots-parser.md'), 'utf8');
  const [summary] = stdout.split('\n');
  const table = stdout.slice(stdout.indexOf('| class |'), stdout.indexOf('\n\n', stdout.indexOf('| class |')));
  assert.ok(doc.includes(summary), `docs/robots-parser.md does not have: ${summary}`);
  assert.ok(doc.includes(table), `docs/robots-parser.md does not have this table:\n${table}`);
  // The README points at the script and the document (it states no figure of its own; any count
  // it does state must be this run's).
  const readme = readFileSync(join(repo, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  assert.ok(readme.includes('scripts/robots-parser-corpus.mjs') && readme.includes('docs/robots-parser.md'), 'the README names neither the comparison script nor docs/robots-parser.md');
  const total = Number(/(\d+) different answers/.exec(summary)[1]).toLocaleString('en');
  for (const [, n] of readme.matchAll(/([\d,]+) answers differ/g)) assert.equal(n, total, `the README says ${n} answers differ; the comparison prints ${total}`);
});
