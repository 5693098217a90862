// robots-eval/robots-parser: robots-parser 3's function and Robot object (robotsParser(url,
// contents) -> isAllowed, isDisallowed, isExplicitlyDisallowed, getMatchingLineNumber,
// getCrawlDelay, getSitemaps, getPreferredHost), with robots-parser's conventions, answered by
// this package's engine. For the code written against robots-parser (Crawlee's RobotsTxtFile
// calls it itself): `overrides` swaps the package, nothing else changes (compat/robots-parser/).
//
// Built on the public API (`import { Robots } from 'robots-eval/rich'`: its getMatchingLineNumber and
// getPreferredHost ask explain and records; resolved through the package's
// own "exports", so it shares the instance and the runtime entry of every other import), and one
// internal hook of it: READ_AGENTS below.
// What differs from robots-parser, and why: docs/robots-parser.md.
import { Robots } from 'robots-eval/rich';

/**
 * The engine's dialect: RFC 9309, which robots-parser follows except where docs/robots-parser.md
 * lists (its reading of `%xx`, of user-agent values, of groups...). Not Google's: google/robotstxt
 * reads `User-agent: MJ12bot` as `MJ`, so a crawler named with a digit would not find its own group.
 */
const DIALECT = 'rfc9309';

// robots-parser resolves URLs, the file's and the queried ones, against a base of its own, so that
// a file given with a relative URL (`/robots.txt`) answers relative ones (`/a`) and no absolute
// one, and the other way round. Any base that is no real site does the same.
const RELATIVE = 'http://robots-parser.invalid/';
const RELATIVE_ORIGIN = 'http://robots-parser.invalid';

// The parsed files alive in the WebAssembly memory at once, however many Robot objects exist:
// robots-parser has no free(), so a crawler drops its objects and waits for the garbage collector,
// which does not see the WebAssembly memory behind them (README "Memory"). A Robot keeps its text;
// the parsed file is kept in this pool while there is room and parsed again, after it was
// evicted, on its next query. Eviction is CLOCK (second chance): a query only sets a flag.
const MAX_FILES = 1024;
const MAX_CHARS = 8 * 1024 * 1024;
const pool = [];
let hand = 0;
let pooledChars = 0;

/** Makes room for a file of `chars` characters: evicts the files not queried since the hand last passed. */
function makeRoom(chars) {
  while (pool.length > 0 && (pool.length >= MAX_FILES || pooledChars + chars > MAX_CHARS)) {
    if (hand >= pool.length) hand = 0;
    const robot = pool[hand];
    if (robot._used) {
      robot._used = false;
      hand++;
    } else {
      pool[hand] = pool[pool.length - 1];
      pool.pop();
      pooledChars -= robot._text.length;
      robot._release();
    }
  }
}

/**
 * How a file's site reads URLs: HTTP, an http: or https: site (parsed with its `url`, so the
 * module itself tells a URL of another site, which the Robots refuses with a RangeError);
 * RELATIVE, a file given with a relative URL (parsed with the base as its site: paths are its);
 * OTHER, another scheme (URLs compared here, the path given to the Robots); NONE, an unparseable
 * URL (no URL is the file's).
 */
const HTTP = 0;
const RELATIVE_SITE = 1;
const OTHER = 2;
const NONE = 3;

/** The site of a URL as robots-parser compares it (protocol, host name, port with its default filled in); null if it does not parse. */
function siteOf(url) {
  let u;
  try {
    u = new URL(url, RELATIVE);
  } catch {
    return null;
  }
  if (!u.port) u.port = u.protocol === 'https:' ? 443 : 80;
  return { u, key: `${u.protocol}//${u.hostname}:${u.port}` };
}

/** robots-parser's agent: `*` when none is given, cut at the first `/` (its version), trimmed. */
function agentOf(ua) {
  if (!ua) return '*';
  const s = String(ua);
  const slash = s.indexOf('/');
  return (slash < 0 ? s : s.slice(0, slash)).trim();
}

// The Robots' agents are read as robots-parser reads them (agentOf), once per agent: the package's
// selection-based queries (isAllowed, isExplicitlyDisallowed) take the agent as given.
const READ_AGENTS = Symbol.for('robots-eval.readAgents');

/** The agent handed to those queries: the string agentOf is applied to (robots-parser's `ua || '*'`). */
function given(ua) {
  return typeof ua === 'string' ? ua : ua ? String(ua) : '';
}

class Robot {
  // Plain fields, not #private: the pool above reads them. Not part of the API.
  constructor(url, contents) {
    if (contents !== undefined && contents !== null && typeof contents !== 'string' && !(contents instanceof Uint8Array)) {
      throw new TypeError(`robots-eval: robotsParser(url, contents): contents must be a string, a Uint8Array, null or undefined, got ${typeof contents}`);
    }
    this._text = contents || '';
    this._robots = null;
    // The parsed file while it is in the pool and the site is an http: or https: one (HTTP):
    // isAllowed's hot path. null otherwise.
    this._fast = null;
    this._used = false;
    const site = siteOf(url);
    this._site = site === null ? null : site.key;
    const protocol = site?.u.protocol;
    this._mode = site === null ? NONE : site.u.origin === RELATIVE_ORIGIN ? RELATIVE_SITE : protocol === 'http:' || protocol === 'https:' ? HTTP : OTHER;
    // The site the Robots is given: it then refuses the URLs of other sites itself.
    this._options = { dialect: DIALECT, url: this._mode === HTTP ? site.u.origin : this._mode === RELATIVE_SITE ? RELATIVE : undefined };
    this._lastUa = undefined;
    this._lastAgent = '*';
    this._sitemaps = null;
    this._host = undefined;
  }

