// What the wrappers of the package's WebAssembly modules share (js/robots.js for robots.txt,
// js/fetch.js for the policy module, js/rich.js for the rich module, js/ai.js for the AI-use module, and js/rules.js on top of them): argument errors
// with one message style, UTF-8 decoding, and what a trapped instance becomes.

/** Every error message of the package starts with this. */
export const PREFIX = 'robots-eval: ';

/** The size cap of a robots.txt when none is given: 500 KiB (RFC 9309 section 2.5). */
export const DEFAULT_MAX_BYTES = 512000;

/** A value as an error message shows it. */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'string') return value.length > 40 ? 'a string' : JSON.stringify(value);
  if (type === 'object') return `an object (${value.constructor?.name ?? 'null prototype'})`;
  return type === 'undefined' ? 'undefined' : `${type} ${String(value)}`;
}

export function typeError(where, what, value) {
  return new TypeError(`${PREFIX}${where}: ${what}, got ${describe(value)}`);
}

/** A number option: a TypeError when it is not a number, a RangeError when `ok` rejects it. */
export function numberOption(value, where, name, ok, what) {
  if (typeof value !== 'number') throw typeError(where, `options.${name} must be a number`, value);
  if (!ok(value)) throw new RangeError(`${PREFIX}${where}: options.${name} must be ${what}, got ${describe(value)}`);
  return value;
}

export const isMaxBytes = (v) => v >= 0 && (v === Infinity || Number.isInteger(v));
export const isNonNegative = (v) => v >= 0;

const NO_OPTIONS = Object.freeze({});

/**
 * An options argument: undefined or null (none), or an object whose every key is one of
 * `accepted` (a misspelt option would otherwise be silently ignored). Returns the object.
 */
export function optionsArg(options, where, accepted) {
  if (options === undefined || options === null) return NO_OPTIONS;
  if (typeof options !== 'object') throw typeError(where, 'options must be an object', options);
  for (const key in options) {
    if (!accepted.includes(key)) {
      throw new TypeError(`${PREFIX}${where}: unknown option ${JSON.stringify(key)}; the options are ${accepted.map((k) => `'${k}'`).join(', ')}`);
    }
  }
  return options;
}

/** The core's meta::HEAD_SCAN_LIMIT: only this much of an HTML document is read for its META tags. */
export const HEAD_SCAN_LIMIT = 512 * 1024;

let decoder = null; // made on first use: the hot paths never decode
let encoder = null;

export function decodeUtf8(bytes) {
  decoder ??= new TextDecoder();
  return decoder.decode(bytes);
}

/** Text as new UTF-8 bytes (an argument of the rich and AI-use modules, which copy it in). */
export function encodeUtf8(text) {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
}

/**
 * The error to throw when a call into an instance failed with `e`: for a trap (the module
 * should never trap: the core never panics and arguments are checked before the call) or an
 * exhausted memory, an Error that says the instance was reset (the caller drops it, and its
 * next call makes a fresh one); `lost`: what the user loses with it. null for any other `e`,
 * which the caller throws as it is.
 */
export function instanceFailure(e, lost) {
  if (e instanceof WebAssembly.RuntimeError) {
    return new Error(`${PREFIX}internal error in the WebAssembly module (${e.message}); the module was reset${lost}. Please report this with the input that caused it.`, { cause: e });
  }
  if (e instanceof RangeError && /memory/i.test(e.message)) {
    return new RangeError(`${PREFIX}out of WebAssembly memory (${e.message}); the module was reset`, { cause: e });
  }
  return null;
}
