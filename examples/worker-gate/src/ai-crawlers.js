// AI crawlers and the purpose their operator declares for them, each row with the operator's own
// documentation as its source. `AI_PREFERENCES = "enforce"` answers 403 to a crawler whose purpose
// the site refuses (see worker.js). A site owner adds or overrides rows from wrangler.toml:
//
//   [[vars.AI_CRAWLERS]]
//   token = "ExampleAI-Bot"
//   purposes = ["training"]
//   source = "https://example.com/bot"
//
// `token` is the product token as in the operator's docs (matched case-insensitively against the
// User-Agent's product tokens). Tokens that never appear in a User-Agent (Google-Extended,
// Applebot-Extended: robots.txt-only controls read by Googlebot and Applebot) are not listed: the
// gate sees only the User-Agent.

/**
 * The purposes, and the preference each one is read from: the IETF aipref vocabulary category
 * (draft-ietf-aipref-vocab-08 §4: AI Training, Search, and AI Use, "input to a generative AI
 * model when the asset is not provided directly by the user", which a fetch on a user's request
 * is) and the Cloudflare Content-Signal key.
 */
export const PURPOSES = {
  training: { contentUsage: 'train-ai', contentSignal: 'ai-train' },
  search: { contentUsage: 'search', contentSignal: 'search' },
  'user-input': { contentUsage: 'ai-use', contentSignal: 'ai-input' },
};

const OPENAI = 'https://platform.openai.com/docs/bots';
const ANTHROPIC = 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler';
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots';
const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers';

export const AI_CRAWLERS = [
  { token: 'GPTBot', operator: 'OpenAI', purposes: ['training'], source: OPENAI },
  { token: 'OAI-SearchBot', operator: 'OpenAI', purposes: ['search'], source: OPENAI },
  { token: 'ChatGPT-User', operator: 'OpenAI', purposes: ['user-input'], source: OPENAI },
  { token: 'ClaudeBot', operator: 'Anthropic', purposes: ['training'], source: ANTHROPIC },
  { token: 'Claude-SearchBot', operator: 'Anthropic', purposes: ['search'], source: ANTHROPIC },
  { token: 'Claude-User', operator: 'Anthropic', purposes: ['user-input'], source: ANTHROPIC },
  { token: 'PerplexityBot', operator: 'Perplexity', purposes: ['search'], source: PERPLEXITY },
  { token: 'Perplexity-User', operator: 'Perplexity', purposes: ['user-input'], source: PERPLEXITY },
  { token: 'CCBot', operator: 'Common Crawl', purposes: ['training'], source: 'https://commoncrawl.org/ccbot' },
  { token: 'meta-externalagent', operator: 'Meta', purposes: ['training'], source: META },
  { token: 'meta-externalfetcher', operator: 'Meta', purposes: ['user-input'], source: META },
  { token: 'Amazonbot', operator: 'Amazon', purposes: ['training'], source: 'https://developer.amazon.com/amazonbot' },
  { token: 'DuckAssistBot', operator: 'DuckDuckGo', purposes: ['user-input'], source: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot' },
  { token: 'MistralAI-User', operator: 'Mistral AI', purposes: ['user-input'], source: 'https://docs.mistral.ai/robots' },
];

/**
 * The table with the site owner's rows (`AI_CRAWLERS` from wrangler.toml: an array of tables, or
 * the same as a JSON string) added; a row with the token of a built-in one replaces it. Rows
 * with no token or an unknown purpose are an error, reported when the Worker first needs them.
 */
export function aiCrawlerTable(extra) {
  const rows = typeof extra === 'string' && extra.trim() !== '' ? JSON.parse(extra) : extra ?? [];
  if (!Array.isArray(rows)) throw new TypeError('AI_CRAWLERS must be an array of { token, purposes, source }');
  const byToken = new Map(AI_CRAWLERS.map((r) => [r.token.toLowerCase(), r]));
  for (const row of rows) {
    const purposes = Array.isArray(row?.purposes) ? row.purposes : [row?.purposes];
    if (typeof row?.token !== 'string' || row.token === '' || !purposes.every((p) => p in PURPOSES)) {
      throw new TypeError(`AI_CRAWLERS: ${JSON.stringify(row)} needs a token and purposes among ${Object.keys(PURPOSES).join(', ')}`);
    }
    byToken.set(row.token.toLowerCase(), { operator: '', source: '', ...row, purposes });
  }
  return byToken;
}

/** The row whose token is one of the User-Agent's product tokens, or null. */
export function findAiCrawler(table, ua) {
  for (const part of ua.toLowerCase().split(/[\s;()[\],]+/)) {
    const row = table.get(part.replace(/\/.*$/, ''));
    if (row) return row;
  }
  return null;
}
