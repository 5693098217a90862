// The core's conformance data, run through the packed npm package (imported by its name from a
// scratch project, as users do): the same verdicts and lines as the Rust runner
// (tests/conformance.rs) expects, and as the native core gives (`robots-eval batch`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots } from 'robots-eval/rich';

const repo = process.env.ROBOTS_EVAL_REPO;
assert.ok(repo, 'ROBOTS_EVAL_REPO must name the repository (scripts/test-js.sh sets it)');
// Every suite's data is in the repository (tests/data/README.md says where each file came from).
const data = (name) => join(repo, 'tests', 'data', name);
const load = (p) => JSON.parse(readFileSync(p, 'utf8'));

/** A JSON field given as `F` (UTF-8 text) or `F_hex`: a string, or the exact bytes. */
function field(v, f) {
  if (typeof v[f] === 'string') return v[f];
  const hex = v[`${f}_hex`];
  assert.ok(typeof hex === 'string', `no ${f} in ${JSON.stringify(v)}`);
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}
const asText = (x) => (typeof x === 'string' ? x : new TextDecoder().decode(x));

/** Every question of every suite: {suite, name, robots, dialect, agent, url, allowed?, line?, reason?, sitemaps?}. */
function questions() {
  const out = [];
  const g = load(data('google-robotstxt.json'));
  const diffs = new Map(load(data('rfc9309-differences.json')).differences.map((d) => [d.name, d.rfc9309]));
  for (const v of g.vectors) {
    const base = { name: v.name, robots: field(v, 'robots'), agent: asText(field(v, 'agent')), url: asText(field(v, 'url')) };
    out.push({ ...base, suite: 'google vectors (google)', dialect: 'google', allowed: v.allowed, line: v.oracle_matching_line });
    out.push({ ...base, suite: 'google vectors (rfc9309)', dialect: 'rfc9309', allowed: diffs.has(v.name) ? diffs.get(v.name) : v.allowed });
  }
  const files = [['dialects.json', 'dialect cases'], ['seeds.json', 'seed cases'], ['peer-kinds.json', 'peer kinds']];
  for (const [file, suite] of files) {
    for (const c of load(data(file)).cases) {
      for (const [dialect, allowed] of Object.entries(c.expect)) {
        out.push({ suite, name: `${c.name} [${dialect}]`, robots: field(c, 'robots'), dialect, agent: c.agent, url: c.url, allowed,
          line: c.line?.[dialect], reason: c.reason?.[dialect], sitemaps: c.sitemaps });
      }
    }
  }
  return out;
}

const all = questions();
const answers = all.map((q) => {
  const robots = Robots.parse(q.robots, { dialect: q.dialect });
  try {
    const e = robots.explain(q.url, q.agent);
    const cell = robots.table([q.url], [q.agent]);
    return { ...e, fast: robots.isAllowed(q.url, q.agent), cell: { allowed: cell.allowed[0][0], line: cell.lines[0][0], reason: cell.reasons[0][0] },
      sitemaps: q.sitemaps && robots.sitemaps };
  } finally {
    robots.free();
  }
});

for (const suite of new Set(all.map((q) => q.suite))) {
  test(`${suite}: the expected verdicts, lines and reasons`, () => {
    const failures = [];
    let checked = 0;
    all.forEach((q, i) => {
      if (q.suite !== suite) return;
      const a = answers[i];
      checked++;
      // Each module against the expectation: explain is the rich module's (its own parse of the
      // text), isAllowed and table the verdict module's.
      const c = a.cell;
      for (const [module, got] of [['rich (explain)', a], ['verdict (table)', c]]) {
        if (got.allowed !== q.allowed) failures.push(`${q.name}: ${module}: allowed ${got.allowed}, expected ${q.allowed}`);
        if (q.line !== undefined && got.line !== q.line) failures.push(`${q.name}: ${module}: line ${got.line}, expected ${q.line}`);
        if (q.reason !== undefined && got.reason !== q.reason) failures.push(`${q.name}: ${module}: reason ${got.reason}, expected ${q.reason}`);
      }
      if (a.fast !== q.allowed) failures.push(`${q.name}: verdict (isAllowed): ${a.fast}, expected ${q.allowed}`);
      if (q.sitemaps !== undefined && JSON.stringify(a.sitemaps) !== JSON.stringify(q.sitemaps)) failures.push(`${q.name}: sitemaps ${JSON.stringify(a.sitemaps)}, expected ${JSON.stringify(q.sitemaps)}`);
      // The modules agree where no expectation is given.
      if (c.allowed !== a.allowed || c.line !== a.line || c.reason !== a.reason) failures.push(`${q.name}: verdict module's table ${JSON.stringify(c)} but rich module's explain ${a.allowed}/${a.line}/${a.reason}`);
    });
    console.log(`${suite}: ${checked} checked through both modules, ${failures.length} failed`);
    assert.deepEqual(failures, []);
  });
}

test('the same verdicts and lines as the native core (robots-eval batch)', () => {
  const cli = join(repo, 'target', 'release', 'robots-eval');
  if (!existsSync(cli)) {
    console.log('SKIPPED: the native CLI is not built (scripts/test-js.sh builds it with cargo build --release --features cli)');
    return;
  }
  const b64 = (x) => Buffer.from(x).toString('base64');
  const input = all.map((q) => JSON.stringify({
    ...(typeof q.robots === 'string' ? { robots: q.robots } : { robots_b64: b64(q.robots) }),
    agent: q.agent, url: q.url, dialect: q.dialect,
  })).join('\n') + '\n';
  const lines = execFileSync(cli, ['batch'], { input, maxBuffer: 1 << 28 }).toString().trim().split('\n');
  assert.equal(lines.length, all.length);
  const failures = [];
  lines.forEach((l, i) => {
    const native = JSON.parse(l);
    const a = answers[i];
    if (native.allowed !== a.allowed || native.line !== a.line || (native.reason !== undefined && native.reason !== a.reason)) {
      failures.push(`${all[i].suite}: ${all[i].name}: native ${l}, package ${a.allowed}/${a.line}/${a.reason}`);
    }
  });
  console.log(`native comparison: ${lines.length} checked, ${failures.length} failed`);
  assert.deepEqual(failures, []);
});
