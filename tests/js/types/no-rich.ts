// Type-checked alone (tsconfig.no-rich.json, types.test.mjs): a program that never imports
// 'robots-eval/rich'. The calls that entry installs throw an Error without it, so they must not
// type-check here: each @ts-expect-error below fails the check if its line ever compiles.
import { Robots, RobotRules } from 'robots-eval';

const robots = Robots.parse('User-agent: *\nDisallow: /x\n');
const allowed: boolean = robots.isAllowed('/x', 'bot');
const table = robots.table(['/x'], ['bot']);
// @ts-expect-error explain is declared by 'robots-eval/rich', not imported here
robots.explain('/x', 'bot');
// @ts-expect-error aiPreferences too
robots.aiPreferences('/x', 'bot');
// @ts-expect-error aiUse too
robots.aiUse('/x', 'bot');
// @ts-expect-error records too
robots.records;
// @ts-expect-error diagnostics too
robots.diagnostics;
// @ts-expect-error table's preference columns are the rich module's aiPreferences
robots.table(['/x'], ['bot'], { ai: true });
const rules = new RobotRules('bot');
// @ts-expect-error RobotRules' explain asks the Robots' explain
rules.explain('https://example.com/x');
robots.free();
export { allowed, table };
