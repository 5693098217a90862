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
  /**
   * The URL this robots.txt was fetched from (any URL of its site). When given, `isAllowed`,
   * `explain` and `table` throw a RangeError for an absolute URL of another origin (scheme, host,
   * port) instead of answering from rules that do not apply to it; paths are this site's.
   */
  url?: string | URL;
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
  /** The last line of each group (its last user-agent line, rule or record): `lines[i]` to `ends[i]` is group i's span. */
  ends: number[];
  /** What selected them: the agent as given (`token`), a word of a User-Agent header (`header-word`), a record's value (`record`), or no group names it (`global`). */
  by: 'token' | 'header-word' | 'record' | 'global';
  /** The agent, the word of its header, or the record's value (as written) that named them; `*` for `global`. */
  token: string;
  /** Why these groups, in the dialect's words. */
  why: string;
}

export interface Explanation {
  allowed: boolean;
  reason: Reason;
  /** The deciding rule's line (for `empty-rule`: the empty rule that matched), 0 when no rule matched. */
  line: number;
  /** The deciding rule (for `empty-rule`: the empty rule that matched). */
  rule: Rule | null;
  /** The groups the crawler obeys; null when none applies. */
  group: Group | null;
  /** The part of the URL the rules were matched against, as the dialect reads it, normalised. */
  path: string;
  /** The reason in a few words (`no rule matches`), as both commands print it. */
  because: string;
  /** Why the verdict, in the dialect's words (with no group, why none applies). */
  why: string;
}

/**
 * A crawler's product token (or full User-Agent header), or the tokens it answers to, most
 * specific first (`['Googlebot-News', 'Googlebot']`): the first that has a group of its own
 * decides, and `*` only when none has.
 */
export type Agent = string | readonly string[];

/** A Request-rate: at most `requests` documents every `seconds` (`1/10m` is `{ requests: 1, seconds: 600 }`). */
export interface RequestRate {
  requests: number;
  seconds: number;
}

/** A line that is not a user-agent, Allow/Disallow or Sitemap line: Crawl-delay, Host, Clean-param, Visit-time, an unknown field... */
export interface RobotsRecord {
  /** The field name as written, e.g. `Clean-param`. */
  key: string;
  /** The value as written (comment and surrounding whitespace removed). */
  value: string;
  /** 1-based line number. */
  line: number;
  /** The user-agent values (as written) of the run of user-agent lines it applies to; null outside any group. */
  agents: readonly string[] | null;
}

/** The decision table: rows are URLs, columns are agents (`allowed[row][column]`). */
export interface DecisionTable {
  urls: string[];
  /** The columns as given (a product token, or a list of them). */
  agents: Agent[];
  allowed: boolean[][];
  /** The deciding rule's line (for `empty-rule`: the empty rule that matched), 0 when no rule matched. */
  lines: number[][];
  reasons: Reason[][];
  /** With `{ ai: true }`: each cell's AI usage preferences. */
  ai?: AiPreferences[][];
}

/**
 * AI usage preferences (docs/ai-preferences.md): the categories of draft-ietf-aipref-vocab-08
 * (`train-ai`, `ai-use`, `search`; later ones are added to the core's table) and Cloudflare's
 * Content-Signal signals.
 */
export type AiCategory = 'train-ai' | 'ai-use' | 'search';
/** A category's value: `'y'` allowed, `'n'` disallowed, null unknown (never a default). */
export type AiUsage = 'y' | 'n' | null;
/** Every category the engine knows, with its value. */
export type ContentUsage = Record<AiCategory, AiUsage> & { readonly [label: string]: AiUsage };

/** Content-Signal for the crawler's group: each signal `'yes'`, `'no'` or null; extra keys (such as `use`) as written. */
export interface ContentSignal {
  search: 'yes' | 'no' | null;
  'ai-input': 'yes' | 'no' | null;
  'ai-train': 'yes' | 'no' | null;
  readonly [extra: string]: string | null;
}

