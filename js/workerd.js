// The entry for Cloudflare Workers (workerd, wrangler): Workers forbid compiling WebAssembly from
// bytes at run time, so the .wasm is imported as a module, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';
import { defineApi } from './robots.js';

const api = /* @__PURE__ */ defineApi(() => wasmModule);
export const Robots = api.Robots;
export const fetchRobots = api.fetchRobots;
export default Robots;
