// The command (package.json "bin") as a user runs it after `npm i robots-eval`: the packed
// package installed in this scratch project (scripts/test-js.sh), its bin in node_modules/.bin,
// and through npx. Every case of tests/data/cli-cases.json is run against it and against the
// native binary (cargo build --release --features cli): both must print exactly what the case says.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { runCase } from './cli-cases.mjs';

const repo = process.env.ROBOTS_EVAL_REPO;
const { cases } = JSON.parse(readFileSync(join(repo, 'tests', 'data', 'cli-cases.json'), 'utf8'));
const bin = join(process.cwd(), 'node_modules', '.bin', 'robots-eval');
const native = join(repo, 'target', 'release', 'robots-eval');

/** Runs `list` (every case) with `command`; reports every failure at once. Returns npm's own stderr lines. */
async function runAll(command, options = {}, list = cases) {
  const failures = [];
  const npmLines = [];
  for (const c of list) {
    const { problems, npmLines: lines } = await runCase(c, command, options);
    npmLines.push(...lines);
    if (problems.length) failures.push(`${c.name} (${c.args.join(' ')}):\n  ${problems.join('\n  ')}`);
  }
  console.log(`${command.join(' ')}: ${list.length} cases, ${failures.length} failed`);
  assert.deepEqual(failures, []);
  return npmLines;
}

/**
 * A user's npm configuration that makes npm print warnings of its own on stderr (npm 11: "npm
 * warn Unknown user config ..." for a key it does not know, such as the `nodedir` of older npm
 * versions). Through npx, our output must still be exactly ours.
 */
function noisyNpmrc() {
  const dir = mkdtempSync(join(tmpdir(), 'robots-eval-npmrc-'));
  writeFileSync(join(dir, 'npmrc'), 'nodedir=/nonexistent/node-headers\nrobots-eval-test-unknown-key=1\n');
  return { dir, env: { NPM_CONFIG_USERCONFIG: join(dir, 'npmrc') } };
}

