// The playground's labels for the dialects. What a verdict means, in each dialect's words (why
// this group, why this rule decides, the reason in a few words), comes with each answer from the
// core (`explain()`: group.why, group.lines/ends, why, because; src/report.rs): nothing here re-derives it.

export const DIALECTS = [
  {
    id: 'rfc9309', short: 'RFC 9309', name: 'RFC 9309 (2022)',
    about: 'The Robots Exclusion Protocol standard: Allow and Disallow, longest match wins, * and $ wildcards, /robots.txt always allowed.',
  },
  {
    id: 'google', short: 'Google', name: 'Google (google/robotstxt)',
    about: 'What Google’s reference library does: RFC 9309 plus its leniencies (misspelt fields, missing colons), and /robots.txt is not special.',
  },
  {
    id: 'draft1996', short: '1996 draft', name: '1996 draft (Koster)',
    about: '“A Method for Web Robots Control”: Allow and Disallow, first match wins, records end at blank lines, no wildcards.',
  },
  {
    id: 'original1994', short: '1994', name: '1994 standard',
    about: '“A Standard for Robot Exclusion”: Disallow only (Allow lines are ignored), plain prefixes, records end at blank lines.',
  },
  {
    id: 'revisited', short: 'Revisited', name: 'Revisited (Kollar et al.)',
    about: '“Robot Exclusion Standard Revisited”: the 1994 model with several agents and several paths per line, separated by spaces.',
  },
];

export const DIALECT_BY_ID = Object.fromEntries(DIALECTS.map((d) => [d.id, d]));

/** Every line of the core's spans of the groups (`explain().group`: from `lines[i]` to `ends[i]`). */
export function spanLines(group) {
  const out = [];
  group?.lines.forEach((first, i) => { for (let n = first; n <= group.ends[i]; n++) out.push(n); });
  return out;
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

/**
 * One line for a tooltip: cell = { allowed, reason, line }, text = the deciding line's text,
 * because = the core's words for the reason (`explain().because`).
 */
export function shortText(cell, text, because) {
  const verdict = cell.allowed ? '✓ Allowed' : '✗ Disallowed';
  if (cell.reason === 'rule' && cell.line) return `${verdict} by line ${cell.line}: ${text}`;
  return `${verdict}: ${because}${cell.line ? ` (line ${cell.line})` : ''}`;
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
