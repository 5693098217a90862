// "May this crawler use this page for AI?" (Robots.aiUse) through the packed npm package: the
// digest's 53 worked examples (tests/data/ai-use-examples.json) and this project's cases
// (tests/data/ai-use-project.json) give what the Rust runner (tests/ai_use.rs) asserts, with the
// same checks, every failure reported; the serialised shape (tests/data/ai-use-shape.json) in
// full; the contract's argument types and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { Robots, fetchRobots, fetchAiUse } from 'robots-eval/rich';

const repo = process.env.ROBOTS_EVAL_REPO;
assert.ok(repo, 'ROBOTS_EVAL_REPO must name the repository (scripts/test-js.sh sets it)');
const data = (name) => JSON.parse(readFileSync(join(repo, 'tests/data', name), 'utf8'));
const PURPOSES = ['train-ai', 'ai-use', 'search'];

/**
 * The case's robots.txt as the Rust runner has it: parsed text, or, when the case gives a status
 * (or no file: a 404), the Robots fetchRobots makes of that response (its `fetch` option), which
 * carries the status into aiUse as the runner's RobotsFetch does.
 */
async function robotsOf(c) {
  const dialect = c.dialect ?? 'rfc9309';
  const status = c.robots_status ?? (c.robots === null || c.robots === undefined ? 404 : null);
  if (status === null) return Robots.parse(c.robots, { dialect });
  const fetch = async () => new Response(status >= 200 && status < 300 ? c.robots ?? '' : null, { status });
  return fetchRobots(new URL(c.url).origin, { fetch, dialect });
}

/** The case's options of aiUse, as tests/ai_use.rs builds its AiUseInputs. */
function optionsOf(c) {
  let html = c.html ?? null;
  if (c.html_repeat) html = (html ?? '').repeat(c.html_repeat);
  let tdmrep = c.tdmrep ?? null;
  if (c.tdmrep_pad !== undefined) {
    const body = tdmrep ?? '[]';
    tdmrep = body[0] + ' '.repeat(c.tdmrep_pad) + body.slice(1);
  }
  const options = { headers: c.headers ?? [], html, tdmrep };
  if (c.purposes) options.purposes = c.purposes;
  if (c.policy_tokens) options.policyTokens = c.policy_tokens;
  return options;
}

/** tests/ai_use.rs's `subset`: every key of the pattern, recursively (a null matches absent). */
function subset(pattern, v) {
  if (pattern !== null && typeof pattern === 'object' && !Array.isArray(pattern)) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    return Object.entries(pattern).every(([k, pv]) => (k in v ? subset(pv, v[k]) : pv === null));
  }
  return JSON.stringify(pattern) === JSON.stringify(v);
}

