// Node itself (the exports map's `node` condition): each .wasm is read from its file beside the
// package's JavaScript on first use, instead of travelling inside it as text. Node then neither
// scans the modules' text when it loads the package nor decodes it: the cold start is
// about a millisecond shorter.
//
// Bundlers never come here: the exports map lists `module` (which esbuild, webpack, Rollup, Vite
// and Parcel match, and Node does not) before `node`, so a bundle embeds the .wasm
// (load-embedded.js) and needs no file beside it. A bundle made with custom conditions that leave
// out `module` can still land here; the Error below then says what to do.

import { AI_WASM_LENGTH, POLICY_WASM_LENGTH, RICH_WASM_LENGTH, ROBOTS_WASM_LENGTH } from './wasm-lengths.js';

/**
 * The module in `file` (beside this script), compiled; `length`: its size as built.
 *
 * Read as cheaply as a cold start allows (docs/performance.md, "Cold start"): from a path, not a
 * URL (`new URL` and a read through one cost the first call 0.13 ms more), and with open + read +
 * close into a buffer of the length the build wrote (readFileSync's fstat costs the first call
 * 0.1 ms). The length doubles as a check that the file is the one this package was built with.
 */
function load(file, length) {
  if (typeof process.getBuiltinModule !== 'function') {
    throw new Error(`robots-eval: Node ${process.version} is too old; it needs Node 20.16 or 22.3 or later (process.getBuiltinModule)`);
  }
  // import.meta.dirname: Node 20.11. In pkg/node.cjs it is __dirname (scripts/build-pkg.mjs).
  const path = `${import.meta.dirname}/${file}`;
  // One byte more than the length, to tell a longer file.
  const bytes = new Uint8Array(length + 1);
  let read = 0;
  try {
    // process.getBuiltinModule (Node 20.16, 22.3): a static `import 'node:fs'` would cost the load
    // 0.7 ms, for Node's ES module loader to wrap the builtin as a module.
    const fs = process.getBuiltinModule('node:fs');
    const fd = fs.openSync(path, 'r');
    try {
      let n;
      do {
        n = fs.readSync(fd, bytes, read, bytes.length - read, read);
        read += n;
      } while (n > 0 && read < bytes.length);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new Error(`robots-eval: cannot read ${path} (${e.code ?? e.message}). Node loads the .wasm from beside the package's JavaScript; a bundle must resolve robots-eval with the 'module' condition (bundlers do by default), which embeds the .wasm.`, { cause: e });
  }
  if (read !== length) {
    throw new Error(`robots-eval: ${path} is ${read > length ? 'longer than' : `${read} bytes, not`} the ${length} bytes this package was built with; reinstall robots-eval (its JavaScript and .wasm files must come from the same build)`);
  }
  return new WebAssembly.Module(bytes.subarray(0, length));
}

/** The verdict module (wasm/). */
export function loadModule() {
  return load('robots_eval_bg.wasm', ROBOTS_WASM_LENGTH);
}

/**
 * The JavaScript glue of a wasm-bindgen module (the rich and AI-use ones), required from the file beside this
 * one on first use (scripts/build-pkg.mjs writes it as CommonJS): the import of the package then
 * reads that much less JavaScript, which a program that never explains would only parse.
 */
function glue(file) {
  return process.getBuiltinModule('node:module').createRequire(`${import.meta.dirname}/`)(`./${file}`).createBindings;
}
export const loadRichGlue = () => glue('rich-glue.cjs');

/** The policy module (wasm-policy/). */
export function loadPolicyModule() {
  return load('robots_eval_policy_bg.wasm', POLICY_WASM_LENGTH);
}

/** The rich module (wasm-rich/). */
export function loadRichModule() {
  return load('robots_eval_rich_bg.wasm', RICH_WASM_LENGTH);
}

/** The JavaScript glue of the AI-use module, required on the first aiUse as the rich module's. */
export const loadAiGlue = () => glue('ai-glue.cjs');

/** The AI-use module (wasm-ai/). */
export function loadAiModule() {
  return load('robots_eval_ai_bg.wasm', AI_WASM_LENGTH);
}
