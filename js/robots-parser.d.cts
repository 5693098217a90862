// Types of robots-eval/robots-parser. For CommonJS `require('robots-eval/robots-parser')` is the
// function itself (`export =`); robots-parser.d.ts gives the same to ES modules (default export).
declare namespace robotsParser {
  /** A parsed robots.txt, as robots-parser 3's `Robot`. */
  interface Robot {
    /** `true` or `false`; `undefined` for a URL of another site than the file's (scheme, host and port). `ua` defaults to `*`. */
    isAllowed(url: string, ua?: string): boolean | undefined;
    /** `!isAllowed(url, ua)`: `true` for a URL of another site, as robots-parser's. */
    isDisallowed(url: string, ua?: string): boolean | undefined;
    /** Disallowed by a group naming `ua` itself (not `*`); `undefined` for a URL of another site. */
    isExplicitlyDisallowed(url: string, ua: string): boolean | undefined;
    /** The 1-based line of the rule that decides, or -1 (no rule decides, or a URL of another site). */
    getMatchingLineNumber(url: string, ua?: string): number;
    /** Seconds, or `undefined` when none applies to `ua`. */
    getCrawlDelay(ua?: string): number | undefined;
    /** The Sitemap values, in file order. */
    getSitemaps(): string[];
    /** The last Host value, lower-cased, or `null`. */
    getPreferredHost(): string | null;
  }
}

/**
 * robots-parser 3's function: `contents` is the robots.txt fetched from `url` (`null` or
 * `undefined`: empty). Answered by robots-eval's engine in Google's reading; what differs from
 * robots-parser is listed in docs/robots-parser.md.
 */
declare function robotsParser(url: string, contents?: string | Uint8Array | null): robotsParser.Robot;
export = robotsParser;
