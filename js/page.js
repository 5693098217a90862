// Page-level rules: the robots META tags of an HTML document (metaRobots) and X-Robots-Tag
// response headers (xRobotsTag), answered by the package's second WebAssembly module
// (wasm-page/src/lib.rs). It is compiled and instantiated on the first call, not before: a
// program that only evaluates robots.txt never pays for it, and a bundle that never calls these
// functions leaves the module out (every declaration here is free of side effects, so bundlers
// drop them with the embedded .wasm).
//
// These calls are per page, not per URL of a queue: the arguments are encoded with TextEncoder
// and copied into the module in one piece, without the robots.txt wrapper's hot-path buffers.

import { createBindings } from './page-glue.js';
import { loadPageModule } from './load.js';
import { PREFIX, describe, typeError, optionsArg, decodeUtf8, instanceFailure } from './common.js';

/** The core's HEAD_SCAN_LIMIT (robots_eval::meta): only this much of a document is scanned. */
const META_SCAN_LIMIT = 512 * 1024;
const META_OPTIONS = ['conflict'];

let module = null; // the WebAssembly.Module, compiled once
let instance = null; // { engine, memory }; null before the first call and after a trap
let encoder = null;

function encode(text) {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
}

/**
 * Copies `input` into the module, calls `call(engine)` (which returns the byte length of its
 * JSON result) and returns the parsed result.
 */
function run(input, call) {
  try {
    if (instance === null) {
      module ??= loadPageModule();
      const bindings = createBindings();
      const { memory } = bindings.initSync({ module });
      instance = { engine: new bindings.Engine(), memory };
    }
    const { engine, memory } = instance;
    const at = engine.reserve(input.length);
    new Uint8Array(memory.buffer, at, input.length).set(input);
    const len = call(engine);
    // After the call: a call may grow the memory, which detaches a buffer taken before it.
    const text = decodeUtf8(new Uint8Array(memory.buffer, engine.out_text(), len));
    if (input.length > 1 << 20 || len > 1 << 20) engine.release();
    return JSON.parse(text);
  } catch (e) {
    const failure = instanceFailure(e, '');
    if (failure === null) throw e;
    instance = null;
    throw failure;
  }
}

/** The byte arrays one after the other. */
function concat(parts) {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
  const agentBytes = encode(agent);
  return run(concat([html, agentBytes]), (engine) => engine.meta_html(html.length, agentBytes.length, conflict));
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
  // The input: the values' byte lengths (little-endian u32s), the values, the agent.
  const encoded = values.map(encode);
  const lengths = new DataView(new ArrayBuffer(4 * encoded.length));
  let valuesLen = 0;
  encoded.forEach((v, i) => {
    lengths.setUint32(4 * i, v.length, true);
    valuesLen += v.length;
  });
  const agentBytes = encode(agent);
  const input = concat([new Uint8Array(lengths.buffer), ...encoded, agentBytes]);
  return run(input, (engine) => engine.meta_header(encoded.length, valuesLen, agentBytes.length, conflict));
}
