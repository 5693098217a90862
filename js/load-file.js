// Node itself (the exports map's `node` condition): each .wasm is read from its file beside the
// package's JavaScript on first use, instead of travelling inside it as base64. Node then neither
// scans 133 KB of string literal when it loads the package nor decodes it: the cold start is
// about a millisecond shorter.
//
// Bundlers never come here: the exports map lists `module` (which esbuild, webpack, Rollup, Vite
// and Parcel match, and Node does not) before `node`, so a bundle embeds the .wasm
// (load-embedded.js) and needs no file beside it. A bundle made with custom conditions that leave
// out `module` can still land here; the Error below then says what to do.

/** The module in `file` (beside this script), compiled. */
function load(file) {
  if (typeof process.getBuiltinModule !== 'function') {
    throw new Error(`robots-eval: Node ${process.version} is too old; it needs Node 20.16 or 22.3 or later (process.getBuiltinModule)`);
  }
  // In pkg/node.cjs, import.meta.url is the file's URL made from __filename (scripts/build-pkg.mjs).
  const url = new URL(file, import.meta.url);
  let bytes;
  try {
    // process.getBuiltinModule (Node 20.16, 22.3): a static `import 'node:fs'` would cost the load
    // 0.7 ms, for Node's ES module loader to wrap the builtin as a module.
    bytes = process.getBuiltinModule('node:fs').readFileSync(url);
  } catch (e) {
    throw new Error(`robots-eval: cannot read ${url.href} (${e.code ?? e.message}). Node loads the .wasm from beside the package's JavaScript; a bundle must resolve robots-eval with the 'module' condition (bundlers do by default), which embeds the .wasm.`, { cause: e });
  }
  return new WebAssembly.Module(bytes);
}

/** The robots.txt module (wasm/). */
export function loadModule() {
  return load('./robots_eval_bg.wasm');
}

/** The page-level rules module (wasm-page/). */
export function loadPageModule() {
  return load('./robots_eval_page_bg.wasm');
}
