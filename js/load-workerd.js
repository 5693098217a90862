// Cloudflare Workers (workerd, wrangler) forbid compiling WebAssembly from bytes at run time, so the
// .wasm is imported as a module, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';

export default function loadModule() {
  return wasmModule;
}
