// A Robots object's cache of group selections by agent string (js/robots.js): repeated queries
// for an agent skip selection, the first step of every verdict (docs/architecture.md, "One
// isAllowed call"). Bounded: 256 agents, each at most 1024 characters long. The class looks a
// hit up itself (`map.get`, no call in between: the call cost isAllowed some 50 instructions)
// and calls `add` on a miss.

/** The packed selections of one parsed file (wasm/src/lib.rs, `selection`), by agent. */
export class Selections {
  /**
   * `read`: how the agents are read first (null: as given); set by js/robots-parser.js, whose
   * agents are robots-parser's (cut at `/`, trimmed, `*` for none). It runs once per agent: a
   * wrapper that reads agents its own way pays nothing per query.
   */
  constructor(read) {
    this.map = new Map();
    this.read = read;
  }

  /** The packed selection of `agent` (not cached yet) in the file behind `handle` of the verdict engine `E` (js/engine.js), cached. */
  add(E, handle, agent) {
    const read = this.read;
    const selection = E.w.selection(handle, E.put(read === null ? agent : String(read(agent)), 0));
    if (agent.length <= 1024) {
      if (this.map.size >= 256) this.map.clear();
      this.map.set(agent, selection);
    }
    return selection;
  }
}