/** Why a category has its value. */
export interface AiReason {
  code: 'stated' | 'not-stated' | 'not-y-or-n' | 'malformed' | 'no-rule' | 'own-group-silent' | 'not-crawlable';
  /** The sentence: "stated by line 3", "no rule matched", "URL not crawlable (line 2)", ... */
  text: string;
  /** The deciding Content-Usage line (or the Disallow's, for `not-crawlable`). */
  line?: number;
  /** The statement is the Content-Usage header's. */
  header?: true;
  /** `malformed`: the byte where the statement stops parsing, and why. */
  offset?: number;
  failure?: string;
  /** `not-y-or-n`: the value's type. */
  type?: string;
}

export interface AiPreferences {
  /** The crawl verdict for the same URL and crawler, with its reason and deciding line. */
  allowed: boolean;
  reason: Reason;
  line: number;
  /** robots.txt's Content-Usage for this URL and crawler. */
  contentUsage: ContentUsage;
  /** null when no Content-Signal line applies to the crawler's group. */
  contentSignal: ContentSignal | null;
  /** With a `header`: the header's own values, and robots.txt and the header combined (any `n` wins). */
  headerUsage?: ContentUsage;
  combined?: ContentUsage;
  /** The reasons: per category for each map above; for Content-Signal, the line that gave each value. */
  why: {
    contentUsage: Record<AiCategory, AiReason> & { readonly [label: string]: AiReason };
    headerUsage?: Record<AiCategory, AiReason> & { readonly [label: string]: AiReason };
    combined?: Record<AiCategory, AiReason> & { readonly [label: string]: AiReason };
    contentSignal: Record<string, number | null> | null;
  };
}

export interface AiOptions {
  /** The response's `Content-Usage` header: its value, or its field lines. */
  header?: string | readonly string[];
}

/** A purpose `aiUse` answers (the aipref vocabulary's labels). */
export type AiPurpose = 'train-ai' | 'ai-use' | 'search';
/** A signal `aiUse` reads (docs/ai-use.md). */
export type AiSignal =
  | 'robots.txt' | 'content-usage' | 'content-usage-header' | 'content-signal' | 'tdmrep' | 'robots-meta' | 'x-robots-tag';

/** Where a signal was found; only the fields that apply are present. */
export interface AiWhere {
  /** robots.txt line (1-based). */
  line?: number;
  /** The response header's name, as the standard spells it. */
  header?: string;
  /** Which field line of that header (from 0). */
  index?: number;
  /** The META tag's position among the head's named META tags (from 1). */
  tag?: number;
  /** `/.well-known/tdmrep.json`. */
  file?: string;
  /** The tdmrep.json rule's index in its array (from 0). */
  rule?: number;
  /** The place in words (`robots.txt line 2`, `header X-Robots-Tag (field line 0)`); empty for the robots.txt fetch itself. */
  text: string;
}

/** One signal read. */
export interface AiTraceEntry {
  signal: AiSignal;
  where: AiWhere;
  /** The crawler token or group the statement addresses. */
  scope?: string;
  /** The signal as written. */
  raw?: string;
  /** Its effect per purpose; null: says nothing about that purpose. */
  effect: Record<AiPurpose, 'allow' | 'deny' | null>;
  /** The sections and readings applied (docs/ai-use.md). */
  rules: string[];
  /** What was wrong with a malformed signal (it then has no effect). */
  error?: string;
  note?: string;
  /** false: a response-level signal of a URL the crawler may not fetch (it decides nothing). */
  visible: boolean;
}

/** A limit that does not change an answer (`use=`, `max-snippet`, a `tdm-policy` URL …). */
export interface AiCondition {
  condition: string;
  value: string;
  signal: AiSignal;
  where: AiWhere;
  purposes: AiPurpose[];
  note: string;
}

export interface AiPurposeAnswer {
  /** `unknown` stays unknown: no default is invented. */
  answer: 'allow' | 'deny' | 'unknown';
  /** The trace entries that decided (the same objects as in `trace`); empty only for `unknown`. */
  by: AiTraceEntry[];
}

