// `wrangler dev` starts the gate as a site owner would try it (wrangler.toml as shipped, ORIGIN
// given with --var), in front of a real origin on 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { closeServers, example, offline, origin, serve } from './harness.mjs';

/** A port free on 127.0.0.1 now (wrangler has no "any port" option). */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let child;
let base;
let out = '';
before(async () => {
  const site = await serve(origin('User-agent: *\nDisallow: /private\n'));
  const [port, inspector] = [await freePort(), await freePort()];
  child = spawn(process.execPath, [`${example}/node_modules/wrangler/bin/wrangler.js`, 'dev', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(inspector), '--var', `ORIGIN:${site}`, '--show-interactive-dev-session=false'],
  { cwd: example, env: offline, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120 && !out.includes('Ready on'); i++) {
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.match(out, /Ready on/, out);
});

after(() => {
  try { process.kill(-child.pid, 'SIGTERM'); } catch {}
  closeServers();
});

test('wrangler dev serves the gate: a crawler gets the 403, a browser the origin', async () => {
  const crawler = await fetch(`${base}/private/x`, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' } });
  assert.equal(crawler.status, 403, out);
  assert.match(crawler.headers.get('x-robots-eval'), /^disallowed; line=2; rule="Disallow: \/private"; crawler="bingbot"; by=isbot/);
  const person = await fetch(`${base}/private/x`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' } });
  assert.equal(person.status, 200);
  assert.equal(person.headers.get('x-origin'), 'yes');
});
