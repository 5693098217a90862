// The rich module (wasm-rich/src/lib.rs): what is not on a crawler's hot path. Robots' explain,
// diagnostics, records and aiPreferences (js/rich-methods.js, through richEngine; aiUse has a
// module of its own, js/ai.js),
// parseContentUsage, and the page-level rules here: the robots META tags of an HTML document (metaRobots) and
// X-Robots-Tag response headers (xRobotsTag). It is compiled and instantiated on the first call
// that needs it, not before: a program that only asks verdicts never pays for it, and a bundle of
// Robots.parse and isAllowed, or one that imports only metaRobots/xRobotsTag, leaves out the
// module it does not call (every declaration here is free of side
// effects, so bundlers drop them with the embedded .wasm).
//
// Its boundary is plain wasm-bindgen: strings and bytes in, JS objects out (serde-wasm-bindgen).

import { loadRichModule, loadRichGlue } from './load.js';
import { defineEngine } from './engine.js';
import { PREFIX, HEAD_SCAN_LIMIT, describe, encodeUtf8, typeError, optionsArg } from './common.js';

const META_OPTIONS = ['conflict'];

let engine = null;

/**
 * The rich module's engine (js/engine.js), made on the first call that needs it (not at the top
 * level: Parcel keeps a top-level call even when it is marked pure, and with it the module). Its
 * bindings are `e.b`, and `e.current` tells its instances apart (a Robots keeps its rich parse
 * with the instance that made it: js/rich-methods.js).
 */
export function richEngine() {
  return (engine ??= defineEngine(loadRichModule, () => loadRichGlue()()));
}

/** `f(bindings)` on the rich module's instance; a trap becomes an Error and a fresh instance on the next call. */
export function withRich(f) {
  return richEngine().run((e) => f(e.b), '');
}

/**
 * A Content-Usage header, checked: one field value, or its field lines, as the lines the rich
 * module combines (robots_eval::report::combine_field_lines, RFC 9110 section 5.3).
 */
export function headerArg(header, where) {
  if (typeof header === 'string') return [header];
  if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header;
  throw typeError(where, 'a Content-Usage header must be a string or an array of strings (its field lines)', header);
}

/** A Content-Usage header alone: each category's value. */
export function parseContentUsage(header) {
  const value = headerArg(header, 'parseContentUsage(header)');
  return withRich((b) => b.content_usage(value));
}

function conflictArg(options, where) {
  const { conflict = 'most-restrictive' } = optionsArg(options, where, META_OPTIONS);
  if (conflict === 'most-restrictive') return 0;
  if (conflict === 'seed001') return 1;
  if (typeof conflict !== 'string') throw typeError(where, "options.conflict must be 'most-restrictive' or 'seed001'", conflict);
  throw new RangeError(`${PREFIX}${where}: options.conflict must be 'most-restrictive' or 'seed001', got ${describe(conflict)}`);
}

export function metaRobots(html, agent, options) {
  const where = 'metaRobots(html, agent, options)';
  if (html instanceof ArrayBuffer) html = new Uint8Array(html);
  if (typeof html === 'string') html = encodeUtf8(html.length > HEAD_SCAN_LIMIT ? html.slice(0, HEAD_SCAN_LIMIT + 1) : html);
  else if (!(html instanceof Uint8Array)) throw typeError(where, 'html must be a string, Uint8Array or ArrayBuffer', html);
  if (typeof agent !== 'string') throw typeError(where, 'agent must be a string', agent);
  const conflict = conflictArg(options, where);
  // The core reads the first 512 KiB (its head scan limit); one byte more tells it there was more.
  if (html.length > HEAD_SCAN_LIMIT + 1) html = html.subarray(0, HEAD_SCAN_LIMIT + 1);
  return withRich((b) => b.meta_html(html, agent, conflict));
}

export function xRobotsTag(headerValues, agent, options) {
  const where = 'xRobotsTag(headerValues, agent, options)';
  if (typeof headerValues === 'string') headerValues = [headerValues];
  if (headerValues === null || typeof headerValues !== 'object' || typeof headerValues[Symbol.iterator] !== 'function') {
    throw typeError(where, 'headerValues must be a string or an array of strings', headerValues);
  }
  const values = Array.from(headerValues);
  if (typeof agent !== 'string') throw typeError(where, 'agent must be a string', agent);
  const conflict = conflictArg(options, where);
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'string') throw typeError(where, `headerValues[${i}] must be a string`, values[i]);
  }
  return withRich((b) => b.meta_header(values, agent, conflict));
}
