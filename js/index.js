// The package's main entry, the whole API, bundled by scripts/build-pkg.mjs once for each way of
// obtaining the compiled modules (./load.js, one of js/load-*.js):
//   pkg/index.js, pkg/index.cjs  load-embedded.js: the .wasm files travel inside the JavaScript as
//                                text (browsers, bundlers, Deno, Bun)
//   pkg/node.js, pkg/node.cjs    load-file.js: read from the files beside it (Node itself)
//   pkg/workerd.js               load-workerd.js: imported as modules (Cloudflare Workers)
// Three modules: the verdict module (robots.js), compiled on the first parse; the policy module
// (fetch.js), compiled on the first fetchRobots; the rich module (rich.js), compiled on the first
// call that needs it. js/verdict.js is the entry without the rich module.
import { loadModule } from './load.js';
import { defineFetch } from './fetch.js';
import { defineApi, member } from './robots.js';
import { defineRobotRules } from './rules.js';
import { metaRobots, xRobotsTag, withRich, aiUseInputs, aiUseAnswer } from './rich.js';

const api = /* @__PURE__ */ defineApi(loadModule, withRich, { inputs: aiUseInputs, answer: aiUseAnswer });
// Local names that differ from the exported ones: a top-level `Robots` or `RobotRules` would make
// the bundler rename the classes inside defineApi/defineRobotRules (Robots.name === 'Robots2').
// Read through pure calls, not `api.Robots`: a bundler keeps a property read (a getter could
// have effects), and with it the verdict module, in a bundle that only calls metaRobots.
const robotsClass = /* @__PURE__ */ member(api, 'Robots');
const fetching = /* @__PURE__ */ defineFetch(api);
const fetchRobotsFn = /* @__PURE__ */ member(fetching, 'fetchRobots');
const fetchAiUseFn = /* @__PURE__ */ member(fetching, 'fetchAiUse');
const robotRulesClass = /* @__PURE__ */ defineRobotRules(fetching);
const parseContentUsageFn = /* @__PURE__ */ member(api, 'parseContentUsage');
export {
  robotsClass as Robots, fetchRobotsFn as fetchRobots, fetchAiUseFn as fetchAiUse, robotRulesClass as RobotRules, metaRobots,
  xRobotsTag, parseContentUsageFn as parseContentUsage, robotsClass as default,
};
