// The types of 'robots-eval/verdict': the verdict API as the main entry's, and no rich calls.
import { Robots, fetchRobots, RobotRules, type DecisionTable, type FetchSource } from 'robots-eval/verdict';
import DefaultRobots from 'robots-eval/verdict';

const robots: Robots = Robots.parse('User-agent: *\nDisallow: /x\n', { dialect: 'google' });
const allowed: boolean = robots.isAllowed(new URL('https://example.com/x'), ['Googlebot-News', 'Googlebot']);
const table: DecisionTable = robots.table(['/a'], ['a']);
const delay: number | undefined = robots.crawlDelay('a');
const sitemaps: string[] = robots.sitemaps;
const host: string | null = robots.host;
const truncated: boolean = robots.truncated;
// @ts-expect-error explain is the rich module's: not in this entry
robots.explain('/x', 'a');
// @ts-expect-error nor the diagnostics
robots.diagnostics;
// @ts-expect-error nor aiUse
robots.aiUse('/x', 'a');
robots.free();
const same: typeof Robots = DefaultRobots;
const rules = new RobotRules('MyBot');
const allowedThere: boolean | undefined = rules.allowed('https://example.com/x');
async function fetched(): Promise<FetchSource | null> {
  const r = await fetchRobots('https://example.com/');
  const again = await fetchRobots('https://example.com/', { previous: r, dialect: 'google' });
  const ok: boolean = r.isAllowed('/x', 'MyBot') && again.isAllowed('/x', 'MyBot');
  again.free();
  r.free();
  return ok ? r.source : null;
}
export { allowed, table, delay, sitemaps, host, truncated, same, allowedThere, fetched };
