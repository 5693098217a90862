// The entry for Cloudflare Workers (workerd, wrangler): Workers forbid compiling WebAssembly from
// bytes at run time, so the .wasm is imported as a module, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';
import { defineRobots } from './robots.js';

export const Robots = /* @__PURE__ */ defineRobots(() => wasmModule);
export default Robots;
