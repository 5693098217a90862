// Types of the robots-eval npm package (hand-written; the API is semver-stable).
/// <reference lib="esnext.disposable" />

/** The robots.txt dialects; `rfc9309` is the default. */
export type Dialect = 'rfc9309' | 'google' | 'draft1996' | 'original1994' | 'revisited';

/** Why a verdict is what it is. */
export type Reason =
  /** `/robots.txt` itself is always allowed. */
  | 'robots-txt'
  /** A rule matched and decided. */
  | 'rule'
  /** Only an empty rule matched; empty rules have no effect. */
  | 'empty-rule'
  /** A group applies, but none of its rules matches the URL. */
  | 'no-match'
  /** No group applies to this crawler. */
  | 'no-group';

export interface ParseOptions {
  /** Default `'rfc9309'`. Names are matched ASCII case-insensitively. */
  dialect?: Dialect | (string & {});
  /** Bytes after this many are ignored (a `truncated` diagnostic). Default 512000 (500 KiB). */
  maxBytes?: number;
}

export interface Rule {
  /** 1-based line number. */
  line: number;
  kind: 'allow' | 'disallow';
  /** The path pattern as written. */
  pattern: string;
}

export interface Group {
  /** The line of the first user-agent line of each group the crawler obeys. */
  lines: number[];
  /** The user-agent values of those groups, as written. */
  agents: string[];
}

export interface Explanation {
  allowed: boolean;
  reason: Reason;
  /** The deciding rule's line, 0 when no rule decided. */
  line: number;
  /** The deciding rule (for `empty-rule`: the empty rule that matched). */
  rule: Rule | null;
  /** The groups the crawler obeys; null when none applies. */
  group: Group | null;
}

/** The decision table: rows are URLs, columns are agents (`allowed[row][column]`). */
export interface DecisionTable {
  urls: string[];
  agents: string[];
  allowed: boolean[][];
  /** The deciding rule's line, 0 when no rule decided. */
  lines: number[][];
  reasons: Reason[][];
}

export interface Diagnostic {
  /** 1-based line; 0 for the whole file. */
  line: number;
  severity: 'info' | 'warning' | 'error';
  /** A stable kebab-case code, e.g. `missing-colon`. */
  code: string;
  /** A sentence a person can act on. */
  message: string;
}

/** A parsed robots.txt. Parse once, ask many questions; `free()` (or `using`) when done. */
export declare class Robots implements Disposable {
  private constructor();
  /**
   * Parses a robots.txt. Never fails on content (problems become `diagnostics`).
   * @throws TypeError when `text` is not a string/Uint8Array or an option has the wrong type.
   * @throws RangeError for an unknown dialect or a negative/non-integer `maxBytes`.
   */
  static parse(text: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
  /** The dialect names, the default first. */
  static readonly dialects: Dialect[];
  /** May `agent` fetch `url`? `url` is absolute or a path; `agent` a product token or a User-Agent header. */
  isAllowed(url: string | URL, agent: string): boolean;
  /** The verdict and why. */
  explain(url: string | URL, agent: string): Explanation;
  /** Every verdict for every URL and agent, in one call. */
  table(urls: Iterable<string | URL>, agents: Iterable<string>): DecisionTable;
  /** The Crawl-delay in seconds for `agent`, or undefined. */
  crawlDelay(agent: string): number | undefined;
  /** The Sitemap URLs, in file order. */
  readonly sitemaps: string[];
  /** What the parser noticed, in line order. */
  readonly diagnostics: Diagnostic[];
  /** The dialect the file was parsed with. */
  readonly dialect: Dialect;
  /** Whether the input was longer than `maxBytes`. */
  readonly truncated: boolean;
  /** Whether `free()` was called. */
  readonly freed: boolean;
  /** Where the file came from, for a `Robots` returned by `fetchRobots()`; null for `Robots.parse()`. */
  readonly source: FetchSource | null;
  /** Releases the memory now; later calls throw an Error. Calling it twice does nothing. */
  free(): void;
  [Symbol.dispose](): void;
}

/** What to do after fetching robots.txt (the core's `fetch::decide`, see docs/fetch-policy.md). */
export type FetchPolicy = 'parse' | 'allow-all' | 'disallow-all' | 'defer' | 'use-cached';

export interface FetchOptions {
  /** The fetch to use. Default `globalThis.fetch`. Called with `redirect: 'manual'`. */
  fetch?: (input: string, init: { redirect: 'manual'; signal: AbortSignal; headers?: Record<string, string> }) => Promise<Response>;
  /** Sent as the `User-Agent` header. */
  userAgent?: string;
  /** Default `'rfc9309'`. Decides the redirect limit, the failure policy, freshness and parsing. */
  dialect?: Dialect | (string & {});
  /** The whole fetch (redirects and body) must finish within this; default 10000 ms. */
  timeoutMs?: number;
  /** Aborting it rejects the promise with the signal's reason. */
  signal?: AbortSignal;
  /** At most this many bytes of the body are read (the rest is cancelled); default 512000. */
  maxBytes?: number;
}

export interface FetchSource {
  /** `<origin>/robots.txt` of the URL given; the rules apply to this origin. */
  url: string;
  /** The URL the file was finally fetched from, after redirects. */
  finalUrl: string;
  /** The final HTTP status; 0 after a network error or timeout. */
  status: number;
  /** Redirects followed. */
  redirects: number;
  /** When the fetch finished, ms since the epoch. */
  fetchedAt: number;
  /** Obey this copy until then (Cache-Control, Expires, Date, Age and the dialect's cap); equal to `fetchedAt` when there was no response. */
  freshUntil: number;
  /** The core's decision. */
  policy: FetchPolicy;
  /** How the returned rules were built: `defer` and `use-cached` (no cached copy here) become `disallow-all`. */
  treatedAs: 'parse' | 'allow-all' | 'disallow-all';
  /** A stable reason code, e.g. `not-found`, `unreachable`. */
  reason: string;
  /** One sentence a person can act on. */
  message: string;
}

/**
 * Fetches `<origin>/robots.txt` of `url`, follows redirects up to the dialect's limit, applies the
 * dialect's policy for errors, and returns the rules with their `source`. Rejects only for bad
 * arguments or when `signal` aborts; HTTP and network failures become a policy.
 */
export declare function fetchRobots(url: string | URL, options?: FetchOptions): Promise<Robots>;

export default Robots;
