// The package's one entry, bundled by scripts/build-pkg.mjs once for each way of obtaining the
// compiled module (./load.js, one of js/load-*.js):
//   pkg/index.js, pkg/index.cjs  load-embedded.js: the .wasm files travel inside the JavaScript as
//                                base64 (browsers, bundlers, Deno, Bun)
//   pkg/node.js, pkg/node.cjs    load-file.js: read from the files beside it (Node itself)
//   pkg/workerd.js               load-workerd.js: imported as modules (Cloudflare Workers)
// Two modules: robots.txt (robots.js) and page-level rules (page.js, compiled on first use).
import { loadModule } from './load.js';
import { defineApi } from './robots.js';
import { defineRobotRules } from './rules.js';
import { metaRobots, xRobotsTag } from './page.js';

const api = /* @__PURE__ */ defineApi(loadModule);
// Local names that differ from the exported ones: a top-level `Robots` or `RobotRules` would make
// the bundler rename the classes inside defineApi/defineRobotRules (Robots.name === 'Robots2').
const robotsClass = api.Robots;
const fetchRobotsFn = api.fetchRobots;
const robotRulesClass = /* @__PURE__ */ defineRobotRules(api);
const parseContentUsageFn = api.parseContentUsage;
export {
  robotsClass as Robots, fetchRobotsFn as fetchRobots, robotRulesClass as RobotRules, metaRobots,
  xRobotsTag, parseContentUsageFn as parseContentUsage, robotsClass as default,
};
