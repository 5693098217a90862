// Types of js/rules.js: RobotRules and its types are declared in js/index.d.ts (the package's
// types); this file re-exports them for the repository's own imports of js/rules.js.
import type { RobotRules } from './index.js';

export type { RobotRules, RobotRulesOptions, RobotRulesParseOptions, SiteSource, RuleExplanation, RobotRulesStats } from './index.js';

export declare function defineRobotRules(api: { Robots: unknown; fetchRobots: unknown }): typeof RobotRules;
