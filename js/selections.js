// A Robots object's cache of group selections by agent string (js/robots.js): repeated queries
// for an agent skip selection, the first step of every verdict (docs/architecture.md, "One
// isAllowed call"). Bounded: 256 agents, each at most 1024 characters long.

/** The packed selections of one parsed file (wasm/src/lib.rs, `selection`). */
export class Selections {
  #map = new Map();
  // How the agents are read first (null: as given); set by js/robots-parser.js, whose agents are
  // robots-parser's (cut at `/`, trimmed, `*` for none). It runs once per agent: a wrapper that
  // reads agents its own way pays nothing per query.
  #read;

  constructor(read) {
    this.#read = read;
  }

  /** The packed selection of `agent` in the file behind `handle` of the verdict engine `E` (js/engine.js). */
  get(E, handle, agent) {
    const map = this.#map;
    let selection = map.get(agent);
    if (selection === undefined) {
      const read = this.#read;
      selection = E.w.selection(handle, E.put(read === null ? agent : String(read(agent)), 0));
      if (agent.length <= 1024) {
        if (map.size >= 256) map.clear();
        map.set(agent, selection);
      }
    }
    return selection;
  }
}
