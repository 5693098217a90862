// Coverage: which rule of a robots.txt decides how much of a site. Shared by the npm command
// (`robots-eval coverage`, js/cli.mjs) and the playground's chart (www/app.js, from www/vendor/);
// the native CLI computes the same from the Rust core's verdicts (src/bin/robots-eval/coverage.rs)
// and tests/data/cli-cases.json holds the cases both print alike. It reads only the package's
// public API: a `table()` gives each answer's deciding line, `explain()` the groups a crawler
// obeys, and `diagnostics` which lines the dialect ignores or reads as another field.

/**
 * The coverage of `t`, a `robots.table(urls, agents)` of `robots`, with `lines` the file's lines as
 * written (null when the rules were not read from a text: a fetch taken as allow-all or
 * disallow-all), `names` the crawlers and `urls` the URLs as the user wrote them:
 *
 *   { urls, agents, answers, rules: [{ line, rule, agents: { name: answers }, allowed, disallowed,
 *     status, matched, urls }], no_rule: { allowed, disallowed }, other_groups }
 *
 * `rules`: every Allow/Disallow rule of the groups these crawlers obey, in line order, with the
 * answers (URL x crawler) it decides, allowed and disallowed, and the URLs it decides, in input
 * order. `status`: `decides`; `shadowed` when it matches some URLs (`matched` of them) but
 * another rule always decides; `unmatched` when it matches none. `no_rule`: the answers no rule
 * decides (no rule matches, no group applies, /robots.txt). `other_groups`: the rules of groups
 * none of these crawlers obeys (not counted).
 */
export function coverage(robots, t, { lines = null, names = t.agents.map(String), urls = t.urls } = {}) {
  const byLine = new Map();
  const entry = (line) => {
    let e = byLine.get(line);
    if (!e) byLine.set(line, (e = { line, rule: '', agents: {}, allowed: 0, disallowed: 0, status: 'decides', matched: 0, urls: [], last: -1, counts: new Array(names.length).fill(0) }));
    return e;
  };
  const noRule = { allowed: 0, disallowed: 0 };
  // Who obeys which group: the first user-agent line of each group a crawler obeys.
  const starts = t.agents.map((a) => new Set(robots.explain('/', a).group?.lines ?? []));
  for (let r = 0; r < t.urls.length; r++) {
    for (let c = 0; c < t.agents.length; c++) {
      const line = t.lines[r][c];
      const allowed = t.allowed[r][c];
      if (!line) {
        noRule[allowed ? 'allowed' : 'disallowed']++;
        continue;
      }
      const e = entry(line);
      e[allowed ? 'allowed' : 'disallowed']++;
      e.counts[c]++;
      if (e.last !== r) e.urls.push(urls[r]);
      e.last = r;
      // Without a text, the rule as the package has it ("Disallow: /" of a disallow-all fetch).
      if (!e.rule && !lines) {
        const { kind, pattern } = robots.explain(t.urls[r], t.agents[c]).rule;
        e.rule = `${kind === 'allow' ? 'Allow' : 'Disallow'}: ${pattern}`;
      }
    }
  }
  let otherGroups = 0;
  for (const { line, start } of lines ? ruleLines(lines, robots) : []) {
    const obey = t.agents.map((_, c) => c).filter((c) => starts[c].has(start));
    if (!obey.length && !byLine.has(line)) {
      otherGroups++;
      continue;
    }
    const e = entry(line);
    for (const c of obey) e.agents[c] = true;
  }
  const rules = [...byLine.values()].sort((a, b) => a.line - b.line);
  for (const e of rules) {
    // The crawlers in the order given: those it decides for, and those whose group holds it.
    e.agents = Object.fromEntries(names.flatMap((n, c) => (e.counts[c] > 0 || e.agents[c] ? [[n, e.counts[c]]] : [])));
    delete e.last;
    delete e.counts;
    if (lines) e.rule = shown(lines[e.line - 1]);
  }
  // The rules that decide nothing: do they match any of the URLs at all? Each is asked alone, in
  // the same dialect (whether it allows or disallows does not change what it matches): one file
  // with a group of its own for each, one table over the URLs.
  const idle = rules.filter((e) => e.allowed + e.disallowed === 0);
  if (idle.length) {
    // Product tokens are letters, '-' and '_': the k-th probe is named by k in letters.
    // All of one length, so that none is a part of another (the 1994-style dialects match parts).
    const token = (k) => `coverage-probe-${k.toString(26).padStart(4, '0').replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)))}`;
    const text = idle.map((e, k) => `User-agent: ${token(k)}\nDisallow: ${e.rule.replace(/#.*$/, '').replace(/^[^\s:]+\s*:?\s*/, '').trim()}\n`).join('\n');
    // (robots.constructor: the package's Robots, whichever build this module was given.)
    const alone = robots.constructor.parse(text, { dialect: robots.dialect });
    try {
      const m = alone.table(t.urls, idle.map((_, k) => token(k)));
      idle.forEach((e, k) => {
        e.matched = m.reasons.reduce((n, row) => n + (row[k] === 'rule' ? 1 : 0), 0);
        e.status = e.matched > 0 ? 'shadowed' : 'unmatched';
      });
    } finally {
      alone.free();
    }
  }
  return { urls: t.urls.length, agents: names, answers: t.urls.length * t.agents.length, rules, no_rule: noRule, other_groups: otherGroups };
}

