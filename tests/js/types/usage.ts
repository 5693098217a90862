// Type-checked (tsc --noEmit, types.test.mjs) against the .d.ts shipped in the packed package.
// The rich calls (explain, aiPreferences, aiUse, records, diagnostics) are declared by the entry
// that installs them: types/no-rich.ts checks that they are not declared without it.
import 'robots-eval/rich';
import { Robots, parseContentUsage, type Explanation, type DecisionTable, type Diagnostic, type Dialect, type Agent, type RequestRate, type RobotsRecord, type AiPreferences, type AiUsage, type ContentUsage } from 'robots-eval';

const robots: Robots = Robots.parse('User-agent: *\nDisallow: /\n', { dialect: 'google', maxBytes: 512000 });
const bytes = Robots.parse(new Uint8Array([10]));
const allowed: boolean = robots.isAllowed('https://example.com/', 'bot');
robots.isAllowed(new URL('https://example.com/'), 'bot');
const why: Explanation = robots.explain('/x', 'bot');
const line: number = why.line;
const pattern: string | undefined = why.rule?.pattern;
const agents: string[] | undefined = why.group?.agents;
const table: DecisionTable = robots.table(['/a', '/b'], ['a', 'b']);
const cell: boolean = table.allowed[0][1];
const delay: number | undefined = robots.crawlDelay('bot');
const listed: boolean = robots.isAllowed('/x', ['Googlebot-News', 'Googlebot']);
const mine: boolean = robots.isExplicitlyDisallowed('/x', 'bot');
const rate: RequestRate | undefined = robots.requestRate(['a', 'b'] as const);
const host: string | null = robots.host;
const record: RobotsRecord | undefined = robots.records[0];
const recordAgents: readonly string[] | null | undefined = record?.agents;
const columns: Agent[] = robots.table(['/'], ['a', ['b', 'c']]).agents;
void listed; void mine; void rate; void host; void recordAgents; void columns;
// @ts-expect-error: an agent list holds strings
robots.crawlDelay([1]);
const sitemaps: string[] = robots.sitemaps;
const diagnostics: Diagnostic[] = robots.diagnostics;
const severity: 'info' | 'warning' | 'error' = diagnostics[0].severity;
const dialects: Dialect[] = Robots.dialects;
const ai: AiPreferences = robots.aiPreferences('/x', 'bot', { header: ['train-ai=n', 'search=y'] });
const train: AiUsage = ai.contentUsage['train-ai'];
const signal: 'yes' | 'no' | null | undefined = ai.contentSignal?.['ai-train'];
const reason: string = ai.why.contentUsage.search.text;
const combined: ContentUsage | undefined = ai.combined;
const headerOnly: ContentUsage = parseContentUsage('train-ai=n');
const aiTable: AiPreferences[][] | undefined = robots.table(['/a'], ['b'], { ai: true }).ai;
robots.free();
bytes[Symbol.dispose]();

// @ts-expect-error: a category's value is 'y', 'n' or null
const notYesNo: AiUsage = 'yes';
// @ts-expect-error: the header is a string or an array of strings
robots.aiPreferences('/x', 'bot', { header: 1 });

// @ts-expect-error: the URL must be a string or URL
robots.isAllowed(42, 'bot');
// @ts-expect-error: the constructor is private, Robots.parse creates objects
new Robots();
// @ts-expect-error: sitemaps is read-only
robots.sitemaps = [];

export { allowed, line, pattern, agents, cell, delay, sitemaps, severity, dialects, train, signal, reason, combined, headerOnly, aiTable, notYesNo };

// fetchRobots and the source of a fetched file.
async function fetched(): Promise<void> {
  const { fetchRobots } = await import('robots-eval');
  const r = await fetchRobots('https://example.com/page', { userAgent: 'ExampleBot/1.0', dialect: 'google', timeoutMs: 5000, maxBytes: 100_000 });
  const until: number = r.source!.freshUntil;
  const policy: 'parse' | 'allow-all' | 'disallow-all' | 'defer' | 'use-cached' = r.source!.policy;
  void until; void policy;
  // @ts-expect-error timeoutMs is a number
  await fetchRobots('https://example.com/', { timeoutMs: '5' });
}
void fetched;

