// Cloudflare Workers (workerd, wrangler) forbid compiling WebAssembly from bytes at run time, so the
// .wasm files are imported as modules, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';
import pageModule from './robots_eval_page_bg.wasm';

/** The robots.txt module (wasm/). */
export function loadModule() {
  return wasmModule;
}

/** The page-level rules module (wasm-page/). */
export function loadPageModule() {
  return pageModule;
}
