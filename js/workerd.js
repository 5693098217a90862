// The entry for Cloudflare Workers (workerd, wrangler): Workers forbid compiling WebAssembly from
// bytes at run time, so the .wasm is imported as a module, which the platform compiles at deploy.
import wasmModule from './robots_eval_bg.wasm';
import { defineApi } from './robots.js';
import { defineRobotRules } from './rules.js';

const api = /* @__PURE__ */ defineApi(() => wasmModule);
// Local names that differ from the exported ones: a top-level `Robots` or `RobotRules` would make
// the bundler rename the classes inside defineApi/defineRobotRules (Robots.name === 'Robots2').
const robotsClass = api.Robots;
const fetchRobotsFn = api.fetchRobots;
const robotRulesClass = /* @__PURE__ */ defineRobotRules(api);
const metaRobotsFn = api.metaRobots;
const xRobotsTagFn = api.xRobotsTag;
export {
  robotsClass as Robots, fetchRobotsFn as fetchRobots, robotRulesClass as RobotRules, metaRobotsFn as metaRobots,
  xRobotsTagFn as xRobotsTag, robotsClass as default,
};
