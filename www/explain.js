// Words for verdicts: what each dialect does, and why a cell is what it is.
// The rules named here are the core's dialect presets (src/dialect.rs, src/agent.rs).

// The record-based dialects (1996, 1994, Revisited) all fall back the same way.
const FIRST_STAR_RECORD = 'No record names this robot, so the first User-agent: * record applies.';

export const DIALECTS = [
  {
    id: 'rfc9309', short: 'RFC 9309', name: 'RFC 9309 (2022)',
    about: 'The Robots Exclusion Protocol standard: Allow and Disallow, longest match wins, * and $ wildcards, /robots.txt always allowed.',
    select: 'the groups whose User-agent product token equals the crawler’s token, ignoring case (RFC 9309 §2.2.1); all such groups are merged. For a full User-Agent header, the longest word of it that names a group is used.',
    global: 'No group names this crawler, so the groups for User-agent: * apply (RFC 9309 §2.2.1).',
    precedence: 'the most specific rule (the longest matching path) wins; on a tie, Allow wins (RFC 9309 §2.2.2).',
  },
  {
    id: 'google', short: 'Google', name: 'Google (google/robotstxt)',
    about: 'What Google’s reference library does: RFC 9309 plus its leniencies (misspelt fields, missing colons), and /robots.txt is not special.',
    select: 'the groups whose product token (the leading letters, - and _ of the User-agent value) equals the crawler string, ignoring case — pass the product token, not a full header; all such groups are merged.',
    global: 'No group names this crawler, so the groups for User-agent: * apply.',
    precedence: 'the most specific rule (the longest matching path) wins; on a tie, Allow wins.',
  },
  {
    id: 'draft1996', short: '1996 draft', name: '1996 draft (Koster)',
    about: '“A Method for Web Robots Control”: Allow and Disallow, first match wins, records end at blank lines, no wildcards.',
    select: 'the first record whose User-agent value contains the robot’s name, ignoring case (for a full header, its first product that is not Mozilla/compatible); only that record counts.',
    global: FIRST_STAR_RECORD,
    precedence: 'the first matching rule of the record, in file order, wins.',
  },
  {
    id: 'original1994', short: '1994', name: '1994 standard',
    about: '“A Standard for Robot Exclusion”: Disallow only (Allow lines are ignored), plain prefixes, records end at blank lines.',
    select: 'the first record whose User-agent value is contained in the robot’s User-agent string, ignoring case (so “bot” also matches “Robot”); only that record counts.',
    global: FIRST_STAR_RECORD,
    precedence: 'any Disallow whose value starts the path excludes it; Allow does not exist in 1994, so those lines are ignored.',
  },
  {
    id: 'revisited', short: 'Revisited', name: 'Revisited (Kollar et al.)',
    about: '“Robot Exclusion Standard Revisited”: the 1994 model with several agents and several paths per line, separated by spaces.',
    select: 'the first record with a User-agent id contained in the robot’s User-agent string, ignoring case; only that record counts.',
    global: FIRST_STAR_RECORD,
    precedence: 'any Disallow path that starts the URL’s path excludes it; Allow lines are ignored.',
  },
];

const q = (s) => `“${s}”`;
const tokenOf = (v) => (/^[A-Za-z0-9_.-]*/.exec(v)?.[0] ?? '').toLowerCase();
const isHeader = (a) => /[\s/;()]/.test(a.trim());

/** Why this group, in words specific to the dialect, the crawler and the group. */
export function whySelected(dialectId, agent, group, nGroups) {
  const values = (group?.agents ?? []).filter((a) => a.trim() !== '*');
  const merged = nGroups > 1 ? ` The ${nGroups} groups that name it are merged into one.` : '';
  switch (dialectId) {
    case 'rfc9309': {
      if (isHeader(agent)) {
        const tokens = new Set(values.map(tokenOf));
        const words = agent.split(/[^A-Za-z0-9_.-]+/).filter((w) => tokens.has(w.toLowerCase()));
        const word = words.sort((a, b) => b.length - a.length)[0] ?? agent;
        return `${q(word)}, a word of this User-Agent header, equals the group's product token, ignoring case (RFC 9309 §2.2.1; of a full header, the longest word that names a group is used).${merged}`;
      }
      return `${q(agent)} equals the group's product token, ignoring case (RFC 9309 §2.2.1).${merged}`;
    }
    case 'google':
      return `${q(agent)} equals the group's product token, ignoring case. google/robotstxt compares the whole string it is given, so pass a product token such as Googlebot, not a full header.${merged}`;
    case 'draft1996':
      return `This is the first record whose User-agent value (${values.map(q).join(', ')}) contains the robot's name, ignoring case (1996 draft); records after it are not read.`;
    default:
      return `This is the first record with a User-agent value (${values.map(q).join(', ')}) that occurs in ${q(agent)}, ignoring case (1994 standard: a substring match, so “bot” would also match “Robot”); records after it are not read.`;
  }
}

export const DIALECT_BY_ID = Object.fromEntries(DIALECTS.map((d) => [d.id, d]));

export const REASON_SHORT = {
  'robots-txt': '/robots.txt is always allowed',
  'rule': 'decides',
  'empty-rule': 'only an empty rule matched',
  'no-match': 'no rule matches',
  'no-group': 'no group applies',
};

/** Line numbers of a group, however the package lists them. */
export function groupLines(group) {
  if (!group) return [];
  const l = group.lines;
  if (Array.isArray(l)) return l.filter((n) => Number.isInteger(n) && n > 0);
  if (l && typeof l === 'object' && 'start' in l) {
    const out = [];
    for (let n = l.start; n <= l.end; n++) out.push(n);
    return out;
  }
  return [];
}

