// The rich module (wasm-rich/src/lib.rs): what is not on a crawler's hot path. Robots' explain,
// diagnostics, records, aiPreferences and aiUse (js/rich-methods.js, through withRich),
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
import { NONE } from './protocol.js';
import { PREFIX, describe, typeError, optionsArg } from './common.js';

/** The core's HEAD_SCAN_LIMIT (robots_eval::meta): only this much of a document is scanned. */
const META_SCAN_LIMIT = 512 * 1024;
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

let encoder = null;

function encode(text) {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
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

// ---- aiUse (Robots.aiUse, through js/robots.js; docs/ai-use.md) -------------------------------

const AI_USE_OPTIONS = ['headers', 'html', 'tdmrep', 'purposes', 'policyTokens'];
/** The purpose labels aiUse answers, and those `purposes` accepts (the aipref vocabulary's aliases too). */
const PURPOSE_LABELS = ['train-ai', 'ai-train', 'ai-use', 'ai-input', 'search'];
/** tdmrep::MAX_FILE_BYTES: a larger tdmrep.json is not read (a trace entry says so). */
const TDMREP_LIMIT = 1024 * 1024;
/** `fetch_status` for a robots.txt the caller had (not fetched by fetchRobots): the boundary's NONE. */
const NOT_FETCHED = NONE;

/** Text or bytes as bytes, at most `limit` + 1 of them (one more tells the core there was more). */
function cappedBytes(value, limit, where, name) {
  if (value instanceof ArrayBuffer) value = new Uint8Array(value);
  else if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array)) value = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') value = encode(value.length > limit ? value.slice(0, limit + 1) : value);
  else if (!(value instanceof Uint8Array)) throw typeError(where, `options.${name} must be a string, Uint8Array or ArrayBuffer`, value);
  return value.length > limit + 1 ? value.subarray(0, limit + 1) : value;
}

/**
 * The response headers as field lines ([names], [values]): a Headers (its values as it combines
 * them: one line per name), an array of [name, value] pairs, or a plain object whose values are a
 * string or an array of strings (one per field line). Names in any case.
 */
function headerLines(headers, where) {
  const names = [];
  const values = [];
  const add = (name, value, what) => {
    if (typeof name !== 'string') throw typeError(where, `${what}: a header name must be a string`, name);
    if (typeof value !== 'string') throw typeError(where, `${what}: the value of header ${JSON.stringify(name)} must be a string or an array of strings`, value);
    names.push(name);
    values.push(value);
  };
  if (headers === undefined || headers === null) return [names, values];
  if (typeof headers !== 'object') throw typeError(where, 'options.headers must be a Headers, an object or an array of [name, value] pairs', headers);
  if (typeof Headers === 'function' && headers instanceof Headers) {
    for (const [name, value] of headers) add(name, value, 'options.headers');
  } else if (Array.isArray(headers)) {
    headers.forEach((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2) throw typeError(where, `options.headers[${i}] must be a [name, value] pair`, pair);
      add(pair[0], pair[1], `options.headers[${i}]`);
    });
  } else {
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (Array.isArray(value)) for (const v of value) add(name, v, 'options.headers');
      else add(name, value, 'options.headers');
    }
  }
  return [names, values];
}

/** The options of aiUse, checked (before the rich module is compiled): what File.ai_use takes. */
export function aiUseInputs(options, where) {
  const { headers, html, tdmrep, purposes, policyTokens = [] } = optionsArg(options, where, AI_USE_OPTIONS);
  const [names, values] = headerLines(headers, where);
  const page = html === undefined || html === null ? undefined : cappedBytes(html, META_SCAN_LIMIT, where, 'html');
  const file = tdmrep === undefined || tdmrep === null ? undefined : cappedBytes(tdmrep, TDMREP_LIMIT, where, 'tdmrep');
  let declared = null;
  if (typeof purposes === 'string') declared = [purposes];
  else if (Array.isArray(purposes)) declared = purposes;
  else if (purposes !== undefined && purposes !== null) {
    throw typeError(where, "options.purposes must be an array of purpose labels ('train-ai', 'ai-use', 'search')", purposes);
  }
  for (const p of declared ?? []) {
    if (typeof p !== 'string') throw typeError(where, 'options.purposes must hold strings', p);
    if (!PURPOSE_LABELS.includes(p.trim().toLowerCase())) {
      throw new RangeError(`${PREFIX}${where}: options.purposes: unknown purpose ${describe(p)}; the purposes are 'train-ai', 'ai-use' and 'search'`);
    }
  }
  if (!Array.isArray(policyTokens) || !policyTokens.every((t) => typeof t === 'string')) {
    throw typeError(where, 'options.policyTokens must be an array of strings', policyTokens);
  }
  return { names, values, page, file, declared, policyTokens };
}

/**
 * File.ai_use's answer with the inputs checked by aiUseInputs; `source`: the Robots' fetchRobots
 * record (its status and the policy applied), or null. Each purpose's `by` becomes the trace
 * entries themselves (the contract), not their indices.
 */
export function aiUseAnswer(file, url, agent, inputs, source) {
  const { names, values, page, file: tdmrep, declared, policyTokens } = inputs;
  const answer = file.ai_use(
    url, agent, names, values, page, tdmrep, declared !== null, declared ?? [], policyTokens,
    source === null ? NOT_FETCHED : source.status, source === null ? '' : source.treatedAs,
  );
  for (const purpose of ['train-ai', 'ai-use', 'search']) {
    const p = answer[purpose];
    p.by = p.by.map((i) => answer.trace[i]);
  }
  return answer;
}
