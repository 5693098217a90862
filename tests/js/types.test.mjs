// TypeScript: `tsc --noEmit` on a usage file against the .d.ts in the installed package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

test('tsc --noEmit accepts the usage file (and its @ts-expect-error lines)', () => {
  const tsc = join(process.env.ROBOTS_EVAL_REPO, 'node_modules', '.bin', 'tsc');
  try {
    execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: process.cwd(), stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
});
