// The <loc> URLs of a sitemap or sitemap index (sitemaps.org protocol), read with sax (sax-js), a
// well-kept XML parser, in its strict mode with namespaces and only XML's own entities
// (comments, CDATA, namespaces, entities and character references as XML says; an & that starts
// no reference is an error where it stands). Shared by the npm command (js/cli.mjs, bundled into
// pkg/cli.mjs) and the playground (bundled into www/vendor/); the native CLI reads the same way
// with quick-xml (src/bin/robots-eval/sitemap.rs), and tests/data/cli-cases.json holds the cases
// both follow. (saxes was tried first: it reads a dangling & as a reference up to the end of the
// document and reports "unclosed tag" there.)
//
// What counts: the root is <urlset> or <sitemapindex> in the sitemap namespace (or in none, as
// many hand-written sitemaps are); a URL is the text of a <loc> child of each <url> (or <sitemap>
// of an index) in that same namespace, trimmed; an empty one is skipped. A <loc> of another
// namespace (image:loc, video:loc ...) is not a page of the site, and one inside a comment is no
// element at all. XML that is not well-formed is an error, with its line.

import sax from 'sax';

/** The sitemap protocol's limit: 50 MB (52,428,800 bytes), uncompressed. */
export const SITEMAP_MAX = 52428800;

/** The namespaces of sitemaps: sitemaps.org's, Google's earlier ones, and none. */
export const SITEMAP_NAMESPACES = ['http://www.sitemaps.org/schemas/sitemap/0.9', 'http://www.google.com/schemas/sitemap/0.84', 'http://www.google.com/schemas/sitemap/0.9', ''];

/** A sitemap that cannot be read; `message` says why, for "--sitemap: <where>: <message>". */
export class SitemapError extends Error {}

/**
 * The <loc> values of a sitemap or sitemap index, given as text (already gunzipped): { index, locs },
 * `index` true for a sitemap index (its locs are sitemaps). Throws a SitemapError.
 */
export function sitemapLocs(xml) {
  const parser = sax.parser(true, { xmlns: true, position: true, strictEntities: true });
  // The open elements, as [namespace, local name].
  const stack = [];
  let root = null;
  let ns = null;
  let text = null; // the text of the <loc> being read, or null outside one
  const locs = [];
  parser.onopentag = (node) => {
    if (stack.length === 0 && root === null && SITEMAP_NAMESPACES.includes(node.uri) && (node.local === 'urlset' || node.local === 'sitemapindex')) {
      root = node.local;
      ns = node.uri;
    }
    stack.push([node.uri, node.local]);
    const entry = root === 'urlset' ? 'url' : 'sitemap';
    if (root && stack.length === 3 && node.local === 'loc' && node.uri === ns && stack[1][0] === ns && stack[1][1] === entry) text = '';
  };
  parser.ontext = parser.oncdata = (t) => { if (text !== null) text += t; };
  parser.onclosetag = () => {
    if (text !== null && stack.length === 3) {
      // XML's white space (space, tab, CR, LF) around the URL.
      const loc = text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
      if (loc !== '') locs.push(loc);
      text = null;
    }
    stack.pop();
  };
  // The first error ends the reading: "Invalid character in entity name\nLine: 2 ..." (0-based).
  let failure = null;
  parser.onerror = (e) => {
    failure = { line: parser.line + 1, why: e.message.split('\n')[0] };
    throw failure;
  };
  try {
    parser.write(xml).close();
  } catch (e) {
    if (e !== failure) throw e;
  }
  if (!root) throw new SitemapError('not a sitemap (no <urlset> or <sitemapindex>)');
  if (failure) throw new SitemapError(`not well-formed XML (line ${failure.line}: ${failure.why})`);
  return { index: root === 'sitemapindex', locs };
}
