// The 'robots-eval/verdict' entry: the API of the verdict module alone (Robots.parse, isAllowed,
// table, isExplicitlyDisallowed, crawlDelay, requestRate, sitemaps, host, truncated, fetchRobots,
// RobotRules), with its own instance. The main entry's bundles are as small where an app asks no
// rich call (js/index.js); this one stays for the apps that import it, and for Parcel, which
// keeps every part of a bundled entry file that it does not see unused at the top level. The rich
// calls (explain, diagnostics, records, aiPreferences, aiUse) throw an Error that names
// 'robots-eval/rich'. Bundled by scripts/build-pkg.mjs as index.js is, once per js/load-*.js.
import { loadModule } from './load.js';
import { defineFetch } from './fetch.js';
import { defineApi, member } from './robots.js';
import { defineRobotRules } from './rules.js';

const api = /* @__PURE__ */ defineApi(loadModule, ", which the 'robots-eval/verdict' entry leaves out; import Robots from 'robots-eval/rich' instead");
// (Named and read as in js/index.js.)
const robotsClass = /* @__PURE__ */ member(api, 'Robots');
const fetching = /* @__PURE__ */ defineFetch(api);
const fetchRobotsFn = /* @__PURE__ */ member(fetching, 'fetchRobots');
const robotRulesClass = /* @__PURE__ */ defineRobotRules(fetching);
export { robotsClass as Robots, fetchRobotsFn as fetchRobots, robotRulesClass as RobotRules, robotsClass as default };
