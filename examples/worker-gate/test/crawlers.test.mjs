// Who the gate treats as a crawler, in real workerd (test/harness.mjs): every row of
// user-agents.json (real crawler and browser User-Agents) under a `*`-only robots.txt;
// Cloudflare's verified-bot signals (request.cf, sent the way workerd takes them, as the
// cf-blob header); and every decision written to Workers Analytics Engine (workerd's own
// analyticsEngine binding, which posts each data point to a service: here a collector on
// 127.0.0.1) and, in report-only mode, to the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { closeServers, dataPoints, origin, serve, startGates } from './harness.mjs';

const table = JSON.parse(readFileSync(new URL('./user-agents.json', import.meta.url), 'utf8'));
const BROWSER = table.rows.find((r) => r.kind === 'desktop').ua;

const ae = dataPoints();

let gates;
before(async () => {
  const site = await serve(origin(table.robots));
  const collector = new URL(await serve(ae.handler)).host;
  gates = await startGates({
    star: { vars: { ORIGIN: site } },
    exempt: { vars: { ORIGIN: site, NOT_CRAWLERS: 'Feedly, Slackbot' } },
    counted: { vars: { ORIGIN: site }, analytics: 'gate_decisions' },
    report: { vars: { ORIGIN: site, MODE: 'report-only' }, analytics: 'gate_decisions' },
    // AI_CRAWLERS as wrangler.toml passes an array of tables: a JSON binding.
    custom: { vars: { ORIGIN: site, AI_CRAWLERS: [{ token: 'AcmeAI-Reader', purposes: ['training', 'user-input'], source: 'https://acme.example/bot' }] }, analytics: 'gate_decisions' },
    broken: { vars: { ORIGIN: site, AI_CRAWLERS: '[{"token": "NoPurpose"}]' } },
  }, { gate_decisions: collector });
});

after(() => {
  gates?.stop();
  closeServers();
});

const get = (gate, path, headers) => fetch(`${gates.url(gate)}${path}`, { headers });

test('every crawler of the table obeys the * group; every browser passes', async () => {
  const failures = [];
  for (const row of table.rows) {
    const label = `${row.kind} ${row.name}`;
    const blocked = await get('star', '/private/page', { 'user-agent': row.ua });
    const open = await get('star', '/public/page', { 'user-agent': row.ua });
    const header = blocked.headers.get('x-robots-eval');
    if (row.crawler) {
      if (blocked.status !== 403) failures.push(`${label}: /private got ${blocked.status}, want 403`);
      else if (!header?.includes(`line=2; rule="Disallow: /private"; crawler="${row.name}"; by=isbot`)) failures.push(`${label}: X-Robots-Eval ${header}`);
    } else if (blocked.status !== 200 || blocked.headers.get('x-origin') !== 'yes') {
      failures.push(`${label}: /private got ${blocked.status}, want the origin's 200`);
    }
    if (open.status !== 200) failures.push(`${label}: /public got ${open.status}, want 200`);
    await Promise.all([blocked.arrayBuffer(), open.arrayBuffer()]);
  }
  assert.deepEqual(failures, [], gates.log());
  // The table covers every kind the gate must tell apart.
  const kinds = new Set(table.rows.map((r) => r.kind));
  for (const k of ['search', 'seo', 'ai', 'feed', 'headless', 'desktop', 'mobile', 'in-app']) assert.ok(kinds.has(k), k);
});

test('NOT_CRAWLERS exempts the clients it names; the others still obey', async () => {
  const ua = (name) => table.rows.find((r) => r.name === name).ua;
  for (const name of ['Feedly', 'Slackbot-LinkExpanding']) {
    assert.equal((await get('exempt', '/private/page', { 'user-agent': ua(name) })).status, 200, name);
  }
  assert.equal((await get('exempt', '/private/page', { 'user-agent': ua('Googlebot') })).status, 403);
});

