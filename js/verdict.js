// The 'robots-eval/verdict' entry: the API of the verdict module alone (Robots.parse, isAllowed,
// table, isExplicitlyDisallowed, crawlDelay, requestRate, sitemaps, host, truncated, fetchRobots,
// RobotRules), for a browser bundle or an edge function that ships nothing it does not call. The
// rich module is not part of it, so a bundle of this entry neither embeds nor compiles it; the
// calls it answers (explain, diagnostics, records, aiPreferences) throw an Error that names the
// main entry. Bundled by scripts/build-pkg.mjs as index.js is, once per js/load-*.js.
import { loadModule } from './load.js';
import { defineFetch } from './fetch.js';
import { defineApi, member } from './robots.js';
import { defineRobotRules } from './rules.js';

const api = /* @__PURE__ */ defineApi(loadModule, null);
// (Named and read as in js/index.js.)
const robotsClass = /* @__PURE__ */ member(api, 'Robots');
const fetching = /* @__PURE__ */ defineFetch(api);
const fetchRobotsFn = /* @__PURE__ */ member(fetching, 'fetchRobots');
const robotRulesClass = /* @__PURE__ */ defineRobotRules(fetching);
export { robotsClass as Robots, fetchRobotsFn as fetchRobots, robotRulesClass as RobotRules, robotsClass as default };
