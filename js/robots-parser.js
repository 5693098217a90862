// robots-eval/robots-parser: robots-parser 3's function and Robot object (robotsParser(url,
// contents) -> isAllowed, isDisallowed, isExplicitlyDisallowed, getMatchingLineNumber,
// getCrawlDelay, getSitemaps, getPreferredHost), with robots-parser's conventions, answered by
// this package's engine. For the code written against robots-parser (Crawlee's RobotsTxtFile
// calls it itself): `overrides` swaps the package, nothing else changes (compat/robots-parser/).
//
// Built on the public API only (`import { Robots } from 'robots-eval'`, resolved through the
// package's own "exports", so it shares the instance and the runtime entry of every other import).
// What differs from robots-parser, and why: docs/robots-parser.md.
import { Robots } from 'robots-eval';

/** The file is read as Google's reference library reads it (docs/robots-parser.md, "The dialect"). */
const DIALECT = 'google';

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

// A URL in the form the WHATWG URL parser leaves as it is (so robots-parser's reading of it is the
// string itself): the characters of a path and query that it never escapes, `%` with upper-case
// hex, and no `/.` (a dot segment, which it removes). Anything else takes the slow way (slowPath).
// (`g`: searched from lastIndex, the end of the site's prefix, without a copy of the rest.)
const PLAIN = /[^\w\-.~!$&()*+,;=:@/?%]|%(?![0-9A-F]{2})|\/\.|\/%2E/g;
const HEX = /%[0-9a-fA-F]{2}/g;

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

class Robot {
  // Plain fields, not #private: the pool above reads them. Not part of the API.
  constructor(url, contents) {
    if (contents !== undefined && contents !== null && typeof contents !== 'string' && !(contents instanceof Uint8Array)) {
      throw new TypeError(`robots-eval: robotsParser(url, contents): contents must be a string, a Uint8Array, null or undefined, got ${typeof contents}`);
    }
    this._text = contents || '';
    this._robots = null;
    this._used = false;
    const site = siteOf(url);
    // null: no URL is this file's (an unparseable robots.txt URL).
    this._site = site === null ? null : site.key;
    // The start every URL of the site has when written as the WHATWG parser writes it; for the
    // relative base, a path.
    this._prefix = site === null ? null : site.u.origin === RELATIVE_ORIGIN ? '' : `${site.u.protocol}//${site.u.host}`;
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
      this._robots = Robots.parse(this._text, { dialect: DIALECT });
      pool.push(this);
      pooledChars += this._text.length;
    }
    return this._robots;
  }

  _release() {
    this._robots.free();
    this._robots = null;
  }

  /** The URL as the engine gets it: the URL itself when plain, else robots-parser's path and query; null for another site. */
  _path(url) {
    const prefix = this._prefix;
    if (typeof url === 'string' && prefix !== null) {
      const n = prefix.length;
      if (n > 0 ? url.startsWith(prefix) && url.charCodeAt(n) === 47 : url.charCodeAt(0) === 47 && url.charCodeAt(1) !== 47) {
        PLAIN.lastIndex = n;
        if (!PLAIN.test(url)) return url;
      }
    }
    return this._slowPath(url);
  }

  _slowPath(url) {
    if (this._site === null) return null;
    const site = siteOf(url);
    if (site === null || site.key !== this._site) return null;
    // robots-parser matches the path and query, percent-escapes upper-cased.
    return (site.u.pathname + site.u.search).replace(HEX, (m) => m.toUpperCase());
  }

  _agent(ua) {
    if (ua !== this._lastUa) {
      this._lastAgent = agentOf(ua);
      this._lastUa = ua;
    }
    return this._lastAgent;
  }

  isAllowed(url, ua) {
    const path = this._path(url);
    if (path === null) return undefined;
    return this._parsed().isAllowed(path, this._agent(ua));
  }

  isDisallowed(url, ua) {
    return !this.isAllowed(url, ua);
  }

  isExplicitlyDisallowed(url, ua) {
    const path = this._path(url);
    if (path === null) return undefined;
    return this._parsed().isExplicitlyDisallowed(path, this._agent(ua));
  }

  getMatchingLineNumber(url, ua) {
    const path = this._path(url);
    if (path === null) return -1;
    const { reason, line } = this._parsed().explain(path, this._agent(ua));
    // robots-parser keeps no empty rule (`Disallow:`), so only a rule that decided has a line.
    return reason === 'rule' ? line : -1;
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

/** robots-parser 3's function: the robots.txt `contents` of the file at `url`. */
export default function robotsParser(url, contents) {
  return new Robot(url, contents);
}
