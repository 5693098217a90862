// Types of 'robots-eval/verdict': the verdict module alone (js/verdict.js). Its Robots is the main
// entry's without the rich calls (explain, aiPreferences, aiUse, diagnostics, records),
// which throw an Error there; every other type is the main entry's.
import type { Robots as FullRobots, ParseOptions, Dialect, FetchOptions, RobotRules as FullRobotRules } from './index.js';

export type * from './index.js';

/** A parsed robots.txt, answered by the verdict module. `free()` (or `using`) when done. */
export interface Robots extends Omit<FullRobots, 'explain' | 'aiPreferences' | 'aiUse' | 'diagnostics' | 'records'> {}

export declare const Robots: {
  /** As `Robots.parse` of 'robots-eval'. */
  parse(text: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
  /** The dialect names, the default first. */
  readonly dialects: Dialect[];
};

/** The options of `fetchRobots`, with `previous` a Robots of this entry. */
export type VerdictFetchOptions = Omit<FetchOptions, 'previous'> & { previous?: Robots | null };

/** As `fetchRobots` of 'robots-eval'. */
export declare function fetchRobots(url: string | URL, options?: VerdictFetchOptions): Promise<Robots>;

export declare const RobotRules: typeof FullRobotRules;
export type RobotRules = FullRobotRules;

export default Robots;