// RobotRules: many sites, one crawler.
import { RobotRules, type RobotRulesOptions, type SiteSource, type RuleExplanation, type RobotRulesStats } from 'robots-eval';
const ruleOptions: RobotRulesOptions = { dialect: 'google', maxSites: 100, now: Date.now, maxBytes: 100_000, minTtlMs: 1000, retryAfterMs: 60_000 };
const rules = new RobotRules('ExampleBot/1.0', ruleOptions);
const stored: SiteSource = rules.parse('https://example.com/robots.txt', 'User-agent: *\nDisallow: /x\n', { status: 503, freshUntil: new Date() });
const storedPolicy: 'parse' | 'allow-all' | 'disallow-all' | 'defer' | 'use-cached' = stored.policy;
const maybe: boolean | undefined = rules.allowed(new URL('https://example.com/x'));
const ruleWhy: RuleExplanation = rules.explain('https://example.com/x');
if (ruleWhy.known) {
  const verdictLine: number = ruleWhy.verdict.line;
  void verdictLine;
} else if (ruleWhy.code === 'expired') {
  const at: number = ruleWhy.expiredAt;
  void at;
}
const ruleStats: RobotRulesStats = rules.stats;
const ruleDelay: number | undefined = rules.crawlDelay('https://example.com/');
const stale: boolean = rules.expired('https://example.com/');
const forgotten: boolean = rules.forget('https://example.com/');
async function fetchedRules(): Promise<SiteSource> {
  const s = await rules.fetch('https://example.com/page', { timeoutMs: 5000, retryAfterMs: 30_000, siteDown: false });
  rules.parse('https://example.com/robots.txt', null, { status: 503, siteDown: true });
  // @ts-expect-error siteDown is a boolean
  rules.parse('https://example.com/robots.txt', null, { status: 503, siteDown: 'yes' });
  // @ts-expect-error the dialect is the object's, not per fetch
  await rules.fetch('https://example.com/', { dialect: 'google' });
  return s;
}
rules.clear();
rules[Symbol.dispose]();
// @ts-expect-error the agent is required
new RobotRules();
// @ts-expect-error stats is read-only
rules.stats = ruleStats;
export { storedPolicy, maybe, ruleDelay, stale, forgotten, fetchedRules };

// Page-level rules: robots META tags and X-Robots-Tag.
import { metaRobots, xRobotsTag, type MetaRobots, type MetaDirective, type MetaOptions } from 'robots-eval';
const metaOptions: MetaOptions = { conflict: 'seed001' };
const page: MetaRobots = metaRobots('<meta name="robots" content="noindex">', 'Googlebot', metaOptions);
const fromBytes: MetaRobots = metaRobots(new Uint8Array(0), 'Googlebot');
const header: MetaRobots = xRobotsTag(['googlebot: noindex', 'unavailable_after: 25 Jun 2010 15:00:00 PST'], 'googlebot', { conflict: 'most-restrictive' });
xRobotsTag('noindex', 'bot');
const pageIndex: boolean = page.index;
const snippetLimit: number | null = page.maxSnippet;
const preview: 'none' | 'standard' | 'large' | null = page.maxImagePreview;
const until: number | null = header.unavailableAfter;
const firstDirective: MetaDirective | undefined = header.directives[0];
const scope: string | null | undefined = firstDirective?.scope;
const origin: 'meta' | 'header' | undefined = firstDirective?.origin;
const keywords: string[] = fromBytes.other.keywords;
const revisitDays: number | null | undefined = page.other.revisitAfter?.days;
// @ts-expect-error conflict is one of two names
metaRobots('', 'bot', { conflict: 'loose' });
// @ts-expect-error header values are strings
xRobotsTag([1], 'bot');
export { pageIndex, snippetLimit, preview, until, scope, origin, keywords, revisitDays };

// aiUse and fetchAiUse.
{
  const use: import('robots-eval').AiUse = robots.aiUse('/x', 'GPTBot', {
    headers: new Headers({ 'Content-Usage': 'train-ai=n' }), html: '<head></head>', tdmrep: null, purposes: ['train-ai'],
  });
  const answer: 'allow' | 'deny' | 'unknown' = use['train-ai'].answer;
  const by: import('robots-eval').AiTraceEntry | undefined = use['ai-use'].by[0];
  const effect: 'allow' | 'deny' | null | undefined = by?.effect.search;
  const at: number | undefined = use.trace[0]?.where.line;
  const condition: string | undefined = use.conditions[0]?.value;
  const known: boolean = use.crawler.known && use.crawlable;
  robots.aiUse('/x', 'GPTBot', { headers: { 'X-Robots-Tag': ['noai', 'googlebot: noindex'] }, html: new Uint8Array(1), tdmrep: new ArrayBuffer(0) });
  robots.aiUse('/x', ['GPTBot', 'OAI-SearchBot'], { headers: [['x-robots-tag', 'noai']] });
  // @ts-expect-error: purposes are the vocabulary's labels
  robots.aiUse('/x', 'bot', { purposes: ['training'] });
  // @ts-expect-error: html is text or bytes
  robots.aiUse('/x', 'bot', { html: 5 });
  const fetched = async () => {
    const { fetchAiUse } = await import('robots-eval');
    const f = await fetchAiUse('https://example.com/a', 'GPTBot', { timeoutMs: 5000, maxHtmlBytes: 65536, purposes: ['search'] });
    const what: 'robots.txt' | 'tdmrep.json' | 'page' | undefined = f.fetched[0]?.what;
    const search: 'allow' | 'deny' | 'unknown' = f.search.answer;
    // @ts-expect-error: maxHtmlBytes is a number
    await fetchAiUse('https://example.com/a', 'GPTBot', { maxHtmlBytes: '5' });
    return [what, search];
  };
  void [answer, effect, at, condition, known, fetched];
}