/** "9–12" or "3, 9–12". */
export function ranges(lines) {
  const s = [...new Set(lines)].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    out.push(i === j ? `${s[i]}` : `${s[i]}–${s[j]}`);
    i = j;
  }
  return out.join(', ');
}

export function isGlobal(group) {
  return !!group && Array.isArray(group.agents) && group.agents.some((a) => a.trim() === '*');
}

/** One line for a tooltip: cell = { allowed, reason, line }, text = the deciding line's text. */
export function shortText(cell, text) {
  const verdict = cell.allowed ? '✓ Allowed' : '✗ Disallowed';
  if (cell.reason === 'rule' && cell.line) return `${verdict} by line ${cell.line}: ${text}`;
  if (cell.reason === 'empty-rule') return `${verdict}: only the empty rule${cell.line ? ` on line ${cell.line}` : ''} matched`;
  if (cell.reason === 'no-match') return `${verdict}: no rule of the crawler's group matches`;
  if (cell.reason === 'no-group') return `${verdict}: no group applies to this crawler`;
  if (cell.reason === 'robots-txt') return `${verdict}: /robots.txt itself is always allowed`;
  return verdict;
}

const BLANK_ENDS = new Set(['draft1996', 'original1994', 'revisited']);
const isUA = (l) => /^\s*user-?agent\s*:?/i.test(l);
const isBlank = (l) => /^\s*$/.test(l);
const isComment = (l) => /^\s*#/.test(l);

/**
 * Every line of the groups that start at `starts` (1-based User-agent lines): a group runs to the
 * next User-agent line after a rule, or, in the dialects where a blank line ends a record, to the
 * first blank line. Only for highlighting; the verdicts come from the core.
 */
export function groupExtent(textLines, starts, dialect) {
  const out = [];
  const blankEnds = BLANK_ENDS.has(dialect?.id);
  for (const start of starts) {
    let sawRule = false;
    for (let n = start; n <= textLines.length; n++) {
      const l = textLines[n - 1] ?? '';
      if (blankEnds && isBlank(l)) break;
      if (n > start && isUA(l) && sawRule) break;
      if (!isUA(l) && !isBlank(l) && !isComment(l)) sawRule = true;
      out.push(n);
    }
    // trailing blank and comment lines belong to no one
    while (out.length && out[out.length - 1] > start && (isBlank(textLines[out[out.length - 1] - 1] ?? '') || isComment(textLines[out[out.length - 1] - 1] ?? ''))) out.pop();
  }
  return out;
}

export function kindName(kind) {
  if (!kind) return 'Rule';
  const k = String(kind).toLowerCase();
  return k === 'allow' ? 'Allow' : k === 'disallow' ? 'Disallow' : kind;
}

// ---------------------------------------------------------------- AI usage preferences
// The values and reasons come from the package's aiPreferences (docs/ai-preferences.md); these are
// only the words and symbols for them.

/** The Content-Usage categories the table shows as badges; the explanation lists every category. */
export const AI_BADGES = [
  { key: 'train-ai', short: 'T', name: 'train-ai (AI training)' },
  { key: 'search', short: 'S', name: 'search' },
];

/** The badges in words, for a copied table. */
export const AI_LEGEND = 'AI usage preferences: T train-ai and S search from Content-Usage (✓ y, ✗ n, ? unknown); CS Content-Signal (s search, i ai-input, t ai-train; a signal not given is left out; – no line applies).';

/** Content-Signal's signals (Cloudflare's Content Signals Policy), with their badge letters. */
export const SIGNALS = [
  { key: 'search', short: 's' },
  { key: 'ai-input', short: 'i' },
  { key: 'ai-train', short: 't' },
];

const USAGE_SYMBOL = { y: '✓', n: '✗' };
const SIGNAL_SYMBOL = { yes: '✓', no: '✗' };
/** ✓, ✗, or ? for unknown. */
export const usageSymbol = (v) => USAGE_SYMBOL[v] ?? '?';
export const signalSymbol = (v) => SIGNAL_SYMBOL[v] ?? '?';
export const usageWord = (v) => (v === 'y' ? 'y (allowed)' : v === 'n' ? 'n (disallowed)' : 'unknown');

// A reason that comes from a statement in the file (as against "nothing applies").
const FROM_A_STATEMENT = new Set(['stated', 'not-stated', 'not-y-or-n', 'malformed']);

/** Whether an answer says anything about AI use: a Content-Usage statement decided, or a Content-Signal line applies. */
export function aiSpeaks(p) {
  return p.contentSignal !== null || Object.values(p.why.contentUsage).some((w) => FROM_A_STATEMENT.has(w.code));
}

/** Every line that gave a Content-Signal value, in order. */
export function signalLines(p) {
  const lines = Object.values(p.why.contentSignal ?? {}).filter((l) => Number.isInteger(l) && l > 0);
  return [...new Set(lines)].sort((a, b) => a - b);
}

/** "search=yes, ai-train=no, use=reference; ai-input unknown", or the absence of a line. */
export function signalText(signal) {
  if (!signal) return "no Content-Signal line applies to this crawler's group";
  const given = Object.entries(signal).filter(([, v]) => v !== null).map(([k, v]) => `${k}=${v}`);
  const missing = SIGNALS.filter((s) => signal[s.key] === null).map((s) => s.key);
  return `${given.length ? given.join(', ') : 'no signal given'}${missing.length ? `; ${missing.join(', ')} unknown` : ''}`;
}
