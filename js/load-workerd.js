// Cloudflare Workers (workerd, wrangler) forbid compiling WebAssembly from bytes at run time, so the
// .wasm files are imported as modules, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';
import richModule from './robots_eval_rich_bg.wasm';
import policyModule from './robots_eval_policy_bg.wasm';
import aiModule from './robots_eval_ai_bg.wasm';
import { createBindings as createRichBindings } from './rich-glue.js';
import { createBindings as createAiBindings } from './ai-glue.js';

/** The verdict module (wasm/). */
export function loadModule() {
  return wasmModule;
}

/** The JavaScript glue of the rich module (wasm-bindgen's): part of this bundle. */
export const loadRichGlue = () => createRichBindings;

/** The policy module (wasm-policy/). */
export function loadPolicyModule() {
  return policyModule;
}

/** The rich module (wasm-rich/). */
export function loadRichModule() {
  return richModule;
}

/** The JavaScript glue of the AI-use module (wasm-bindgen's): part of this bundle. */
export const loadAiGlue = () => createAiBindings;

/** The AI-use module (wasm-ai/). */
export function loadAiModule() {
  return aiModule;
}
