// The command (package.json "bin") as a user runs it after `npm i robots-eval`: the packed
// package installed in this scratch project (scripts/test-js.sh), its bin in node_modules/.bin,
// and through npx. Every case of tests/data/cli-cases.json is run against it and against the
// native binary (cargo build --release --features cli): both must print exactly what the case says.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { runCase } from './cli-cases.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const { cases } = JSON.parse(readFileSync(join(repo, 'tests', 'data', 'cli-cases.json'), 'utf8'));
const bin = join(process.cwd(), 'node_modules', '.bin', 'robots-eval');
const native = join(repo, 'target', 'release', 'robots-eval');

/** Runs every case with `command`; reports every failure at once. */
async function runAll(command) {
  const failures = [];
  for (const c of cases) {
    const { problems } = await runCase(c, command);
    if (problems.length) failures.push(`${c.name} (${c.args.join(' ')}):\n  ${problems.join('\n  ')}`);
  }
  console.log(`${command.at(-1)}: ${cases.length} cases, ${failures.length} failed`);
  assert.deepEqual(failures, []);
}

test('the installed package has the bin, inside the package, running the package\'s own wasm', () => {
  assert.ok(existsSync(bin), 'node_modules/.bin/robots-eval');
  const target = realpathSync(bin);
  assert.match(target, /node_modules[/\\]robots-eval[/\\]pkg[/\\]cli\.mjs$/);
  // It imports 'robots-eval' by name: the same module the library's users get.
  assert.match(readFileSync(target, 'utf8'), /from 'robots-eval'/);
});

test('npm bin: every case of tests/data/cli-cases.json', async () => {
  await runAll([bin]);
});

test('npx robots-eval (offline, the installed package)', () => {
  const run = (args, input) => spawnSync('npx', ['--offline', '--no-install', 'robots-eval', ...args], { input, encoding: 'utf8' });
  const version = run(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^robots-eval \d+\.\d+\.\d+\n$/);
  const robots = 'User-agent: *\nDisallow: /private/\n';
  const check = run(['check', '-', '/private/x', '/public', '--agent', 'Bot', '--json'], robots);
  // A disallowed answer: exit status 1, through npx too.
  assert.equal(check.status, 1, check.stderr);
  assert.deepEqual(JSON.parse(check.stdout).map((a) => [a.url, a.allowed, a.line]), [['/private/x', false, 2], ['/public', true, 0]]);
  assert.equal(run(['check', '-', '/public', '-a', 'Bot'], robots).status, 0);
  const bad = run(['lint', 'missing.txt']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'robots-eval: <robots>: cannot read missing.txt: no such file\n');
});

test('native CLI: the same cases, the same output', async (t) => {
  if (!existsSync(native)) {
    t.skip('SKIPPED: the native CLI is not built (scripts/test-js.sh builds it with cargo build --release --features cli)');
    return;
  }
  await runAll([native]);
});