/** The checks of tests/ai_use.rs's `check`; returns the failures. */
async function failures(file, c) {
  const out = [];
  const name = `${file}: ${c.name}`;
  const robots = await robotsOf(c);
  let got;
  try {
    got = robots.aiUse(c.url, c.agent, optionsOf(c));
  } finally {
    robots.free();
  }
  const show = () => JSON.stringify(got, null, 1);
  const sorted = (a) => [...new Set(a)].sort();
  const fail = (msg, full = false) => out.push(full ? `${name}: ${msg}\n${show()}` : `${name}: ${msg}`);
  for (const [purpose, want] of Object.entries(c.expected)) {
    const { answer, by } = got[purpose];
    if (answer !== want) fail(`${purpose} = ${answer}, expected ${want}`, true);
    if ((by.length === 0) !== (answer === 'unknown')) fail(`${purpose}: ${by.length} deciding entries for ${answer}`);
    if (!by.every((e) => got.trace.includes(e))) fail(`${purpose}: a deciding entry that is not in the trace`);
    const signals = c.decided_by?.[purpose];
    if (signals !== undefined) {
      const have = sorted(by.map((e) => e.signal));
      if (JSON.stringify(have) !== JSON.stringify(sorted(signals))) fail(`${purpose} decided by ${have}, expected ${sorted(signals)}`, true);
    }
  }
  if (c.conditions !== undefined) {
    const have = got.conditions.map((x) => x.condition).sort();
    if (JSON.stringify(have) !== JSON.stringify([...c.conditions].sort())) fail(`conditions ${have}, expected ${[...c.conditions].sort()}`, true);
  }
  for (const [condition, want] of Object.entries(c.condition_values ?? {})) {
    const have = got.conditions.find((x) => x.condition === condition)?.value;
    if (JSON.stringify(have) !== JSON.stringify(want)) fail(`condition ${condition} = ${have}, expected ${want}`);
  }
  if (c.crawlable !== undefined && got.crawlable !== c.crawlable) fail(`crawlable = ${got.crawlable}, expected ${c.crawlable}`);
  for (const pattern of c.trace_has ?? []) {
    if (!got.trace.some((e) => subset(pattern, e))) fail(`no trace entry like ${JSON.stringify(pattern)}`, true);
  }
  for (const signal of c.error_signals ?? []) {
    if (!got.trace.some((e) => e.signal === signal && typeof e.error === 'string')) fail(`no ${signal} entry with an error`, true);
  }
  for (const part of c.trace_notes ?? []) {
    if (!got.trace.some((e) => typeof e.note === 'string' && e.note.includes(part))) fail(`no trace note with ${JSON.stringify(part)}`, true);
  }
  for (const e of got.trace) {
    if (typeof e.signal !== 'string' || typeof e.where !== 'object' || e.where === null) fail(`a trace entry without signal or where: ${JSON.stringify(e)}`);
  }
  return out;
}

async function runAll(file, minimum) {
  const cases = data(file).cases;
  assert.ok(cases.length >= minimum, `${file}: ${cases.length} cases`);
  const all = [];
  for (const c of cases) all.push(...(await failures(file, c)));
  assert.equal(all.length, 0, `${all.length} failures:\n${all.join('\n\n')}`);
}

test('ai-use-examples.json: the digest\'s 53 worked examples give what the Rust runner asserts', () => runAll('ai-use-examples.json', 53));

test('ai-use-project.json: the project\'s cases give what the Rust runner asserts', () => runAll('ai-use-project.json', 90));

const SHAPE_ROBOTS = 'User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n';
const SHAPE_TDMREP = '[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]';

test('the answer in full is the Rust serialisation (ai-use-shape.json), with `by` as the deciding entries', () => {
  const robots = Robots.parse(SHAPE_ROBOTS);
  const got = robots.aiUse('https://example.com/a', 'GPTBot', { headers: { 'Content-Usage': 'train-ai=n', 'X-Robots-Tag': 'noai' }, tdmrep: SHAPE_TDMREP });
  for (const p of PURPOSES) {
    assert.ok(got[p].by.every((e) => got.trace.includes(e)), `${p}: by holds the trace's own entries`);
  }
  const indices = structuredClone(got);
  for (const p of PURPOSES) indices[p].by = got[p].by.map((e) => got.trace.indexOf(e));
  assert.deepEqual(indices, data('ai-use-shape.json'));
  // The same headers as a Headers, as [name, value] pairs and with names in other cases.
  for (const headers of [
    new Headers({ 'content-usage': 'train-ai=n', 'x-robots-tag': 'noai' }),
    [['CONTENT-USAGE', 'train-ai=n'], ['x-Robots-tag', 'noai']],
    { 'content-usage': ['train-ai=n'], 'X-ROBOTS-TAG': ['noai'] },
  ]) {
    const again = robots.aiUse('https://example.com/a', 'GPTBot', { headers, tdmrep: new TextEncoder().encode(SHAPE_TDMREP) });
    assert.deepEqual(again['train-ai'].by.map((e) => e.signal), got['train-ai'].by.map((e) => e.signal));
  }
  robots.free();
});