test("Cloudflare's verified-bot signal makes a client a crawler, and the header says so", async () => {
  const cf = (o) => ({ 'user-agent': BROWSER, 'cf-blob': JSON.stringify(o) });
  const category = await get('star', '/private/page', cf({ verifiedBotCategory: 'Search Engine Crawler' }));
  assert.equal(category.status, 403);
  assert.equal(category.headers.get('x-robots-eval'),
    'disallowed; line=2; rule="Disallow: /private"; crawler="Safari"; by=cloudflare; cf-verified-bot="Search Engine Crawler"; identity=unverified; identity-reason=no-claim; token="Safari"');
  const bm = await get('star', '/private/page', cf({ botManagement: { verifiedBot: true, score: 1 } }));
  assert.equal(bm.status, 403);
  assert.match(bm.headers.get('x-robots-eval'), /; by=cloudflare; cf-bot-score=1; identity=unverified;/);
  const google = await get('star', '/private/page', {
    'user-agent': table.rows.find((r) => r.name === 'Googlebot').ua,
    'cf-blob': JSON.stringify({ verifiedBotCategory: 'Search Engine Crawler', botManagement: { verifiedBot: true, score: 1 } }),
  });
  // No address the gate can trust (this cf object names no data centre, so CF-Connecting-IP is not
  // Cloudflare's): the claim to be Googlebot cannot be checked, and is held to the * group.
  assert.equal(google.headers.get('x-robots-eval'),
    'disallowed; line=2; rule="Disallow: /private"; crawler="Googlebot"; by=cloudflare; cf-verified-bot="Search Engine Crawler"; cf-bot-score=1; identity=unverified; identity-reason=no-client-address; token="*"');
  // A low bot score alone does not make a browser a crawler (people behind odd networks score low too).
  assert.equal((await get('star', '/private/page', cf({ botManagement: { verifiedBot: false, score: 2 } }))).status, 200);
  assert.equal((await get('star', '/private/page', cf({ verifiedBotCategory: '' }))).status, 200);
});

test('every crawler decision is written to Analytics Engine; browsers are not', async () => {
  const gpt = table.rows.find((r) => r.name === 'GPTBot').ua;
  assert.equal((await get('counted', '/private/a/b', { 'user-agent': gpt })).status, 403);
  assert.equal((await get('counted', '/public/c', { 'user-agent': gpt })).status, 200);
  assert.equal((await get('counted', '/private/a/b', { 'user-agent': BROWSER })).status, 200);
  const written = await ae.where((p) => p.blobs[1] === 'enforce' && p.index === 'GPTBot', 2);
  assert.equal(written.length, 2);
  const [blocked, passed] = written[0].blobs[0] === 'disallowed' ? written : [written[1], written[0]];
  assert.equal(blocked.dataset, 'gate_decisions');
  assert.deepEqual(blocked.blobs.slice(0, 10), ['disallowed', 'enforce', 'GPTBot', 'isbot', '', '/private/', 'Disallow: /private', '*', gpt, 'train-ai']);
  assert.deepEqual(blocked.doubles.slice(0, 3), [2, 200, -1]);
  assert.deepEqual(passed.blobs.slice(0, 10), ['allowed', 'enforce', 'GPTBot', 'isbot', '', '/public/', '', '*', gpt, 'train-ai']);
  assert.deepEqual(passed.doubles.slice(0, 3), [0, 200, -1]);
  assert.equal((await ae.where((p) => p.blobs[8] === BROWSER, 0)).length, 0);
});

