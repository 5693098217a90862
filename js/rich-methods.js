// The calls of Robots that the rich module answers (wasm-rich/src/lib.rs): explain, aiPreferences,
// records and diagnostics; and aiUse, which the AI-use module answers (wasm-ai/src/lib.rs, js/ai.js). A class method cannot be left out of a bundle, so they are not
// written in the class (js/robots.js, whose stand-ins throw an Error naming the import): `install`
// puts them on its prototype, and only the 'robots-eval/rich' entry (js/rich-entry.js) and
// fetchAiUse call it. A bundle that never reaches this file carries neither it nor the rich
// module. Each Robots parses its text again in each of these modules on its first call there, and
// keeps that parse with it (js/robots.js, richFile).

import { CORE } from './robots.js';
import { optionsArg, typeError } from './common.js';
import { richEngine, headerArg } from './rich.js';
import { aiEngine, aiUseInputs, aiUseAnswer } from './ai.js';

const AI_OPTIONS = ['header'];

/** The File of a (string or bytes) text in the module of engine `e` (js/engine.js), on its current instance. */
function parseFile(e, text, d, maxBytes) {
  const { File } = e.b;
  return typeof text === 'string' ? File.parse(text, d, maxBytes) : File.parse_bytes(text, d, maxBytes);
}

/**
 * The installer of the rich calls on the Robots of `api` (defineApi's result): idempotent, and
 * free of side effects until called.
 */
export function defineRichMethods(api) {
  const { Robots } = api;
  const { query, live, richFile } = api[CORE];
  // Each object's records and diagnostics, read once (frozen, handed out as copies).
  const records = new WeakMap();
  const diagnostics = new WeakMap();

  /**
   * `f(file, url, agent)` with the checked arguments (checked before the module is compiled; no
   * url and agent: only that the object is live) and this file's parse in the module of `engine`
   * (the rich module's unless given).
   */
  function withFile(robots, where, url, agent, f, engine = richEngine()) {
    if (f === undefined) {
      f = url;
      live(robots, where);
    } else [url, agent] = query(robots, where, url, agent);
    return engine.run((e) => f(richFile(robots, e, (text, d, maxBytes) => parseFile(e, text, d, maxBytes)), url, agent), '');
  }

  const methods = {
    explain(url, agent) {
      return withFile(this, 'explain(url, agent)', url, agent, (file, u, a) => file.explain(u, a));
    },

    aiPreferences(url, agent, options) {
      const where = 'aiPreferences(url, agent, options)';
      [url, agent] = query(this, where, url, agent);
      optionsArg(options, where, AI_OPTIONS);
      const header = options?.header === undefined ? undefined : headerArg(options.header, where);
      return withFile(this, where, url, agent, (file, u, a) => file.ai_preferences(u, a, header));
    },

    /**
     * "May this crawler use this page for AI?" per purpose, from every signal given (docs/ai-use.md):
     * the options are checked before the AI-use module is compiled; a Robots from fetchRobots
     * brings how robots.txt was fetched.
     */
    aiUse(url, agent, options) {
      const where = 'aiUse(url, agent, options)';
      [url, agent] = query(this, where, url, agent);
      const inputs = aiUseInputs(options, where);
      const source = this.source;
      return withFile(this, where, url, agent, (file, u, a) => aiUseAnswer(file, u, a, inputs, source), aiEngine());
    },

    /**
     * Which rule decides how much of a site (robots_eval::coverage, computed by the core): every
     * argument checked as a query's (URL on the file's site, the agent that decides) before the
     * rich module is compiled; the result's URLs and agents are indices into those given.
     */
    coverage(urls, agents) {
      const where = 'coverage(urls, agents)';
      const list = (items, what) => {
        if (items === null || typeof items !== 'object' || typeof items[Symbol.iterator] !== 'function') throw typeError(where, `${what} must be an array`, items);
        return Array.from(items);
      };
      const asked = list(urls, 'urls').map((u) => query(this, where, u, '*')[0]);
      const picked = list(agents, 'agents').map((a) => query(this, where, '/', a)[1]);
      return withFile(this, where, (file) => file.coverage(asked, picked));
    },
  };

  const getters = {
    records() {
      let list = records.get(this);
      if (list === undefined) {
        list = withFile(this, 'records', (file) => file.records()).map((r) => {
          if (r.agents !== null) Object.freeze(r.agents);
          return Object.freeze(r);
        });
        records.set(this, list);
      } else live(this, 'records');
      return list.slice();
    },

    diagnostics() {
      let list = diagnostics.get(this);
      if (list === undefined) {
        list = withFile(this, 'diagnostics', (file) => file.diagnostics()).map(Object.freeze);
        diagnostics.set(this, list);
      } else live(this, 'diagnostics');
      return list.slice();
    },
  };

  let installed = false;
  return function install() {
    if (installed) return;
    installed = true;
    const proto = Robots.prototype;
    for (const [name, value] of Object.entries(methods)) Object.defineProperty(proto, name, { value, writable: true, configurable: true });
    for (const [name, get] of Object.entries(getters)) Object.defineProperty(proto, name, { get, configurable: true });
  };
}
