// The Robots class's arguments (js/robots.js), read and checked before any call into the verdict
// module: a URL, a list of agents, the options of Robots.parse and the dialect's name. A wrong
// type is a TypeError, a value out of range a RangeError, each naming the call.

import { PREFIX, describe, typeError, optionsArg, numberOption, isMaxBytes, DEFAULT_MAX_BYTES } from './common.js';
import { siteOrigin } from './site.js';
// The core's names of dialects, written by scripts/build-pkg.mjs when it builds the package.
import NAMES from './names.js';

const MAX_U32 = 0xffffffff;
const PARSE_OPTIONS = ['dialect', 'maxBytes', 'url'];

/** A URL argument as text (a string, or a URL object's href). */
export function urlArg(url, where) {
  if (typeof url === 'string') return url;
  if (typeof URL === 'function' && url instanceof URL) return url.href;
  throw typeError(where, 'url must be a string or a URL', url);
}

/** Dialect index by the name given (any case). */
const dialectIndexes = new Map();

/** The index of a dialect's name in the core's list (NAMES.dialects); a RangeError for another name. */
export function dialectIndex(name) {
  let i = dialectIndexes.get(name);
  if (i === undefined) {
    // ASCII case-insensitive, as the core's DialectId::from_name (toLowerCase would also fold
    // non-ASCII letters such as the Kelvin sign).
    i = NAMES.dialects.indexOf(name.replace(/[A-Z]+/g, (c) => c.toLowerCase()));
    if (i < 0) {
      throw new RangeError(`${PREFIX}Robots.parse(text, options): unknown dialect ${JSON.stringify(name)}; the dialects are ${NAMES.dialects.map((d) => `'${d}'`).join(', ')}`);
    }
    dialectIndexes.set(name, i);
  }
  return i;
}

/** The options of Robots.parse when none are given. */
const DEFAULTS = Object.freeze({ d: 0, maxBytes: DEFAULT_MAX_BYTES, origin: null });

/**
 * The options of Robots.parse: { d: the dialect's index, maxBytes (at most 2^32 - 1), origin: the
 * site's, or null }. No dialect given: the default, index 0 (the core's DialectId::ALL lists it
 * first), with no lookup: the first parse of a process then compiles no RegExp.
 */
export function parseOptions(options, where) {
  if (options === undefined || options === null) return DEFAULTS;
  let dialect;
  let maxBytes = DEFAULT_MAX_BYTES;
  let origin = null;
  optionsArg(options, where, PARSE_OPTIONS);
  if (options.dialect !== undefined) {
    if (typeof options.dialect !== 'string') throw typeError(where, 'options.dialect must be a string', options.dialect);
    dialect = options.dialect;
  }
  if (options.maxBytes !== undefined) {
    maxBytes = numberOption(options.maxBytes, where, 'maxBytes', isMaxBytes, 'a non-negative integer or Infinity');
  }
  if (options.url !== undefined) origin = siteOrigin(options.url, where, 'options.url');
  return { d: dialect === undefined ? 0 : dialectIndex(dialect), maxBytes: Math.min(maxBytes, MAX_U32), origin };
}

/** Checks an agent that is not a string: a non-empty array of strings, else a TypeError. */
export function agentList(agents, where) {
  const what = 'agent must be a string or a non-empty array of strings';
  if (!Array.isArray(agents) || agents.length === 0) throw typeError(where, what, agents);
  for (let i = 0; i < agents.length; i++) {
    if (typeof agents[i] !== 'string') {
      throw new TypeError(`${PREFIX}${where}: ${what}, got an array whose item ${i} is ${describe(agents[i])}`);
    }
  }
  return agents;
}