test('report-only passes the request, logs the decision and writes the same data point', async () => {
  const ua = table.rows.find((r) => r.name === 'ClaudeBot').ua;
  const res = await get('report', '/private/x', { 'user-agent': ua });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-origin'), 'yes');
  const [point] = await ae.where((p) => p.blobs[1] === 'report-only' && p.index === 'ClaudeBot');
  assert.deepEqual(point.blobs.slice(0, 7), ['disallowed', 'report-only', 'ClaudeBot', 'isbot', '', '/private/', 'Disallow: /private']);
  let line;
  for (let i = 0; i < 50 && !line; i++) {
    line = gates.log().split('\n').find((l) => l.includes('worker-gate report-only:') && l.includes('ClaudeBot'));
    if (!line) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(line, gates.log());
  const logged = JSON.parse(line.slice(line.indexOf('{')));
  assert.deepEqual(
    { verdict: logged.verdict, mode: logged.mode, crawler: logged.crawler, pathPrefix: logged.pathPrefix, rule: logged.rule, line: logged.line },
    { verdict: 'disallowed', mode: 'report-only', crawler: 'ClaudeBot', pathPrefix: '/private/', rule: 'Disallow: /private', line: 2 },
  );
});

test('AI_CRAWLERS from wrangler.toml adds crawlers and their purposes; a malformed one leaves the built-in table', async () => {
  const ua = `${BROWSER} AcmeAI-Reader/2.0`;
  const res = await get('custom', '/private/x', { 'user-agent': ua });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('x-robots-eval'), 'disallowed; line=2; rule="Disallow: /private"; crawler="AcmeAI-Reader"; by=AI_CRAWLERS; identity=unverified; identity-reason=no-claim; token="AcmeAI-Reader"');
  const [point] = await ae.where((p) => p.index === 'AcmeAI-Reader');
  assert.equal(point.blobs[9], 'train-ai,ai-use'); // the earlier purpose names, read as the aipref labels
  // The built-in rows are still there.
  assert.equal((await get('custom', '/private/x', { 'user-agent': table.rows.find((r) => r.name === 'CCBot').ua })).status, 403);
  const [ccbot] = await ae.where((p) => p.index === 'CCBot');
  assert.equal(ccbot.blobs[9], 'train-ai');
  // A row without purposes is reported, and the gate goes on with the built-in table.
  assert.equal((await get('broken', '/private/x', { 'user-agent': table.rows.find((r) => r.name === 'GPTBot').ua })).status, 403);
  assert.equal((await get('broken', '/private/x', { 'user-agent': BROWSER })).status, 200);
  assert.match(gates.log(), /AI_CRAWLERS: \{"token":"NoPurpose"\} needs a token, purposes among train-ai, ai-use, search and a kind among crawler, user-fetcher; AI_CRAWLERS ignored, the built-in default applies/);
});

test('odd clients never break the gate', async () => {
  const cases = [
    [{ 'user-agent': '' }, 200], // an empty User-Agent: not a crawler
    [{ 'user-agent': 'Bot/1.0 caf\xe9' }, 403], // a Latin-1 byte
    [{ 'user-agent': `Mozilla/5.0 (compatible; ${'x'.repeat(8000)}bot/1.0)` }, 403],
    [{ 'user-agent': '()[];,/ +://' }, 403],
    [{ 'user-agent': BROWSER, 'cf-blob': JSON.stringify({ verifiedBotCategory: 5, botManagement: 'yes' }) }, 200],
    [{ 'user-agent': BROWSER, 'cf-blob': JSON.stringify({ botManagement: { verifiedBot: 'true', score: '1' } }) }, 200],
  ];
  for (const [headers, want] of cases) {
    const res = await get('star', '/private/page', headers);
    assert.equal(res.status, want, `${JSON.stringify(headers).slice(0, 80)}: ${gates.log()}`);
    const header = res.headers.get('x-robots-eval');
    if (header !== null) assert.ok(header.length < 600 && /^[\x20-\x7e]*$/.test(header), header);
  }
});

test('a short crawler User-Agent is named by its own token, not "Mozilla"', async () => {
  const res = await get('star', '/private/page', { 'user-agent': 'Mozilla/5.0 (compatible; ExampleBot/1.0)' });
  assert.equal(res.status, 403);
  assert.match(res.headers.get('x-robots-eval'), /; crawler="ExampleBot"; by=isbot;/);
});
