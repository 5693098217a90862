// Types of js/rules.js (RobotRules). To ship with the package, paste the declarations below into
// js/index.d.ts (without the import line) once the entries export RobotRules.
import type { Dialect, Explanation, FetchOptions, FetchSource, FetchPolicy } from './index.js';

export interface RobotRulesOptions {
  /** Default `'rfc9309'`: how every file is parsed and every failure status handled. */
  dialect?: Dialect | (string & {});
  /** Sites held at most; the least recently used is dropped (and freed) beyond it. Default 1000. */
  maxSites?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Passed to `Robots.parse` and `fetchRobots`. Default 512000. */
  maxBytes?: number;
  /** Every stored copy stays fresh at least this long (e.g. so a failure is not refetched at once). Default 0. */
  minTtlMs?: number;
}

export interface RobotRulesParseOptions {
  /** Obey the copy until then (ms since the epoch, or a Date). Default: now + the dialect's default lifetime (24 h; 7 days for draft1996). */
  freshUntil?: number | Date;
  /** The final HTTP status; 0 for a network error or timeout. Default 200. A non-2xx gets the dialect's policy, as in fetchRobots; 304 reuses the held copy. 3xx (other than 304) throws: follow redirects first. */
  status?: number;
}

/** What a site's rules were built from (`fetchRobots`'s `source`, or the equivalent for `parse`). */
export interface SiteSource {
  url: string;
  finalUrl?: string;
  status: number;
  redirects?: number;
  fetchedAt: number;
  freshUntil: number;
  policy: FetchPolicy;
  treatedAs: FetchSource['treatedAs'];
  reason: string;
  message: string;
}

export type RuleExplanation =
  | {
      known: true;
      /** The site's key: scheme, host (lower-case, punycode) and port when not the default. */
      site: string;
      allowed: boolean;
      verdict: Explanation;
      source: SiteSource;
    }
  | {
      known: false;
      site: string;
      code: 'unknown-site';
      /** `no robots.txt parsed for https://host` */
      reason: string;
    }
  | {
      known: false;
      site: string;
      code: 'expired';
      /** `the robots.txt of https://host expired at <ISO date>` */
      reason: string;
      expiredAt: number;
      source: SiteSource;
    };

export interface RobotRulesStats {
  /** Sites held now. */
  sites: number;
  /** Lookups (`allowed`, `explain`) answered from a fresh copy. */
  hits: number;
  /** Lookups for a site not held. */
  misses: number;
  /** Sites dropped for `maxSites`. */
  evictions: number;
  /** Lookups that found only an expired copy. */
  expired: number;
}

/** WWW::RobotRules for JavaScript: the rules of many sites, for one crawler. */
export declare class RobotRules implements Disposable {
  constructor(agent: string, options?: RobotRulesOptions);
  readonly agent: string;
  readonly dialect: Dialect;
  readonly stats: RobotRulesStats;
  /** Stores the rules of `robotsUrl`'s site (`text` is used for a 2xx only). */
  parse(robotsUrl: string | URL, text: string | Uint8Array | ArrayBuffer | null | undefined, options?: RobotRulesParseOptions): SiteSource;
  /** Fetches the site's robots.txt with fetchRobots (the crawler's User-Agent by default) and stores it. */
  fetch(url: string | URL, options?: Omit<FetchOptions, 'dialect'>): Promise<SiteSource>;
  /** true/false from a fresh copy; undefined when there is none (see `explain`). */
  allowed(url: string | URL): boolean | undefined;
  explain(url: string | URL): RuleExplanation;
  /** true when `allowed(url)` cannot answer: no copy held, or it expired. */
  expired(url: string | URL): boolean;
  crawlDelay(url: string | URL): number | undefined;
  forget(url: string | URL): boolean;
  clear(): void;
  [Symbol.dispose](): void;
}

export declare function defineRobotRules(api: { Robots: unknown; fetchRobots: unknown }): typeof RobotRules;
