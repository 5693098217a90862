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
  /** Releases the memory now; later calls throw an Error. Calling it twice does nothing. */
  free(): void;
  [Symbol.dispose](): void;
}

export default Robots;
