// The AI-use module (wasm-ai/src/lib.rs): Robots' aiUse (js/rich-methods.js, through aiEngine),
// "may this crawler use this page for AI?" from every signal given (docs/ai-use.md). Its own
// module, apart from the rich one (js/rich.js), because its resolver is as large as every other
// rich call together: it is compiled on the first aiUse, not before, and an app that explains,
// lints or reads META tags never compiles it. Every declaration here is free of side effects, so
// a bundle that never calls aiUse drops it with its embedded .wasm.
//
// Its boundary is plain wasm-bindgen, as the rich module's: strings and bytes in; the answer comes
// out as JSON text (wasm-ai/src/lib.rs says why), read here with JSON.parse.

import { loadAiModule, loadAiGlue } from './load.js';
import { defineEngine } from './engine.js';
import { NONE } from './protocol.js';
import { PREFIX, HEAD_SCAN_LIMIT, describe, encodeUtf8, typeError, optionsArg } from './common.js';

let engine = null;

/**
 * The AI-use module's engine (js/engine.js), made on the first aiUse (not at the top level, as
 * js/rich.js's). Its bindings are `e.b`; a Robots keeps its parse here with the instance that
 * made it (js/rich-methods.js).
 */
export function aiEngine() {
  return (engine ??= defineEngine(loadAiModule, () => loadAiGlue()()));
}

const AI_USE_OPTIONS = ['headers', 'html', 'tdmrep', 'purposes', 'policyTokens'];
/** The purpose labels aiUse answers, and those `purposes` accepts (the aipref vocabulary's aliases too). */
const PURPOSE_LABELS = ['train-ai', 'ai-train', 'ai-use', 'ai-input', 'search'];
/** tdmrep::MAX_FILE_BYTES: a larger tdmrep.json is not read (a trace entry says so). */
export const TDMREP_LIMIT = 1024 * 1024;
/** `fetch_status` for a robots.txt the caller had (not fetched by fetchRobots): the boundary's NONE. */
const NOT_FETCHED = NONE;

/** Text or bytes as bytes, at most `limit` + 1 of them (one more tells the core there was more). */
function cappedBytes(value, limit, where, name) {
  if (value instanceof ArrayBuffer) value = new Uint8Array(value);
  else if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array)) value = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') value = encodeUtf8(value.length > limit ? value.slice(0, limit + 1) : value);
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

/** The options of aiUse, checked (before the AI-use module is compiled): what File.ai_use takes. */
export function aiUseInputs(options, where) {
  const { headers, html, tdmrep, purposes, policyTokens = [] } = optionsArg(options, where, AI_USE_OPTIONS);
  const [names, values] = headerLines(headers, where);
  const page = html === undefined || html === null ? undefined : cappedBytes(html, HEAD_SCAN_LIMIT, where, 'html');
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
  const answer = JSON.parse(file.ai_use(
    url, agent, names, values, page, tdmrep, declared !== null, declared ?? [], policyTokens,
    source === null ? NOT_FETCHED : source.status, source === null ? '' : source.treatedAs,
  ));
  for (const purpose of ['train-ai', 'ai-use', 'search']) {
    const p = answer[purpose];
    p.by = p.by.map((i) => answer.trace[i]);
  }
  return answer;
}