test('the installed package has the bin, inside the package, running the package\'s own wasm', () => {
  assert.ok(existsSync(bin), 'node_modules/.bin/robots-eval');
  const target = realpathSync(bin);
  assert.match(target, /node_modules[/\\]robots-eval[/\\]pkg[/\\]cli\.mjs$/);
  // It imports the package by name ('robots-eval/rich': it explains and lints): the same module the library's users get.
  assert.match(readFileSync(target, 'utf8'), /from ["']robots-eval\/rich["']/);
});

test('npm bin: every case of tests/data/cli-cases.json', async () => {
  await runAll([bin]);
});

test('npx robots-eval (offline, the installed package), under an npm configuration that prints warnings', (t) => {
  const npmrc = noisyNpmrc();
  const raw = (args, input) => spawnSync('npx', ['--offline', '--no-install', 'robots-eval', ...args], { input, encoding: 'utf8', env: { ...process.env, ...npmrc.env } });
  // Our output is what is left when npm's own lines are taken out.
  const npmLines = [];
  const run = (args, input) => {
    const r = raw(args, input);
    npmLines.push(...(r.stderr.match(/^npm (warn|notice) .*\n/gm) ?? []));
    return { ...r, stderr: r.stderr.replace(/^npm (warn|notice) .*\n/gm, '') };
  };
  t.after(() => rmSync(npmrc.dir, { recursive: true, force: true }));
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
  // The configuration did make npm speak: the checks above really separated its lines from ours.
  assert.match(npmLines.join(''), /^npm warn Unknown user config "robots-eval-test-unknown-key"/m);
});

test('npx robots-eval: the cases of tests/data/cli-cases.json, one of each command and exit status, under an npm configuration that prints warnings', async (t) => {
  const npmrc = noisyNpmrc();
  t.after(() => rmSync(npmrc.dir, { recursive: true, force: true }));
  // npx costs about a second a run: the first case of each command and exit status (every case
  // runs through the bin above; what npx adds is npm's start and its lines on stderr).
  const seen = new Set();
  const some = cases.filter((c) => !seen.has(`${c.args[0]} ${c.exit}`) && seen.add(`${c.args[0]} ${c.exit}`));
  // npx finds the package installed in this scratch project (the cases run in other directories).
  const npmLines = await runAll(['npx', '--offline', '--no-install', '--prefix', process.cwd(), 'robots-eval'], { env: npmrc.env, viaNpm: true }, some);
  assert.ok(npmLines.length >= some.length, `npm printed ${npmLines.length} warnings over ${some.length} cases`);
});

test('native CLI: the same cases, the same output', async (t) => {
  if (!existsSync(native)) {
    t.skip('SKIPPED: the native CLI is not built (scripts/test-js.sh builds it with cargo build --release --features cli)');
    return;
  }
  await runAll([native]);
});

test('a gzipped sitemap past the protocol\'s 50 MB (a gzip bomb) is an input error, in both builds', () => {
  const dir = mkdtempSync(join(process.cwd(), 'bomb-'));
  try {
    // 52,428,801 bytes of XML in about 51 KB.
    const xml = Buffer.alloc(52428801, ' ');
    xml.write('<urlset>');
    writeFileSync(join(dir, 'bomb.xml.gz'), gzipSync(xml, { level: 9 }));
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /x\n');
    for (const command of [bin, ...(existsSync(native) ? [native] : [])]) {
      const r = spawnSync(command, ['table', 'robots.txt', '--sitemap', 'bomb.xml.gz', '-a', 'Bot'], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 2, `${command}: ${r.stderr}`);
      assert.equal(r.stderr, "robots-eval: --sitemap: bomb.xml.gz: larger than 52,428,800 bytes, the sitemap protocol's limit\n");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('progress on standard error for a long run when it is a terminal, nothing when it is not, in both builds', () => {
  const dir = mkdtempSync(join(process.cwd(), 'progress-'));
  try {
    // 12,000 URLs: more than the npm command asks of the package at a time (5,000).
    const urls = Array.from({ length: 12000 }, (_, i) => `  <url><loc>https://example.com/p/${i}</loc></url>\n`).join('');
    writeFileSync(join(dir, 'sitemap.xml'), `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`);
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /p/1\n');
    for (const command of [bin, ...(existsSync(native) ? [native] : [])]) {
      for (const sub of ['table', 'coverage']) {
        const args = [sub, 'robots.txt', '--sitemap', 'sitemap.xml', '-a', 'Bot'];
        // Not a terminal (a pipe): only the output, nothing on stderr.
        const quiet = spawnSync(command, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
        assert.equal(quiet.status, 0, quiet.stderr);
        assert.equal(quiet.stderr, '', `${command} ${sub}: stderr when it is not a terminal`);
        // A terminal: util-linux script(1) gives the command a pseudo-terminal; stdout goes to a
        // file, so what script prints is standard error alone.
        const shell = [command, ...args].map((a) => `'${a}'`).join(' ');
        const tty = spawnSync('script', ['-qfec', `${shell} > out.txt`, '/dev/null'], { cwd: dir, encoding: 'utf8' });
        assert.equal(tty.status, 0, tty.stdout);
        assert.match(tty.stdout, /\rrobots-eval: sitemaps: 1 read, 12,000 URLs/, `${command} ${sub}: progress on a terminal`);
        // The progress line is cleared at the end; the output is the same as without a terminal.
        assert.ok(tty.stdout.endsWith('\r\x1b[K'), JSON.stringify(tty.stdout.slice(-40)));
        assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), quiet.stdout);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The `run:` commands of a GitHub Actions workflow, in order (`run: cmd` and `run: |` blocks). */
function runCommands(yaml) {
  const lines = yaml.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:- )?run: (.*)$/.exec(line);
    if (!m) return;
    if (m[2] !== '|') return out.push(m[2]);
    const block = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || /^\s*/.exec(lines[j])[0].length > m[1].length); j++) block.push(lines[j]);
    const indent = Math.min(...block.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
    out.push(block.map((l) => l.slice(indent)).join('\n'));
  });
  return out;
}

test('the GitHub Actions workflow of the README: its steps pass on a good change; the expectations fail on a bad one', () => {
  const readme = readFileSync(join('node_modules', 'robots-eval', 'pkg', 'README.md'), 'utf8');
  const yaml = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(yaml, 'pkg/README.md has a yaml block');
  const steps = runCommands(yaml);
  assert.equal(steps.length, 3, steps.join('\n---\n'));
  // The site: files of the shared cases, a main branch, and a pull request's change.
  const files = (name) => cases.find((c) => c.name.startsWith(name)).files;
  const { 'robots.txt': before, 'new.txt': after } = files('diff: only the answers that change');
  const site = mkdtempSync(join(process.cwd(), 'ci-'));
  const tmp = join(site, '.runner-temp');
  mkdirSync(join(site, 'public'), { recursive: true });
  mkdirSync(tmp);
  const git = (...args) => execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.invalid', ...args], { cwd: site });
  try {
    writeFileSync(join(site, 'public', 'robots.txt'), before);
    writeFileSync(join(site, 'public', 'sitemap.xml'), files('table --sitemap: a sitemap file')['sitemap.xml']);
    writeFileSync(join(site, 'robots-expectations.txt'), files('test: every expectation holds')['exp.txt']);
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'site');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    writeFileSync(join(site, 'public', 'robots.txt'), after);
    // As the runner has them; npx finds the installed package (offline: nothing is downloaded).
    const env = { ...process.env, GITHUB_BASE_REF: 'main', RUNNER_TEMP: tmp, npm_config_offline: 'true' };
    const run = (cmd) => spawnSync('bash', ['-e', '-c', cmd], { cwd: site, env, encoding: 'utf8' });
    const results = steps.map(run);
    results.forEach((r, i) => assert.equal(r.status, 0, `step ${i + 1}: ${steps[i]}\n${r.stdout}${r.stderr}`));
    assert.match(results[0].stdout, /0 errors/);
    assert.match(results[1].stdout, /4 expectations, 4 passed, 0 failed/);
    // The reviewer sees what changes: Googlebot loses /private/a, Bingbot gains the PDFs and loses /drafts/.
    assert.match(results[2].stdout, /https:\/\/example\.com\/private\/a\?x=1&y=2  Googlebot: allowed -> disallowed/);
    assert.match(results[2].stdout, /3 of 8 answers changed \(2 now disallowed, 1 now allowed\), 5 unchanged/);
    // A change that breaks an expectation fails the job.
    writeFileSync(join(site, 'robots-expectations.txt'), files('test: the proposed file breaks an expectation')['exp.txt']);
    const broken = run(steps[1]);
    assert.equal(broken.status, 1);
    assert.match(broken.stdout, /FAIL robots-expectations\.txt:6: allow Bingbot \/drafts\/x/);
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
});

test('ai against a real loopback site: the npm command fetches robots.txt, tdmrep.json and the page, and answers as the native one', async () => {
  const { createServer } = await import('node:http');
  const { execFile } = await import('node:child_process');
  const robots = 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n';
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end(robots);
    if (req.url === '/.well-known/tdmrep.json') return res.end('[{"location": "/", "tdm-reservation": 1}]');
    if (req.url === '/a') {
      res.writeHead(200, { 'content-type': 'text/html', 'X-Robots-Tag': 'noai', 'Content-Usage': 'search=y' });
      return res.end('<html><head><meta name="robots" content="noindex"></head><body>text</body></html>');
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/a`;
  // Asynchronous: this process's server answers the command.
  const run = (command, args) => new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8', timeout: 30000 }, (err, stdout, stderr) => resolve({ code: err?.code ?? 0, stdout, stderr }));
  });
  try {
    const npm = await run(bin, ['ai', url, '--agent', 'GPTBot', '--json']);
    assert.equal(npm.code, 0, npm.stderr);
    const got = JSON.parse(npm.stdout);
    assert.deepEqual(got.fetched.map((f) => [f.what, f.url, f.status]), [
      ['robots.txt', new URL('/robots.txt', url).href, 200], ['tdmrep.json', new URL('/.well-known/tdmrep.json', url).href, 200], ['page', url, 200],
    ]);
    assert.equal(got['train-ai'].answer, 'deny');
    assert.deepEqual(got['train-ai'].by.map((i) => got.trace[i].signal).sort(), ['tdmrep', 'x-robots-tag']);
    const text = await run(bin, ['ai', url, '--agent', 'GPTBot']);
    assert.match(text.stdout, /^ {2}fetched page http:\/\/127\.0\.0\.1:\d+\/a: HTTP 200, \d+ bytes: /m);
    if (existsSync(native)) {
      // The same answer and trace; what was fetched is said in each command's own words.
      const mine = await run(native, ['ai', url, '--agent', 'GPTBot', '--json']);
      const theirs = JSON.parse(mine.stdout);
      for (const key of ['train-ai', 'ai-use', 'search', 'trace', 'conditions', 'crawler', 'crawlable']) assert.deepEqual(got[key], theirs[key], key);
      assert.deepEqual(got.fetched.map((f) => [f.what, f.status]), theirs.fetched.map((f) => [f.what, f.status]));
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
});
