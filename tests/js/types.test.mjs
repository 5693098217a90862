// TypeScript: `tsc --noEmit` on a usage file against the .d.ts in the installed package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const tsc = join(process.env.ROBOTS_EVAL_REPO, 'node_modules', '.bin', 'tsc');

for (const [what, config] of [['the usage files (and their @ts-expect-error lines)', 'tsconfig.json'],
  // A program of its own: an import of 'robots-eval/rich' anywhere declares the rich calls for all of it.
  ["a program without 'robots-eval/rich': the rich calls are type errors (each @ts-expect-error fails if its line compiles)", 'tsconfig.no-rich.json']]) {
  test(`tsc --noEmit accepts ${what}`, () => {
    try {
      execFileSync(tsc, ['-p', config], { cwd: process.cwd(), stdio: 'pipe' });
    } catch (e) {
      assert.fail(`tsc -p ${config} failed:\n${e.stdout}${e.stderr}`);
    }
  });
}
