// AI crawlers and the purposes their operator documents for them. The rows are the package's one
// operator table (the core's src/aipref/operators.rs, the table Robots.aiUse reads), generated
// into ai-operators.js; here they are keyed by the tokens a User-Agent carries. A site owner adds
// or overrides rows from wrangler.toml:
//
//   [[vars.AI_CRAWLERS]]
//   token = "ExampleAI-Bot"
//   purposes = ["train-ai"]
//   source = "https://example.com/bot"
//
// `token` is the product token as in the operator's docs (matched case-insensitively against the
// User-Agent's product tokens). Control tokens that never appear in a User-Agent
// (Google-Extended, Applebot-Extended: robots.txt-only, read for what Googlebot and Applebot
// fetch) are not keys here; the resolver reads them for their crawler (ai-use.js).
import { OPERATORS } from './ai-operators.js';
import { isToken } from './product-tokens.js';

/**
 * The purposes, named as the aipref vocabulary labels them (draft-ietf-aipref-vocab-08 §4: AI
 * Training, AI Use, Search), with the Content-Signal key each one is also stated by. The gate's
 * earlier names (`training`, `user-input`) are still accepted in AI_CRAWLERS rows.
 */
export const PURPOSES = {
  'train-ai': { contentUsage: 'train-ai', contentSignal: 'ai-train' },
  'ai-use': { contentUsage: 'ai-use', contentSignal: 'ai-input' },
  search: { contentUsage: 'search', contentSignal: 'search' },
};
const ALIASES = { training: 'train-ai', 'user-input': 'ai-use' };
const KINDS = ['crawler', 'user-fetcher'];

/** The built-in rows: every token of the operator table a User-Agent sends, with a purpose. */
export const AI_CRAWLERS = OPERATORS.filter((r) => r.kind !== 'control-token' && r.purposes.length > 0);

/**
 * The table with the site owner's rows (`AI_CRAWLERS` from wrangler.toml: an array of tables, or
 * the same as a JSON string) added; a row with the token of a built-in one replaces it. A row's
 * `kind` is `crawler` (default) or `user-fetcher` (a fetch on one user's request; the earlier
 * purpose name `user-input` implies it). Rows with no token, an unknown purpose or kind are an
 * error, reported when the Worker first needs them.
 */
export function aiCrawlerTable(extra) {
  const rows = typeof extra === 'string' && extra.trim() !== '' ? JSON.parse(extra) : extra ?? [];
  if (!Array.isArray(rows)) throw new TypeError('AI_CRAWLERS must be an array of { token, purposes, source }');
  const byToken = new Map(AI_CRAWLERS.map((r) => [r.token.toLowerCase(), r]));
  for (const row of rows) {
    const given = Array.isArray(row?.purposes) ? row.purposes : [row?.purposes];
    const purposes = given.map((p) => ALIASES[p] ?? p);
    const kind = row?.kind ?? (given.includes('user-input') ? 'user-fetcher' : 'crawler');
    if (!isToken(row?.token) || !purposes.every((p) => p in PURPOSES) || !KINDS.includes(kind)) {
      throw new TypeError(`AI_CRAWLERS: ${JSON.stringify(row)} needs a token, purposes among ${Object.keys(PURPOSES).join(', ')} and a kind among ${KINDS.join(', ')}`);
    }
    byToken.set(row.token.toLowerCase(), { operator: '', source: '', ...row, kind, purposes: [...new Set(purposes)], override: true });
  }
  return byToken;
}
