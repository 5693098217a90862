// Crawlee, from the registry, switched to robots-eval with the one line its users add: the project
// tests/crawlee (its package.json and lock, @crawlee/http pinned) is copied, `overrides` swaps
// robots-parser for the override package (and names this package's tarball for robots-eval, which
// is not on the registry), npm installs it, and an HttpCrawler with respectRobotsTxtFile crawls two
// sites on loopback (tests/crawlee/crawl.mjs): as `*`, and as a named crawler. It must fetch
// exactly the URLs robots-eval/robots-parser allows and skip the rest; links to the other site are
// `undefined` to the first site's file, so Crawlee asks that site's own robots.txt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import robotsParser from 'robots-eval/robots-parser';

const run = promisify(execFile);
const LOOPBACK = '127.0.0.1';
const repo = process.env.ROBOTS_EVAL_REPO;
const tarballs = { 'robots-eval': process.env.ROBOTS_EVAL_TARBALL, 'robots-parser': process.env.ROBOTS_EVAL_OVERRIDE_TARBALL };
assert.ok(repo && tarballs['robots-eval'] && tarballs['robots-parser'], 'scripts/test-js.sh sets ROBOTS_EVAL_REPO and the tarballs');

// The other site (B) and the crawled one (A). A's file has a group for MyBot, and a rule that
// robots-parser reads otherwise (`/%7Euser` is `/~user`, RFC 9309 §2.2.2), so that the crawl shows
// which engine decided; it disallows /shared, which B allows: A's rules must not decide B's URLs.
const B_ROBOTS = 'User-agent: *\nDisallow: /secret\n';
const A_ROBOTS = 'User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /shared\nDisallow: /%7Euser\n\nUser-agent: MyBot\nDisallow: /mybot-only\nDisallow: /private\n';
const A_LINKS = ['/public', '/private', '/private/open', '/mybot-only', '/shared', '/~user'];
const B_LINKS = ['/shared', '/secret'];

function site(robots, pages, log) {
  const server = createServer((req, res) => {
    log.push(`http://${req.headers.host}${req.url}`);
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    } else if (pages.has(req.url)) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pages.get(req.url)());
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, LOOPBACK, () => resolve(server)));
}

test('Crawlee with the override fetches exactly what robots-eval/robots-parser allows, for * and for a named crawler', { timeout: 300_000 }, async (t) => {
  // The project, with the one line a user adds (`overrides`).
  const dir = mkdtempSync(join(process.cwd(), 'crawlee-'));
  for (const f of ['package.json', 'package-lock.json', 'crawl.mjs']) copyFileSync(join(repo, 'tests', 'crawlee', f), join(dir, f));
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.overrides = Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const started = performance.now();
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir });
  t.diagnostic(`npm install of @crawlee/http with the override: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // What Crawlee's RobotsTxtFile requires is the override package.
  const fromUtils = createRequire(createRequire(join(dir, 'package.json')).resolve('@crawlee/utils'));
  const installed = JSON.parse(readFileSync(fromUtils.resolve('robots-parser/package.json'), 'utf8'));
  assert.equal(installed.name, '@robots-eval/robots-parser');

  const log = [];
  let A = '';
  let B = '';
  const b = await site(B_ROBOTS, new Map(B_LINKS.map((p) => [p, () => '<p>b</p>'])), log);
  B = `http://${LOOPBACK}:${b.address().port}`;
  const links = () => [...A_LINKS, ...B_LINKS.map((p) => B + p)].map((l) => `<a href="${l}">${l}</a>`).join('\n');
  const a = await site(A_ROBOTS, new Map([['/', links], ...A_LINKS.map((p) => [p, () => '<p>a</p>'])]), log);
  A = `http://${LOOPBACK}:${a.address().port}`;
  try {
    const answers = {};
    for (const agent of ['*', 'MyBot']) {
      log.length = 0;
      const args = [join(dir, 'crawl.mjs'), `${A}/`, ...(agent === '*' ? [] : [agent])];
      const { stdout } = await run(process.execPath, args, { cwd: dir, env: { ...process.env, CRAWLEE_LOG_LEVEL: 'ERROR' } });
      const { handled, skipped } = JSON.parse(stdout.trim().split('\n').pop());
      // The answers of the entry itself: A's file for A's URLs (B's are undefined to it: another
      // site), B's file for B's.
      const ofA = robotsParser(`${A}/robots.txt`, A_ROBOTS);
      const ofB = robotsParser(`${B}/robots.txt`, B_ROBOTS);
      const expected = { fetched: [`${A}/`], skipped: [] };
      for (const url of [...A_LINKS.map((p) => A + p), ...B_LINKS.map((p) => B + p)]) {
        const mine = url.startsWith(B) ? ofB : ofA;
        if (url.startsWith(B)) assert.equal(ofA.isAllowed(url, agent), undefined, `${url} is of another site than A's file`);
        expected[mine.isAllowed(url, agent) ? 'fetched' : 'skipped'].push(url);
      }
      const sorted = (xs) => [...xs].sort();
      assert.deepEqual(sorted(handled), sorted(expected.fetched), `${agent}: the pages Crawlee handled`);
      assert.deepEqual(sorted(skipped.map((s) => s.url)), sorted(expected.skipped), `${agent}: the pages Crawlee skipped`);
      assert.ok(skipped.every((s) => s.reason === 'robotsTxt'));
      // And the servers saw exactly those pages, and each site's robots.txt.
      assert.deepEqual(sorted(new Set(log.filter((u) => !u.endsWith('/robots.txt')))), sorted(expected.fetched), `${agent}: the requests the servers received`);
      assert.ok(log.includes(`${A}/robots.txt`) && log.includes(`${B}/robots.txt`));
      answers[agent] = expected;
      t.diagnostic(`${agent}: fetched ${expected.fetched.map((u) => u.replace(A, 'A').replace(B, 'B')).join(' ')}; skipped ${expected.skipped.map((u) => u.replace(A, 'A').replace(B, 'B')).join(' ')}`);
    }
    // The cases that make the crawl a test: the named crawler's group differs from *, B's /shared is
    // fetched though A disallows /shared, and /~user is skipped where robots-parser would fetch it.
    assert.notDeepEqual(answers['*'], answers.MyBot);
    assert.ok(answers['*'].fetched.includes(`${B}/shared`) && answers['*'].skipped.includes(`${A}/shared`));
    assert.ok(answers['*'].skipped.includes(`${A}/~user`));
    const original = createRequire(join(repo, 'package.json'))('robots-parser');
    assert.equal(original(`${A}/robots.txt`, A_ROBOTS).isAllowed(`${A}/~user`), true, 'robots-parser itself would fetch /~user');
  } finally {
    a.close();
    b.close();
  }
});