  /** The parsed file, parsed again if the pool evicted it. */
  _parsed() {
    this._used = true;
    if (this._robots === null) {
      makeRoom(this._text.length);
      this._robots = Robots.parse(this._text, this._options);
      Robots[READ_AGENTS](this._robots, agentOf);
      if (this._mode === HTTP) this._fast = this._robots;
      pool.push(this);
      pooledChars += this._text.length;
    }
    return this._robots;
  }

  _release() {
    this._robots.free();
    this._robots = this._fast = null;
  }

  /**
   * What the Robots is asked about `url`: the URL itself where the Robots tells its site, else
   * the URL robots-parser resolves it to, or its path; null for a URL of another site. The URL is
   * read as written (RFC 9309 and google/robotstxt match the URL as given; robots-parser rewrites
   * it with the WHATWG URL parser first: docs/robots-parser.md).
   */
  _query(url) {
    // An http: or https: URL (`http:` or `https:` by the position of the colon: a string with
    // another scheme there is refused by the Robots as another site) goes as it is: the module
    // compares its site with the file's.
    if (this._mode === HTTP && typeof url === 'string' && url.charCodeAt(0) === 104 && (url.charCodeAt(4) === 58 || url.charCodeAt(5) === 58)) return url;
    if (this._mode === RELATIVE_SITE && typeof url === 'string' && url.charCodeAt(0) === 47 && url.charCodeAt(1) !== 47) return url;
    if (this._mode === NONE) return null;
    const site = siteOf(url);
    if (site === null || site.key !== this._site) return null;
    if (this._mode !== OTHER) return site.u.href;
    // Another scheme: the path and query (with an empty query, `/a?`, which URL.search drops).
    const { u } = site;
    const hash = u.href.indexOf('#');
    const query = u.search === '' && (hash < 0 ? u.href.endsWith('?') : u.href[hash - 1] === '?') ? '?' : u.search;
    return u.pathname + query;
  }

  /** robots-parser's reading of the agent (agentOf), for the last one asked. */
  _agent(ua) {
    if (ua !== this._lastUa) {
      this._lastAgent = agentOf(ua);
      this._lastUa = ua;
    }
    return this._lastAgent;
  }

  isAllowed(url, ua) {
    // The hot path, a crawler's: a parsed file of an http: or https: site (one field to read),
    // an http: or https: URL (see _query) and a string agent, handed over untouched (the Robots
    // reads it with agentOf once per agent: READ_AGENTS).
    const robots = this._fast;
    if (robots !== null && typeof url === 'string' && url.charCodeAt(0) === 104 &&
        (url.charCodeAt(4) === 58 || url.charCodeAt(5) === 58) && typeof ua === 'string') {
      this._used = true;
      try {
        return robots.isAllowed(url, ua);
      } catch (e) {
        return otherSite(e);
      }
    }
    return this._ask('isAllowed', url, given(ua), undefined);
  }

  /** The Robots' `method(url, agent)` for robots-parser's URL; `none` for a URL of another site. */
  _ask(method, url, agent, none) {
    const query = this._query(url);
    if (query === null) return none;
    try {
      return this._parsed()[method](query, agent);
    } catch (e) {
      otherSite(e);
      return none;
    }
  }

  isDisallowed(url, ua) {
    return !this.isAllowed(url, ua);
  }

  isExplicitlyDisallowed(url, ua) {
    return this._ask('isExplicitlyDisallowed', url, given(ua), undefined);
  }

  getMatchingLineNumber(url, ua) {
    // (explain is no selection-based query: it is given robots-parser's agent.)
    const explanation = this._ask('explain', url, this._agent(ua), null);
    // robots-parser keeps no empty rule (`Disallow:`), so only a rule that decided has a line.
    return explanation !== null && explanation.reason === 'rule' ? explanation.line : -1;
  }

  getCrawlDelay(ua) {
    return this._parsed().crawlDelay(this._agent(ua));
  }

  getSitemaps() {
    this._sitemaps ??= this._parsed().sitemaps;
    return this._sitemaps.slice();
  }

  getPreferredHost() {
    if (this._host === undefined) {
      // robots-parser's: the last Host line with a value, lower-cased.
      let host = null;
      for (const r of this._parsed().records) if (r.key.toLowerCase() === 'host' && r.value !== '') host = r.value.toLowerCase();
      this._host = host;
    }
    return this._host;
  }
}

/** A RangeError of the Robots for a URL of another site is robots-parser's `undefined`; anything else is thrown. */
function otherSite(e) {
  if (!(e instanceof RangeError && / is not on /.test(e.message))) throw e;
  return undefined;
}

/** robots-parser 3's function: the robots.txt `contents` of the file at `url`. */
export default function robotsParser(url, contents) {
  return new Robot(url, contents);
}
