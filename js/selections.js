// A Robots object's cache of group selections by agent string (js/robots.js): repeated queries
// for an agent skip selection, the first step of every verdict (docs/architecture.md, "One
// isAllowed call"). The cache is a plain Map the class looks a hit up in itself (no call in
// between: a call per hit cost isAllowed 30-50 instructions); a miss comes here. Bounded: 256
// agents, each at most 1024 characters long.

/**
 * The packed selection (wasm/src/lib.rs, `selection`) of `agent`, not in `cache` yet, in the file
 * behind `handle` of the verdict engine `E` (js/engine.js); cached. `read`: how the agents are
 * read first (null: as given), set by js/robots-parser.js, whose agents are robots-parser's (cut
 * at `/`, trimmed, `*` for none): it runs once per agent, so a wrapper that reads agents its own
 * way pays nothing per query.
 */
export function addSelection(cache, E, handle, agent, read) {
  const selection = E.w.selection(handle, E.put(read === null ? agent : String(read(agent)), 0));
  if (agent.length <= 1024) {
    if (cache.size >= 256) cache.clear();
    cache.set(agent, selection);
  }
  return selection;
}