test('multiple field lines of a header are kept: each X-Robots-Tag line is its own entry', () => {
  const robots = Robots.parse('User-agent: *\nAllow: /\n');
  const got = robots.aiUse('/a', 'GPTBot', { headers: { 'X-Robots-Tag': ['otherbot: noindex', 'GPTBot: noai'] } });
  const lines = got.trace.filter((e) => e.signal === 'x-robots-tag').map((e) => e.where.index);
  assert.ok(lines.includes(1), JSON.stringify(got.trace));
  assert.equal(got['train-ai'].answer, 'deny');
  robots.free();
});

test('a Robots from fetchRobots brings its fetch: a 5xx denies every purpose, a 404 makes no statements', async () => {
  for (const [status, answer] of [[503, 'deny'], [404, 'unknown']]) {
    const robots = await fetchRobots('https://example.com/', { fetch: async () => new Response(null, { status }) });
    const got = robots.aiUse('/a', 'GPTBot');
    assert.equal(got['train-ai'].answer, answer, `HTTP ${status}`);
    assert.match(got.trace[0].raw, new RegExp(`HTTP ${status}`));
    robots.free();
  }
});

test('malformed content is a trace entry, never a throw', () => {
  const robots = Robots.parse('User-agent: *\nAllow: /\n');
  const bad = [
    { tdmrep: '{{' }, { tdmrep: '[{"location": 5}]' }, { tdmrep: new Uint8Array([0xff, 0xfe, 0]) }, { tdmrep: '[' + '['.repeat(100000) },
    { headers: { 'Content-Usage': 'train-ai=maybe, ===' } }, { headers: { 'tdm-reservation': 'yes please' } },
    { html: '<head><meta name="robots" content="noai, max-snippet:-5, ' + 'x'.repeat(10000) + '">' },
    { html: '<head>' + '<meta name="tdm-reservation" content="2">'.repeat(3000) },
    { html: new Uint8Array(600 * 1024).fill(0x3c) },
  ];
  for (const options of bad) {
    const got = robots.aiUse('/a', 'GPTBot', options);
    for (const p of PURPOSES) assert.ok(['allow', 'deny', 'unknown'].includes(got[p].answer));
    assert.ok(got.trace.length > 0);
  }
  const errors = robots.aiUse('/a', 'GPTBot', { tdmrep: '{{' }).trace.filter((e) => e.error);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].signal, 'tdmrep');
  robots.free();
});

test('wrong types are a TypeError naming the argument; an unknown purpose a RangeError', () => {
  const robots = Robots.parse('User-agent: *\nAllow: /\n');
  const bad = [
    [{ headers: 'Content-Usage: train-ai=n' }, /options\.headers must be/],
    [{ headers: { 'Content-Usage': 5 } }, /value of header "Content-Usage" must be a string/],
    [{ headers: [['a']] }, /options\.headers\[0\] must be a \[name, value\] pair/],
    [{ html: 5 }, /options\.html must be a string, Uint8Array or ArrayBuffer/],
    [{ html: {} }, /options\.html must be/],
    [{ tdmrep: 0 }, /options\.tdmrep must be a string, Uint8Array or ArrayBuffer/],
    [{ purposes: 5 }, /options\.purposes must be an array/],
    [{ purposes: [5] }, /options\.purposes must hold strings/],
    [{ policyTokens: 'x' }, /options\.policyTokens must be an array of strings/],
    [{ header: 'x' }, /unknown option "header"/],
    [5, /options must be an object/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => robots.aiUse('/a', 'GPTBot', options), (e) => e instanceof TypeError && message.test(e.message) && e.message.startsWith('robots-eval: aiUse(url, agent, options)'), JSON.stringify(options));
  }
  assert.throws(() => robots.aiUse(5, 'GPTBot'), TypeError);
  assert.throws(() => robots.aiUse('/a', 5), TypeError);
  assert.throws(() => robots.aiUse('/a', 'x', { purposes: ['training'] }), (e) => e instanceof RangeError && /unknown purpose "training"/.test(e.message));
  // Declared purposes of an unknown crawler are read; an alias label is accepted.
  const got = robots.aiUse('/a', 'NewBot', { purposes: ['ai-train'], headers: { 'Content-Usage': 'train-ai=n' } });
  assert.equal(got.crawler.known, false);
  assert.deepEqual(got.crawler.purposes, ['train-ai']);
  assert.equal(got['train-ai'].answer, 'deny');
  robots.free();
});

