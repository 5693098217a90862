// The rich module (wasm-rich/src/lib.rs): what is not on a crawler's hot path. Robots' explain,
// diagnostics, records and aiPreferences (js/robots.js, through withRich), parseContentUsage, and
// the page-level rules here: the robots META tags of an HTML document (metaRobots) and
// X-Robots-Tag response headers (xRobotsTag). It is compiled and instantiated on the first call
// that needs it, not before: a program that only asks verdicts never pays for it, and a bundle of
// the 'robots-eval/verdict' entry, or one that imports only metaRobots/xRobotsTag from
// 'robots-eval', leaves out the module it does not call (every declaration here is free of side
// effects, so bundlers drop them with the embedded .wasm).
//
// Its boundary is plain wasm-bindgen: strings and bytes in, JS objects out (serde-wasm-bindgen).

import { loadRichModule, loadRichGlue } from './load.js';
import { PREFIX, describe, typeError, optionsArg, instanceFailure } from './common.js';

/** The core's HEAD_SCAN_LIMIT (robots_eval::meta): only this much of a document is scanned. */
const META_SCAN_LIMIT = 512 * 1024;
const META_OPTIONS = ['conflict'];

let module = null; // the WebAssembly.Module, compiled once
let bindings = null; // the current instance's wasm-bindgen bindings; null before the first call and after a trap
let encoder = null;

function encode(text) {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
}

/**
 * `f(bindings)` with the rich module's bindings, compiling and instantiating it on the first call.
 * Should the instance trap, the trap becomes an Error and the next call makes a fresh instance
 * (objects of the old one are told apart by their bindings: js/robots.js, #withFile).
 */
export function withRich(f) {
  try {
    if (bindings === null) {
      module ??= loadRichModule();
      const b = loadRichGlue()();
      b.initSync({ module });
      bindings = b;
    }
    return f(bindings);
  } catch (e) {
    const failure = instanceFailure(e, '');
    if (failure === null) throw e;
    bindings = null;
    throw failure;
  }
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
  if (typeof html === 'string') html = encode(html.length > META_SCAN_LIMIT ? html.slice(0, META_SCAN_LIMIT + 1) : html);
  else if (!(html instanceof Uint8Array)) throw typeError(where, 'html must be a string, Uint8Array or ArrayBuffer', html);
  if (typeof agent !== 'string') throw typeError(where, 'agent must be a string', agent);
  const conflict = conflictArg(options, where);
  // The core reads the first 512 KiB (its head scan limit); one byte more tells it there was more.
  if (html.length > META_SCAN_LIMIT + 1) html = html.subarray(0, META_SCAN_LIMIT + 1);
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
