// Type-checked (tsc --noEmit, types.test.mjs) against the .d.ts shipped in the packed package.
import { Robots, type Explanation, type DecisionTable, type Diagnostic, type Dialect } from 'robots-eval';

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
const sitemaps: string[] = robots.sitemaps;
const diagnostics: Diagnostic[] = robots.diagnostics;
const severity: 'info' | 'warning' | 'error' = diagnostics[0].severity;
const dialects: Dialect[] = Robots.dialects;
robots.free();
bytes[Symbol.dispose]();

// @ts-expect-error: the URL must be a string or URL
robots.isAllowed(42, 'bot');
// @ts-expect-error: the constructor is private, Robots.parse creates objects
new Robots();
// @ts-expect-error: sitemaps is read-only
robots.sitemaps = [];

export { allowed, line, pattern, agents, cell, delay, sitemaps, severity, dialects };

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
