// The package's main entry, the whole API, bundled by scripts/build-pkg.mjs once for each way of
// obtaining the compiled modules (./load.js, one of js/load-*.js):
//   pkg/index.js, pkg/index.cjs  load-embedded.js: the .wasm files travel inside the JavaScript as
//                                text (browsers, bundlers, Deno, Bun)
//   pkg/node.js, pkg/node.cjs    load-file.js: read from the files beside it (Node itself)
//   pkg/workerd.js               load-workerd.js: imported as modules (Cloudflare Workers)
// Four modules: the verdict module (robots.js), compiled on the first parse; the policy module
// (fetch.js), compiled on the first fetchRobots; the rich module (rich.js), compiled on the first
// call that needs it; the AI-use module (ai.js), compiled on the first aiUse. Every export is free of side effects, so a bundle carries only what the app
// reaches: the Robots class answers from the verdict module alone, and its rich calls (explain,
// diagnostics, records, aiPreferences, aiUse) are installed by installRich, which the
// 'robots-eval/rich' entry (js/rich-entry.js) calls.
import { loadModule } from './load.js';
import { defineFetch } from './fetch.js';
import { defineFetchAiUse } from './fetch-ai-use.js';
import { defineApi, member } from './robots.js';
import { defineRichMethods } from './rich-methods.js';
import { defineRobotRules } from './rules.js';
import { metaRobots, xRobotsTag, parseContentUsage } from './rich.js';

const api = /* @__PURE__ */ defineApi(loadModule, ": add `import 'robots-eval/rich';` once, which installs explain, diagnostics, records, aiPreferences and aiUse on Robots");
// Local names that differ from the exported ones: a top-level `Robots` or `RobotRules` would make
// the bundler rename the classes inside defineApi/defineRobotRules (Robots.name === 'Robots2').
// Read through pure calls, not `api.Robots`: a bundler keeps a property read (a getter could
// have effects), and with it the verdict module, in a bundle that only calls metaRobots.
const robotsClass = /* @__PURE__ */ member(api, 'Robots');
const fetching = /* @__PURE__ */ defineFetch(api);
const fetchRobotsFn = /* @__PURE__ */ member(fetching, 'fetchRobots');
const robotRulesClass = /* @__PURE__ */ defineRobotRules(fetching);
// The rich parts are made on their first call, not at the top level: Parcel keeps a top-level call
// even when it is marked pure, and with it the rich module, in an app that never asks for it.
let installer = null;
let fetchAiUseImpl = null;

/** Installs Robots' rich calls (js/rich-methods.js), once: what 'robots-eval/rich' does. */
function installRich() {
  (installer ??= defineRichMethods(api))();
}

/** robots.aiUse from what the site serves (js/fetch-ai-use.js). */
function fetchAiUse(url, agent, options) {
  return (fetchAiUseImpl ??= defineFetchAiUse(api, fetching, installRich))(url, agent, options);
}

export {
  robotsClass as Robots, fetchRobotsFn as fetchRobots, fetchAiUse, robotRulesClass as RobotRules, metaRobots,
  xRobotsTag, parseContentUsage, installRich, robotsClass as default,
};