test('fetchAiUse against a real loopback site: robots.txt, tdmrep.json, the page\'s headers and head only', async () => {
  let bodyBytesSent = 0;
  let pageClosed = null;
  const seen = [];
  const server = createServer((req, res) => {
    seen.push([req.url, req.headers['user-agent']]);
    if (req.url === '/robots.txt') return res.end(SHAPE_ROBOTS);
    if (req.url === '/.well-known/tdmrep.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(SHAPE_TDMREP);
    if (req.url === '/a') {
      res.writeHead(200, { 'content-type': 'text/html', 'Content-Usage': 'train-ai=n', 'X-Robots-Tag': 'noai' });
      res.write('<!doctype html><html><head><meta name="robots" content="max-snippet:20"><title>x</title></he');
      res.write('ad><body>');
      // A body of 8 MiB, written as the client reads: it must stop reading after the head.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (bodyBytesSent < 8 * 1024 * 1024) {
          bodyBytesSent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end('</body></html>');
      };
      pageClosed = new Promise((resolve) => res.on('close', resolve));
      return more();
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${server.address().port}`;
  try {
    const got = await fetchAiUse(`${site}/a`, 'GPTBot');
    // The same answer as robots.aiUse given the same inputs.
    const robots = Robots.parse(SHAPE_ROBOTS);
    const want = robots.aiUse(`${site}/a`, 'GPTBot', {
      headers: { 'Content-Usage': 'train-ai=n', 'X-Robots-Tag': 'noai', 'content-type': 'text/html' },
      html: '<!doctype html><html><head><meta name="robots" content="max-snippet:20"><title>x</title></head><body>',
      tdmrep: SHAPE_TDMREP,
    });
    robots.free();
    for (const p of PURPOSES) assert.deepEqual(got[p], want[p], p);
    assert.deepEqual(got.conditions, want.conditions);
    assert.deepEqual(got.trace.map((e) => [e.signal, e.where]), want.trace.map((e) => [e.signal, e.where]));
    assert.deepEqual(got.fetched.map((f) => [f.what, f.status]), [['robots.txt', 200], ['tdmrep.json', 200], ['page', 200]]);
    assert.equal(got.fetched[0].bytes, SHAPE_ROBOTS.length);
    assert.equal(got.fetched[2].truncated, true);
    assert.ok(got.fetched[2].bytes < 1024 * 1024, `read ${got.fetched[2].bytes} bytes of the page`);
    await pageClosed;
    assert.ok(bodyBytesSent < 8 * 1024 * 1024, `the server wrote ${bodyBytesSent} bytes: the body was not cancelled`);
    assert.ok(seen.every(([, ua]) => ua === 'GPTBot'), JSON.stringify(seen));
    // A missing page: its status is said; a refused connection (below) is a note, not a throw.
    const none = await fetchAiUse(`${site}/missing`, 'GPTBot');
    assert.deepEqual(none.fetched.map((f) => [f.what, f.status]), [['robots.txt', 200], ['tdmrep.json', 200], ['page', 404]]);
  } finally {
    server.close();
    server.closeAllConnections();
  }
  const { closedPort } = await import('./loopback.mjs');
  const port = await closedPort();
  const down = await fetchAiUse(`http://127.0.0.1:${port}/a`, 'GPTBot', { timeoutMs: 2000 });
  assert.equal(down.crawlable, false);
  for (const p of PURPOSES) assert.equal(down[p].answer, 'deny');
  assert.match(down.fetched[1].note, /read as absent/);
  await assert.rejects(fetchAiUse(`${site}/a`, 'GPTBot', { maxHtmlBytes: -1 }), RangeError);
  await assert.rejects(fetchAiUse('ftp://x/a', 'GPTBot'), TypeError);
  await assert.rejects(fetchAiUse(`${site}/a`, 5), /agent must be/);
});