/** Who is asking, as the operator table knows it. */
export interface AiCrawler {
  agent: string;
  token: string;
  /** The operator table has this token. */
  known: boolean;
  operator?: string;
  kind: string;
  /** The token whose robots.txt verdict gates the fetch. */
  fetch_token: string;
  purposes: AiPurpose[];
  /** The tokens that govern each purpose. */
  tokens: Record<AiPurpose, string[]>;
  /** The operator's documentation. */
  source?: string;
}

/** `aiUse`'s answer: one per purpose, the trace of every signal read, the conditions. */
export interface AiUse {
  'train-ai': AiPurposeAnswer;
  'ai-use': AiPurposeAnswer;
  search: AiPurposeAnswer;
  trace: AiTraceEntry[];
  conditions: AiCondition[];
  crawler: AiCrawler;
  /** The crawler may fetch the URL (robots.txt's verdict for its fetch token). */
  crawlable: boolean;
}

export interface AiUseOptions {
  /**
   * The page's response headers (Content-Usage, X-Robots-Tag, tdm-reservation, tdm-policy,
   * Content-Type …): a `Headers`, an object (a value or an array of field lines per name), or
   * [name, value] pairs. Names in any case.
   */
  headers?: Headers | Record<string, string | readonly string[]> | ReadonlyArray<readonly [string, string]> | null;
  /** The page's HTML: only its head is read, from the first 512 KiB. */
  html?: string | Uint8Array | ArrayBuffer | null;
  /** The body of the site's `/.well-known/tdmrep.json` (at most 1 MiB is read); null when it was absent (404). */
  tdmrep?: string | Uint8Array | ArrayBuffer | null;
  /** For a crawler the operator table does not know: the purposes it declares. */
  purposes?: readonly (AiPurpose | 'ai-train' | 'ai-input')[] | null;
  /** Policy tokens (KELLEY) that govern training besides the crawler's own; none by default. */
  policyTokens?: readonly string[];
}

export interface FetchAiUseOptions extends Pick<FetchOptions, 'fetch' | 'userAgent' | 'dialect' | 'timeoutMs' | 'signal' | 'maxBytes'> {
  /** For a crawler the operator table does not know: the purposes it declares. */
  purposes?: AiUseOptions['purposes'];
  policyTokens?: readonly string[];
  /** The page's HTML bytes to read at most (its head). Default 524288 (512 KiB). */
  maxHtmlBytes?: number;
  /** robots.txt already at hand (from fetchRobots or parse): not fetched again. */
  robots?: Robots | null;
  /** tdmrep.json's body already at hand (null: absent): not fetched. */
  tdmrep?: AiUseOptions['tdmrep'];
  /** The page already at hand: not fetched; `headers` are then its response headers. */
  html?: AiUseOptions['html'];
  headers?: AiUseOptions['headers'];
}

/** One request `fetchAiUse` made. */
export interface AiFetched {
  what: 'robots.txt' | 'tdmrep.json' | 'page';
  url: string;
  /** The final HTTP status; 0 for a network error or timeout. */
  status: number;
  /** Bytes of the body read. */
  bytes: number;
  /** The page only: the body was cut after its head (or the cap). */
  truncated?: boolean;
  /** What was done with the answer (the robots.txt policy; tdmrep.json absent; a failure). */
  note: string;
}

/** `fetchAiUse`'s answer: `aiUse`'s, and what was fetched. */
export interface FetchedAiUse extends AiUse {
  fetched: AiFetched[];
}

