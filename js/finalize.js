// Robots objects never freed are freed when collected, through the verdict instance's
// FinalizationRegistry (js/engine.js). Registering (and unregistering in free()) costs more than
// parsing a small file, and most files are freed soon after parsing: so a new object is only
// listed here, and registered when the current job ends (a microtask) or 64 objects are waiting,
// whichever comes first, if it is still live then. Until then the list keeps it reachable, so it
// cannot be missed.

// A microtask through a promise: Node's queueMicrotask adds async-hooks bookkeeping, and its first
// call costs a fifth of a millisecond of the cold start.
const resolved = Promise.resolve();

/**
 * `enlist(robots)` for the engine `E`. `claim(robots)`: the handle to register the object with,
 * marking it registered, or 0 when it is freed or its instance was dropped after a trap (that
 * instance's memory goes with it).
 */
export function defineFinalization(E, claim) {
  let pending = [];

  function register() {
    const list = pending;
    pending = [];
    for (const robots of list) {
      const handle = claim(robots);
      if (handle !== 0) E.registry.register(robots, handle, robots);
    }
  }

  return function enlist(robots) {
    if (pending.push(robots) === 1) resolved.then(register);
    else if (pending.length >= 64) register();
  };
}
