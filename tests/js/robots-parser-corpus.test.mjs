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

test('docs/robots-parser.md and the README publish what the corpus comparison prints', { skip: absent && `SKIPPED: ${corpus} is absent`, timeout: 600_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [join(repo, 'scripts', 'robots-parser-corpus.mjs'), '--corpus', corpus], { cwd: repo, maxBuffer: 1 << 24 });
  const doc = readFileSync(join(repo, 'docs', 'robots-parser.md'), 'utf8');
  const [summary] = stdout.split('\n');
  const table = stdout.slice(stdout.indexOf('| class |'), stdout.indexOf('\n\n', stdout.indexOf('| class |')));
  assert.ok(doc.includes(summary), `docs/robots-parser.md does not have: ${summary}`);
  assert.ok(doc.includes(table), `docs/robots-parser.md does not have this table:\n${table}`);
  // The README's summary: the total and each class's count.
  const readme = readFileSync(join(repo, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const total = Number(/(\d+) different answers/.exec(summary)[1]).toLocaleString('en');
  assert.ok(readme.includes(`${total} answers differ`), `the README does not say ${total} answers differ`);
  for (const [, id, n] of table.matchAll(/^\| `([\w-]+)`: .*? \| (\d+) \|/gm)) {
    assert.ok(readme.includes(`(${Number(n).toLocaleString('en')})`) || readme.includes(`; ${Number(n).toLocaleString('en')}`) || readme.includes(`${n} more`), `the README does not give the count of ${id} (${n})`);
  }
});
