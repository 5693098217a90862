// The runtime-independent check every runtime runs on the package it imported (Node ESM and
// CommonJS, Chromium, a bundle, Deno, Bun, workerd): the whole API once, and so each of its four
// WebAssembly modules: the verdict module (parse, isAllowed, table...), the policy module
// (RobotRules' decisions), the rich module (explain, diagnostics, records, AI preferences, META /
// X-Robots-Tag) and the AI-use module (aiUse). `pkg`: the package's exports. Returns the failures.
// `smokeVerdict`: the same for the 'robots-eval/verdict' entry, which has neither of the last two.
export const ROBOTS = `User-agent: FooBot
User-agent: BarBot
Disallow: /private
Allow: /private/open
Crawl-delay: 2.5

User-agent: *
Disallow: /
Sitemap: https://example.com/sitemap.xml
Frobnicate: yes
`;

export function smoke(pkg) {
  const { Robots, RobotRules, metaRobots, xRobotsTag } = pkg;
  const failures = [];
  const eq = (what, got, want) => {
    const g = JSON.stringify(got), w = JSON.stringify(want);
    if (g !== w) failures.push(`${what}: got ${g}, want ${w}`);
  };
  const robots = Robots.parse(ROBOTS);
  eq('isAllowed FooBot /private/x', robots.isAllowed('https://example.com/private/x', 'FooBot'), false);
  eq('isAllowed FooBot /private/open', robots.isAllowed('https://example.com/private/open/1', 'FooBot'), true);
  eq('isAllowed other /', robots.isAllowed('/anything', 'OtherBot/1.0'), false);
  // The verdict, the rule and the group (the explanation's words: tests/explain.rs).
  const decided = ({ allowed, reason, line, rule, group: { lines, agents, ends, token }, path }) => ({ allowed, reason, line, rule, group: { lines, agents, ends, token }, path });
  eq('explain', decided(robots.explain('/private/x', 'barbot')), {
    allowed: false, reason: 'rule', line: 3,
    rule: { line: 3, kind: 'disallow', pattern: '/private' },
    group: { lines: [1], agents: ['FooBot', 'BarBot'], ends: [5], token: 'barbot' }, path: '/private/x',
  });
  eq('explain no match', decided(robots.explain('/public', 'FooBot')), {
    allowed: true, reason: 'no-match', line: 0, rule: null, group: { lines: [1], agents: ['FooBot', 'BarBot'], ends: [5], token: 'FooBot' }, path: '/public',
  });
  eq('table', robots.table(['/private/x', '/private/open', '/robots.txt'], ['FooBot', 'Other']), {
    urls: ['/private/x', '/private/open', '/robots.txt'], agents: ['FooBot', 'Other'],
    allowed: [[false, false], [true, false], [true, true]],
    lines: [[3, 8], [4, 8], [0, 0]],
    reasons: [['rule', 'rule'], ['rule', 'rule'], ['robots-txt', 'robots-txt']],
  });
  eq('crawlDelay', robots.crawlDelay('FooBot'), 2.5);
  eq('crawlDelay none', robots.crawlDelay('Other'), undefined);
  eq('sitemaps', robots.sitemaps, ['https://example.com/sitemap.xml']);
  eq('diagnostics codes', robots.diagnostics.map((d) => [d.line, d.severity, d.code]), [[10, 'warning', 'unknown-field']]);
  eq('agent list', robots.isAllowed('/private/x', ['Other', 'FooBot']), false);
  eq('isExplicitlyDisallowed', [robots.isExplicitlyDisallowed('/private/x', 'FooBot'), robots.isExplicitlyDisallowed('/x', 'Other')], [true, false]);
  eq('records', robots.records, [
    { key: 'Crawl-delay', value: '2.5', line: 5, agents: ['FooBot', 'BarBot'] },
    { key: 'Frobnicate', value: 'yes', line: 10, agents: ['*'] },
  ]);
  eq('host none', robots.host, null);
  const rate = Robots.parse('Host: example.com\nUser-agent: a\nRequest-rate: 1/10m\n');
  eq('host, requestRate', [rate.host, rate.requestRate('a'), rate.requestRate('b')], ['example.com', { requests: 1, seconds: 600 }, undefined]);
  rate.free();
  eq('dialect', robots.dialect, 'rfc9309');
  const bytes = Robots.parse(new TextEncoder().encode('User-agent: *\nDisallow: /x\n'), { dialect: 'google', maxBytes: 1000 });
  eq('bytes + google', [bytes.isAllowed('/x', 'a'), bytes.isAllowed('/y', 'a'), bytes.dialect], [false, true, 'google']);
  bytes.free();
  robots.free();
  try {
    robots.isAllowed('/', 'x');
    failures.push('no error after free()');
  } catch (e) {
    eq('after free', [e instanceof Error, /freed/.test(e.message)], [true, true]);
  }
  const ai = Robots.parse('User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes\nAllow: /\n');
  const prefs = ai.aiPreferences('https://example.com/page', 'FooBot');
  eq('aiPreferences', [prefs.contentUsage['train-ai'], prefs.contentUsage.search, prefs.contentSignal?.search], ['n', null, 'yes']);
  // The AI-use module, compiled on the first aiUse.
  const use = ai.aiUse('https://example.com/page', 'FooBot', { headers: { 'x-robots-tag': 'noindex' }, tdmrep: '[{"location":"/","tdm-reservation":1}]' });
  eq('aiUse', [use['train-ai'].answer, use['train-ai'].by.map((e) => e.signal), use.trace.map((e) => e.signal)],
    ['deny', ['content-usage', 'tdmrep'], ['robots.txt', 'content-usage', 'content-signal', 'tdmrep', 'x-robots-tag']]);
  ai.free();
  // The policy module, compiled on the first decision.
  const rules = new RobotRules('FooBot');
  rules.parse('https://example.com/robots.txt', ROBOTS);
  eq('RobotRules', [rules.allowed('https://example.com/private/x'), rules.allowed('https://example.com/private/open/1'), rules.allowed('https://other.example/')], [false, true, undefined]);
  rules.clear();
  // META tags and X-Robots-Tag: the rich module, compiled already (explain).
  const meta = metaRobots('<head><meta name="robots" content="noindex"><meta name="FooBot" content="nofollow"></head>', 'FooBot');
  eq('metaRobots', [meta.index, meta.follow, meta.directives.length], [false, false, 2]);
  eq('xRobotsTag', [xRobotsTag(['FooBot: noarchive', 'nosnippet'], 'FooBot').archive, xRobotsTag('otherbot: noindex', 'FooBot').index], [false, true]);
  try {
    Robots.parse('', { dialect: 'nope' });
    failures.push('no error for an unknown dialect');
  } catch (e) {
    eq('unknown dialect', e instanceof RangeError, true);
  }
  return failures;
}

/** The 'robots-eval/verdict' entry (`pkg`: its exports): verdicts and the policy (the main entry's classes). */
export function smokeVerdict(pkg) {
  const { Robots, RobotRules } = pkg;
  const failures = [];
  const eq = (what, got, want) => {
    const g = JSON.stringify(got), w = JSON.stringify(want);
    if (g !== w) failures.push(`verdict entry: ${what}: got ${g}, want ${w}`);
  };
  const robots = Robots.parse(ROBOTS);
  eq('isAllowed', [robots.isAllowed('https://example.com/private/x', 'FooBot'), robots.isAllowed('/private/open/1', 'BarBot')], [false, true]);
  eq('table', robots.table(['/private/x'], ['FooBot', 'Other']).lines, [[3, 8]]);
  eq('crawlDelay, sitemaps, host', [robots.crawlDelay('FooBot'), robots.sitemaps, robots.host], [2.5, ['https://example.com/sitemap.xml'], null]);
  robots.free();
  const rules = new RobotRules('FooBot');
  rules.parse('https://example.com/robots.txt', ROBOTS);
  eq('RobotRules', rules.allowed('https://example.com/private/x'), false);
  rules.clear();
  return failures;
}