/** A line as shown: cut at a NUL, trimmed, without a byte order mark. */
const shown = (line = '') => line.replace(/^\uFEFF/, '').replace(/\0[\s\S]*$/, '').trim();

/** The dialects in which a blank line ends a record (the rules after it belong to no group). */
const BLANK_ENDS = new Set(['draft1996', 'original1994', 'revisited']);
/** The diagnostics of a line the dialect does not read as a rule. */
const IGNORED = new Set(['missing-colon', 'rule-outside-group', 'allow-ignored', 'unknown-field', 'blank-line-ends-group']);

/**
 * The Allow/Disallow lines of the file as the dialect reads them, each with the first user-agent
 * line of its group: [{ line, start }]. The package lists a rule only when it decides something,
 * so the others are found in the text: a field allow or disallow (without its colon only where
 * the dialect accepts that), or a field the dialect reads as one (its typo and key-prefix
 * diagnostics say so), on a line the dialect does not ignore.
 */
function ruleLines(lines, robots) {
  const diagnosed = new Map();
  for (const d of robots.diagnostics) {
    if (!diagnosed.has(d.line)) diagnosed.set(d.line, []);
    diagnosed.get(d.line).push(d);
  }
  const blankEnds = BLANK_ENDS.has(robots.dialect);
  const out = [];
  let start = 0; // the group's first user-agent line, 0 outside any group
  let inRules = false; // a rule or record has been seen since the user-agent lines
  lines.forEach((raw, i) => {
    const line = i + 1;
    const text = shown(raw).replace(/#.*$/, '').trim();
    const field = /^([^\s:]+)\s*(:?)/.exec(text);
    if (!field) {
      if (blankEnds && !raw.trim()) start = 0;
      return;
    }
    const notes = diagnosed.get(line) ?? [];
    const key = field[1].toLowerCase();
    const readAs = notes.map((d) => /read as (user-agent|allow|disallow)\b/i.exec(d.message)?.[1].toLowerCase()).find(Boolean) ?? key;
    if (readAs === 'user-agent' || readAs === 'useragent') {
      if (inRules || !start) start = line;
      inRules = false;
      return;
    }
    inRules = true;
    if (readAs !== 'allow' && readAs !== 'disallow') return;
    if (!field[2] && !notes.some((d) => d.code === 'missing-colon-accepted')) return;
    if (notes.some((d) => IGNORED.has(d.code)) || !start) return;
    out.push({ line, start });
  });
  return out;
}
