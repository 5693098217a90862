// robots.table(urls, agents): every verdict for every URL and agent in one call into the verdict
// module (wasm/src/lib.rs, table), its cells read through a view of the module's memory. The
// class (js/robots.js) checks the object and hands in its per-object parts.

import { typeError } from './common.js';
import NAMES from './names.js';
import { OFF_SITE, VERDICT_ALLOWED, VERDICT_LINE_SHIFT, VERDICT_REASON_MASK, VERDICT_REASON_SHIFT } from './protocol.js';

/**
 * The decision table of the file behind `handle` on the verdict engine `E` (js/engine.js). `q`:
 * what the Robots object lends: `urlArg(url, where)`, `pick(agents, where)` (the token that
 * decides among a list), `select(agent)` (its packed selection, cached), `onSite(url, where)`
 * (settles a URL the module flags: js/site.js, throws for another site's), and `ai(url, agent)` for the preference columns, or null.
 */
export function decisionTable(E, handle, urls, agents, q) {
  const where = 'table(urls, agents)';
  const list = (items, what, check) => {
    if (items === null || typeof items !== 'object' || typeof items[Symbol.iterator] !== 'function' || typeof items === 'string') {
      throw typeError(where, `${what} must be an array of strings`, items);
    }
    const out = Array.from(items);
    for (let i = 0; i < out.length; i++) out[i] = check(out[i], i);
    return out;
  };
  // The message of urlArg's error is built only for a URL that is not a string.
  urls = list(urls, 'urls', (u, i) => (typeof u === 'string' ? u : q.urlArg(u, `${where}: urls[${i}]`)));
  agents = list(agents, 'agents', (a) => a);
  // A column's agent: a product token, or the one that decides among a list of them.
  const names = agents.map((a, i) => (typeof a === 'string' ? a : q.pick(a, `${where}: agents[${i}]`)));
  const rows = urls.length;
  const cols = agents.length;
  let cells;
  let offSite;
  try {
    const selections = new Array(cols);
    for (let c = 0; c < cols; c++) selections[c] = q.select(names[c]);
    // The input: the agents' packed selections and the URLs' byte lengths (little-endian
    // u32s), then the URLs.
    const head = 4 * (cols + rows);
    E.reserve(head);
    let at = head;
    // ASCII URLs (the usual case) go in with one TextEncoder call for all of them: their
    // byte lengths are then their lengths. Any other character makes the UTF-8 longer than
    // the string, and the URLs are encoded one by one instead.
    const joined = rows > 1 ? urls.join('') : '';
    const lengths = new Array(rows);
    if (rows > 1 && E.put(joined, head) === joined.length) {
      for (let r = 0; r < rows; r++) lengths[r] = urls[r].length;
    } else {
      for (let r = 0; r < rows; r++) {
        const len = E.put(urls[r], at);
        lengths[r] = len;
        at += len;
      }
    }
    E.putU32s(selections, 0);
    E.putU32s(lengths, 4 * cols);
    // The first query of a crawler compiles its rule set, which may grow the memory.
    offSite = E.w.table(handle, rows, cols);
    // The cells, then, when some URL is not plainly on the file's site, a flag for each URL.
    cells = E.u32s(rows * cols + (offSite > 0 ? rows : 0));
  } catch (e) {
    throw E.rethrow(e);
  }
  // The module found some URLs not plainly on the file's site (wasm/src/lib.rs, table; the
  // core's url::plainly_on_site): the URL parser settles those, and the first that is not on it
  // is the error. (A URL as the site writes it costs no JavaScript.)
  if (offSite > 0) {
    for (let r = 0, k = rows * cols; r < rows; r++, k++) if ((cells[k] & OFF_SITE) !== 0) q.onSite(urls[r], `${where}: urls[${r}]`);
  }
  const allowed = new Array(rows);
  const lines = new Array(rows);
  const reasons = new Array(rows);
  const reasonNames = NAMES.reasons;
  // Read the cells now: the view is valid until the next call into the module.
  for (let r = 0, k = 0; r < rows; r++) {
    const a = new Array(cols);
    const l = new Array(cols);
    const why = new Array(cols);
    for (let c = 0; c < cols; c++, k++) {
      const cell = cells[k];
      a[c] = (cell & VERDICT_ALLOWED) !== 0;
      why[c] = reasonNames[(cell >>> VERDICT_REASON_SHIFT) & VERDICT_REASON_MASK];
      l[c] = cell >>> VERDICT_LINE_SHIFT;
    }
    allowed[r] = a;
    lines[r] = l;
    reasons[r] = why;
  }
  E.trim(cells.length * 4);
  const table = { urls, agents, allowed, lines, reasons };
  if (q.ai !== null) table.ai = urls.map((url) => agents.map((agent) => q.ai(url, agent)));
  return table;
}