/** The options of `table` as 'robots-eval/rich' declares it (the preference columns are its module's). */
export interface TableOptions {
  /** Also each cell's `aiPreferences(url, agent)`, in `ai[row][column]`. */
  ai?: boolean;
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

/**
 * A parsed robots.txt. Parse once, ask many questions; `free()` (or `using`) when done.
 * `explain`, `aiPreferences`, `aiUse`, `records` and `diagnostics` are answered by the rich
 * module, which an app carries only when it asks for it: they are declared by 'robots-eval/rich'
 * (js/rich.d.ts), so a program that never imports it gets a type error for them, not the Error
 * they throw before `import 'robots-eval/rich'` installs them.
 */
export declare class Robots implements Disposable {
  private constructor();
  /**
   * Parses a robots.txt. Never fails on content (problems become `diagnostics`).
   * @throws TypeError when `text` is not a string/Uint8Array, an option is unknown or has the wrong type.
   * @throws RangeError for an unknown dialect or a negative/non-integer `maxBytes`.
   */
  static parse(text: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
  /** The dialect names, the default first. */
  static readonly dialects: Dialect[];
  /**
   * May `agent` fetch `url`? `url` is absolute or a path; `agent` a product token, a User-Agent header, or a list of tokens (see `Agent`).
   * @throws RangeError when the site is known (`fetchRobots`, `RobotRules`, the `url` option) and `url`
   * is an absolute URL of another origin.
   */
  isAllowed(url: string | URL, agent: Agent): boolean;
  /**
   * Every verdict for every URL and agent, in one call. Its one option, `{ ai: true }` (the AI
   * preferences of each cell), is the rich module's: 'robots-eval/rich' declares it.
   */
  table(urls: Iterable<string | URL>, agents: Iterable<Agent>, options?: Record<string, never>): DecisionTable;
  /** True only when a group naming the agent itself (not `*`) disallows `url`: "blocked for me", not "blocked for everyone". */
  isExplicitlyDisallowed(url: string | URL, agent: Agent): boolean;
  /** The Crawl-delay in seconds for `agent` (from the user-agent lines directly above it; the last valid one), or undefined. */
  crawlDelay(agent: Agent): number | undefined;
  /** The Request-rate for `agent`, or undefined. */
  requestRate(agent: Agent): RequestRate | undefined;
  /** The first valid Host line (Yandex), as written; null when there is none. */
  readonly host: string | null;
  /** The Sitemap URLs, in file order. */
  readonly sitemaps: string[];
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
  /**
   * How long the answer to a failure (5xx, network error, timeout, Google's 429, a deferral) is
   * kept when the server sends no `Retry-After`: `freshUntil` is `fetchedAt` plus this. Default
   * 300000 (5 minutes). With `Retry-After`, its time is used instead. Either way it is capped by
   * the dialect: 24 hours for rfc9309, 12 hours for google, 7 days for the others.
   */
  retryAfterMs?: number;
  /**
   * The result of an earlier `fetchRobots()` of the same site (its `source.url` must match; it
   * may have been freed, and is never freed or changed here). When this fetch fails (5xx,
   * network error, timeout, Google's 429), the dialect decides from how long the site has been
   * unreachable (`previous.source.unreachableSince`, else now) and whether a good copy is at hand
   * (the last file fetched with 2xx, carried from result to result while the site stays
   * unreachable): rfc9309 disallows all for 30 days, then uses the copy; google disallows all for
   * 12 hours, then uses the copy (or allows all without one) up to 30 days, then allows all. A
   * `use-cached` result is a new `Robots` parsed again from the copy's text.
   */
  previous?: Robots | null;
  /** The clock, ms since the epoch: `fetchedAt`, `freshUntil` and `unreachableSince` are read from it. Default `Date.now`. */
  now?: () => number;
  /**
   * The site has general availability problems (its pages fail too), as the caller knows from
   * its own fetches. Only google reads it: after 30 days of an unreachable robots.txt, Google
   * allows all while the site is up but keeps crawling stopped (`disallow-all`,
   * `server-error-site-down`) while it is down. Default false.
   */
  siteDown?: boolean;
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
  /**
   * Obey this copy until then, ms since the epoch. For a file (`parse`) or an `allow-all` from a
   * 4xx or a redirect loop: Cache-Control, Expires, Date, Age and the dialect's cap. For a failure
   * (`disallow-all` because unreachable, `defer`, `use-cached`): the `Retry-After` time, else `fetchedAt +
   * retryAfterMs` (5 minutes by default), capped by the dialect (see `FetchOptions.retryAfterMs`).
   */
  freshUntil: number;
  /** The core's decision. */
  policy: FetchPolicy;
  /** How the returned rules were built: `defer` becomes `disallow-all`; `use-cached` is the previous good copy parsed again. */
  treatedAs: 'parse' | 'allow-all' | 'disallow-all' | 'use-cached';
  /** A stable reason code, e.g. `not-found`, `unreachable`. */
  reason: string;
  /** One sentence a person can act on. */
  message: string;
  /**
   * While robots.txt cannot be fetched (5xx, network error, timeout, Google's 429, a deferral):
   * when the current run of failures began, ms since the epoch (taken from `options.previous`, or
   * now for the first failure). `null` after a fetch that got an answer.
   */
  unreachableSince: number | null;
}

/**
 * Fetches `<origin>/robots.txt` of `url`, follows redirects up to the dialect's limit, applies the
 * dialect's policy for errors, and returns the rules with their `source`. Rejects only for bad
 * arguments or when `signal` aborts; HTTP and network failures become a policy.
 */
export declare function fetchRobots(url: string | URL, options?: FetchOptions): Promise<Robots>;
/**
 * Fetches the site's robots.txt (with the status policy, as fetchRobots), its
 * `/.well-known/tdmrep.json` and the page (its head only: the body is cancelled after `</head>`
 * or the cap), and answers `aiUse` from them, saying what it fetched.
 */
export declare function fetchAiUse(url: string | URL, agent: Agent, options?: FetchAiUseOptions): Promise<FetchedAiUse>;


// ---- Page-level rules: robots META tags and X-Robots-Tag ------------------------------------

/** A recognised directive; `invalid` is a known one with an unreadable value, `unknown` anything else. */
export type MetaDirectiveKind =
  | 'all' | 'none' | 'index' | 'noindex' | 'follow' | 'nofollow' | 'archive' | 'noarchive' | 'nosnippet'
  | 'max-snippet' | 'max-image-preview' | 'max-video-preview' | 'noimageindex' | 'notranslate'
  | 'unavailable_after' | 'indexifembedded' | 'invalid' | 'unknown';

export interface MetaDirective {
  kind: MetaDirectiveKind;
  /** As written (without a bot-name prefix), character references decoded: `max-snippet:20`. */
  raw: string;
  /** The crawler name it addresses as written (`googlebot`); null for every crawler (`name="robots"`, or a header value without a bot name). */
  scope: string | null;
  /** A `<meta>` tag or an `X-Robots-Tag` header. */
  origin: 'meta' | 'header';
}

/** The other META tags of seeds 001 and 002 (always empty for `xRobotsTag`). */
export interface OtherMeta {
  /** The first `<meta name="description">`, trimmed. */
  description: string | null;
  /** Every `<meta name="keywords">` list, split at commas, trimmed, empty ones dropped. */
  keywords: string[];
  /** `<meta name="document-state">`: `'static'`, `'dynamic'`, or another value as written; null when absent (which means static). */
  documentState: 'static' | 'dynamic' | (string & {}) | null;
  /** `<meta name="url">`: the page's canonical URL. */
  url: string | null;
  /** `<meta name="revisit-after">`; `days` when it reads `N`, `N day(s)`. */
  revisitAfter: { raw: string; days: number | null } | null;
}

/** What a page's robots META tags or X-Robots-Tag headers say to one crawler. Without any: index, follow, archive, snippet, no limits. */
export interface MetaRobots {
  index: boolean;
  follow: boolean;
  archive: boolean;
  snippet: boolean;
  /** Characters; null for no limit; 0 exactly when `snippet` is false. */
  maxSnippet: number | null;
  /** null when no directive sets it. */
  maxImagePreview: 'none' | 'standard' | 'large' | null;
  /** Seconds; null for no limit. */
  maxVideoPreview: number | null;
  imageIndex: boolean;
  translate: boolean;
  /** `unavailable_after`, ms since the epoch (the earliest readable date); null when none. */
  unavailableAfter: number | null;
  indexIfEmbedded: boolean;
  /** Every directive that applies to the crawler, in document order. */
  directives: MetaDirective[];
  other: OtherMeta;
  /** The head went past 512 KiB, or more than 1024 directives were found. */
  truncated: boolean;
}

export interface MetaOptions {
  /**
   * How contradictory directives resolve. `'most-restrictive'` (default; Google): `noindex` beats
   * `index`, the smallest limits win. `'seed001'` (the 1996 META proposal): `all` overrides the
   * others, `follow`/`nofollow` and `index`/`noindex` resolve to the positive term, and
   * `noindex` alone also stops link following.
   */
  conflict?: 'most-restrictive' | 'seed001';
}

/**
 * The robots META tags in an HTML document's head for `agent` (a product token or User-Agent):
 * `name="robots"` and `name="<agent>"` (and `googlebot` for `googlebot-news`), in any attribute
 * order and quoting, character references decoded; comments and scripts skipped; the scan stops
 * at `</head>` or `<body`.
 */
export declare function metaRobots(html: string | Uint8Array | ArrayBuffer, agent: string, options?: MetaOptions): MetaRobots;

/** `X-Robots-Tag` header values (one, or each header line) for `agent`: `noindex`, `googlebot: noindex`, `unavailable_after: <date>`. */
export declare function xRobotsTag(headerValues: string | Iterable<string>, agent: string, options?: MetaOptions): MetaRobots;

// ---- RobotRules ---------------------------------------------------------------------------

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
  /**
   * How long a failure's answer is kept when nothing says otherwise: `parse()` with a failure
   * status and no `freshUntil`, and `fetch()` without `Retry-After` (passed to `fetchRobots`).
   * Default 300000 (5 minutes); capped as in `FetchOptions.retryAfterMs`.
   */
  retryAfterMs?: number;
}

export interface RobotRulesParseOptions {
  /**
   * Obey the copy until then (ms since the epoch, or a Date). Default: now + the dialect's
   * default lifetime (24 h; 7 days for draft1996) for a 2xx, 304 or a status meaning "no file";
   * now + `retryAfterMs` (5 minutes) for a failure (5xx, 0, and the dialect's other failures).
   */
  freshUntil?: number | Date;
  /** The final HTTP status; 0 for a network error or timeout. Default 200. A non-2xx gets the dialect's policy, as in fetchRobots; 304 reuses the held copy. 3xx (other than 304) throws: follow redirects first. */
  status?: number;
  /** As `fetchRobots`'s `siteDown`: the site has general availability problems (google, after 30 days unreachable). Default false. */
  siteDown?: boolean;
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
  /** As in `FetchSource`: when the site's current run of failures began, or null. */
  unreachableSince: number | null;
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
  fetch(url: string | URL, options?: Omit<FetchOptions, 'dialect' | 'previous' | 'now'>): Promise<SiteSource>;
  /** true/false from a fresh copy; undefined when there is none (see `explain`). */
  allowed(url: string | URL): boolean | undefined;
  /** true when `allowed(url)` cannot answer: no copy held, or it expired. */
  expired(url: string | URL): boolean;
  crawlDelay(url: string | URL): number | undefined;
  forget(url: string | URL): boolean;
  clear(): void;
  [Symbol.dispose](): void;
}

/** A `Content-Usage` response header alone (its value, or its field lines): each category's value. */
export declare function parseContentUsage(header: string | readonly string[]): ContentUsage;

/**
 * Installs Robots' rich calls (explain, aiPreferences, aiUse, records, diagnostics), once; what
 * `import 'robots-eval/rich'` does. Apps import that entry instead.
 */
export declare function installRich(): void;

export default Robots;
