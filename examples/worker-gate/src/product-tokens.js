// Which product token of a table (the address lists' crawlers, the AI crawler table) a User-Agent
// names, as the engine reads it: the gate asks robots-eval itself, never a reading of its own.
// A User-Agent is a claim to be a listed crawler exactly when the engine would give it that
// crawler's group, in the configured dialect: whatever separators the header uses (rfc9309 reads
// every run of letters, digits, `-`, `_` and `.` as a word: `Googlebot:2.1` is Googlebot), and in
// the substring dialects (draft1996, original1994, revisited) whatever surrounds the token
// (`xGooglebotx`). A second reading in JavaScript would drift from the engine's, and a header in
// the gap between the two would get a crawler's group without being checked as its claim.
//
// How: one robots.txt per table and dialect, parsed once, with one group per token (most
// specific first: longer tokens before the tokens they contain, which is the order the
// substring dialects pick in). Group i is told apart by its rules: its number i + 1 in binary,
// one `Disallow: /<bit>/` per bit set. isAllowed('/<bit>/', userAgent) for each bit reads the
// number of the group the engine selects back (0: none of them, the file has no `*` group).
// A few calls on a file of a few dozen lines, and the package caches the selection per agent.
import { Robots } from 'robots-eval';

const DIALECTS = new Set(Robots.dialects);

/** Whether `s` is a product token a table may hold (RFC 9110 `token` characters but `#`, which starts a robots.txt comment). */
export function isToken(s) {
  return typeof s === 'string' && /^[!$%&'*+.^_`|~0-9A-Za-z-]+$/.test(s);
}

/**
 * A finder over `table` (Map(lower-case token -> entry with a `token`)): `(userAgent) => entry`
 * of the token whose group the engine gives that User-Agent in `dialect`, or null. The file is
 * parsed on the first call (a browser request never pays for it).
 */
export function tokenFinder(table, dialect) {
  let read = null;
  return (ua) => {
    read ??= reader([...table.values()].map((e) => e.token), dialect);
    const token = read(ua);
    return token === null ? null : table.get(token.toLowerCase()) ?? null;
  };
}

/** `(userAgent) => token | null` for `tokens` in `dialect` (rfc9309 when the name is not one). */
export function reader(tokens, dialect) {
  const unique = [...new Map(tokens.map((t) => [t.toLowerCase(), t])).values()]
    // Most specific first (the substring dialects take the first group that matches).
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  if (unique.length === 0) return () => null;
  const bits = Math.ceil(Math.log2(unique.length + 1));
  const lines = [];
  unique.forEach((token, i) => {
    lines.push(`User-agent: ${token}`);
    for (let b = 0; b < bits; b++) if (((i + 1) >> b) & 1) lines.push(`Disallow: /${b}/`);
    lines.push('');
  });
  const robots = Robots.parse(lines.join('\n'), { dialect: DIALECTS.has(String(dialect).toLowerCase()) ? dialect : 'rfc9309' });
  const paths = Array.from({ length: bits }, (_, b) => `/${b}/`);
  return (ua) => {
    let n = 0;
    for (let b = 0; b < bits; b++) if (!robots.isAllowed(paths[b], ua)) n |= 1 << b;
    return n === 0 ? null : unique[n - 1] ?? null;
  };
}
