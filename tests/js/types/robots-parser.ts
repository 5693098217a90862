// Type-checked (tsc --noEmit, types.test.mjs): robots-eval/robots-parser and the override package
// (installed as robots-parser) from an ES module, as robots-parser's users write it.
import robotsParser, { type Robot } from 'robots-eval/robots-parser';
import overridden, { type Robot as OverriddenRobot } from 'robots-parser';

const robot: Robot = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /\n');
const allowed: boolean | undefined = robot.isAllowed('https://example.com/x');
const named: boolean | undefined = robot.isAllowed('https://example.com/x', 'MyBot/1.0');
const disallowed: boolean | undefined = robot.isDisallowed('https://example.com/x', 'MyBot');
const explicit: boolean | undefined = robot.isExplicitlyDisallowed('https://example.com/x', 'MyBot');
const line: number = robot.getMatchingLineNumber('https://example.com/x');
const delay: number | undefined = robot.getCrawlDelay();
const sitemaps: string[] = robot.getSitemaps();
const host: string | null = robot.getPreferredHost();
robotsParser('https://example.com/robots.txt', null);
const other: OverriddenRobot = overridden('https://example.com/robots.txt', '');
// Crawlee's way: `Pick<Robot, 'isAllowed' | 'getSitemaps'>` and `isAllowed(url, ua) ?? true`.
const picked: Pick<OverriddenRobot, 'isAllowed' | 'getSitemaps'> = robot;
const crawlee: boolean = picked.isAllowed('https://example.com/x', '*') ?? true;
// @ts-expect-error: a verdict may be undefined (a URL of another site)
const strict: boolean = robot.isAllowed('https://example.com/x');
// @ts-expect-error: isExplicitlyDisallowed needs the agent
robot.isExplicitlyDisallowed('https://example.com/x');
void allowed; void named; void disallowed; void explicit; void line; void delay; void sitemaps; void host; void other; void crawlee; void strict;
