// The site a robots.txt belongs to (its origin: scheme, host, port), and what a query of a URL of
// another site gets. Whether a URL is plainly on the site is the core's answer
// (robots_eval::url::plainly_on_site, asked through the verdict module: wasm/src/lib.rs, `allowed`,
// `off_site` and `table` flag OFF_SITE); this file settles only what the core does not call
// plainly on it, with the runtime's WHATWG URL parser (scheme and host in any case, a default
// port, IDNA hosts...), as the Python package does with the `url` crate, and words the error.

import { PREFIX, typeError } from './common.js';

/**
 * The origin (scheme, host, port) of an absolute http: or https: URL given as the site of a
 * robots.txt; a TypeError otherwise.
 */
export function siteOrigin(url, where, name) {
  let u = null;
  try {
    u = typeof URL === 'function' && url instanceof URL ? url : typeof url === 'string' ? new URL(url) : null;
  } catch {}
  if (u === null || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw typeError(where, `${name} must be an absolute http: or https: URL (a string or a URL)`, url);
  }
  return u.origin;
}

/**
 * Refuses `url`, which the verdict module found not plainly on `origin`, unless the URL parser
 * finds it on that origin after all: a file's rules say nothing about other sites (RFC 9309
 * section 2.3: the file sits at the top-level path of the service it covers), and answering from
 * them would be a guess.
 */
export function settleOnSite(url, origin, where) {
  let u = null;
  try {
    u = new URL(url, origin); // a network-path reference (//host/x) takes the site's scheme
  } catch {}
  if (u === null || u.origin !== origin) {
    // Quoted whatever its length (describe() names only the type of a long string): the start of
    // the URL is what tells the caller which site it was.
    const quoted = JSON.stringify(url.slice(0, 80)) + (url.length > 80 ? `... (${url.length} characters)` : '');
    throw new RangeError(`${PREFIX}${where}: ${quoted} is not on ${origin}, the site this robots.txt belongs to; its rules say nothing about other sites (fetch that site's robots.txt)`);
  }
}
