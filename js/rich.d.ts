// Types of 'robots-eval/rich': the main entry's (js/index.d.ts), and the calls this entry installs
// (js/rich-methods.js), declared here and nowhere else: Robots' explain, aiPreferences, aiUse,
// records and diagnostics, RobotRules' explain, and table's option `ai`. A program that never
// imports 'robots-eval/rich' gets a type error for them, not the Error they throw at run time;
// one import of it anywhere in the program declares them on the main entry's classes (module
// augmentation of 'robots-eval', which this entry imports by name at run time too).
import type { Agent, AiOptions, AiPreferences, AiUse, AiUseOptions, DecisionTable, Diagnostic, Explanation, RobotsRecord, RuleExplanation, TableOptions } from 'robots-eval';

declare module 'robots-eval' {
  interface Robots {
    /** Every verdict for every URL and agent, in one call; `{ ai: true }` adds the AI preferences. */
    table(urls: Iterable<string | URL>, agents: Iterable<Agent>, options?: TableOptions): DecisionTable;
    /** The verdict and why. */
    explain(url: string | URL, agent: Agent): Explanation;
    /**
     * What the site says about using `url`'s content for AI (Content-Usage and Content-Signal), for
     * `agent`, each value with its reason; with `{ header }` also the response's Content-Usage
     * header alone and combined with robots.txt.
     * @throws TypeError when `header` is neither a string nor an array of strings.
     */
    aiPreferences(url: string | URL, agent: Agent, options?: AiOptions): AiPreferences;
    /**
     * May `agent` use `url`'s page for AI training (`train-ai`), AI use (`ai-use`) and search, from
     * every signal given: robots.txt (crawl verdict, purpose tokens, Content-Usage, Content-Signal),
     * the response headers, the page's head and tdmrep.json; each answer with the trace entries
     * that decided. Malformed content is a trace entry with an `error`, never a throw.
     * @throws TypeError when an option has the wrong type; RangeError for an unknown purpose.
     */
    aiUse(url: string | URL, agent: Agent, options?: AiUseOptions): AiUse;
    /**
     * Which rule decides how much of a site: every answer (URL × agent) counted to the rule that
     * decides it, or to `noRule`. Computed by the core (robots_eval::coverage).
     * @throws TypeError when `urls` or `agents` is not iterable, or an item is not a URL or an agent.
     */
    coverage(urls: Iterable<string | URL>, agents: Iterable<Agent>): Coverage;
    /** Every line that is not a user-agent, Allow/Disallow or Sitemap line, in file order. */
    readonly records: RobotsRecord[];
    /** What the parser noticed, in line order. */
    readonly diagnostics: Diagnostic[];
  }

  /** `robots.coverage(urls, agents)`: indices refer to the `urls` and `agents` given. */
  interface Coverage {
    /** URLs × agents. */
    answers: number;
    /** Every Allow/Disallow rule of the groups these agents obey, and every rule that decides an answer, in line order. */
    rules: RuleCoverage[];
    /** The answers no rule decides (no rule matches, no group applies, /robots.txt). */
    noRule: { allowed: number; disallowed: number };
    /** The rules of groups none of these agents obeys (not counted). */
    otherGroups: number;
  }

  interface RuleCoverage {
    line: number;
    /** The rule's line as written, for display. */
    text: string;
    /** The agents it decides for or whose groups hold it, in the order given, with the answers it decides for each. */
    agents: { agent: number; answers: number }[];
    allowed: number;
    disallowed: number;
    /** `shadowed`: it matches `matched` of the URLs, but another rule decides each; `unmatched`: it matches none. */
    status: 'decides' | 'shadowed' | 'unmatched';
    matched: number;
    /** The URLs it decides, in order. */
    urls: number[];
  }

  interface RobotRules {
    /** Why `allowed(url)` answers as it does (the Robots' `explain` of the site's copy). */
    explain(url: string | URL): RuleExplanation;
  }
}

export * from 'robots-eval';
export { default } from 'robots-eval';
