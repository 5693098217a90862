// Robots' rich calls (explain, aiPreferences, records and diagnostics, which the rich module
// answers, and aiUse, which the AI-use module answers), as stand-ins that throw an Error naming the import that installs the real ones
// (js/rich-methods.js, the 'robots-eval/rich' entry). A bundler cannot drop a method of a class, so
// neither the real calls nor their modules are written in the class (js/robots.js); these put
// the names on its prototype as the class would (methods writable, getters, none enumerable).

import { PREFIX } from './common.js';

const METHODS = [['explain', 'explain(url, agent)'], ['aiPreferences', 'aiPreferences(url, agent, options)'], ['aiUse', 'aiUse(url, agent, options)']];
const GETTERS = ['records', 'diagnostics'];

/** Puts the stand-ins on `proto`; `missingRich`: what the error adds (each entry says what to do: js/index.js, js/verdict.js). */
export function defineRichStandIns(proto, missingRich) {
  const thrower = (where) => () => {
    throw new Error(`${PREFIX}${where} is one of Robots' rich calls${missingRich}`);
  };
  for (const [name, where] of METHODS) Object.defineProperty(proto, name, { value: thrower(where), writable: true, configurable: true });
  for (const name of GETTERS) Object.defineProperty(proto, name, { get: thrower(name), configurable: true });
}
