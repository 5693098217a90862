// The .wasm files inside the JavaScript as text (wasm-embedded.js and rich-embedded.js, generated
// by scripts/build-pkg.mjs, and policy-embedded.js; js/wasm-text.js says why not base64), so every runtime and bundler
// loads them with a plain import,
// synchronously, with no fetch, fs or asset configuration. Each is decoded and compiled only when
// first needed; a bundle that never reaches the rich module (the 'robots-eval/verdict' entry)
// drops it (js/rich.js); one that never calls fetchRobots drops the policy module (js/fetch.js).
import verdictWasm from './wasm-embedded.js';
import richWasm from './rich-embedded.js';
import policyWasm from './policy-embedded.js';
import { decodeWasmText } from './wasm-text.js';
import { createBindings as createRichBindings } from './rich-glue.js';

function compile({ text, order, length }) {
  return new WebAssembly.Module(decodeWasmText(text, order, length));
}

/** The verdict module (wasm/). */
export function loadModule() {
  return compile(verdictWasm);
}

/** The JavaScript glue of the rich module (wasm-bindgen's): part of this bundle. */
export const loadRichGlue = () => createRichBindings;

/** The policy module (wasm-policy/). */
export function loadPolicyModule() {
  return compile(policyWasm);
}

/** The rich module (wasm-rich/). */
export function loadRichModule() {
  return compile(richWasm);
}
