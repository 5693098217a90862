// The wasm-opt passes of the release build (scripts/build-pkg.mjs), which
// bench/js/cold-functions.mjs runs again to make a twin of the module that keeps its names.
// ROBOTS_EVAL_WASM_OPT="-Oz --converge" (say) to compare others; see docs/performance.md ("Size").
//
// -O3: on rustc's opt-level=s output it has been as small as -Oz --converge or smaller (45,168 vs
// 45,200 B gzip; with an earlier core 44.9 vs 46.5 KB and parse large.txt 0.84 vs 1.27 ms), never
// slower.
// --one-caller-inline-max-function-size 0: binaryen's default inlines every function that has one
// caller, whatever rustc decided, so code kept out of line in Rust (`#[cold] #[inline(never)]`:
// the rare directives, dialects and findings) came back into the functions every parse and query
// compiles first (V8 compiles a function on its first call: docs/performance.md, "Cold start").
// The inlining is left to rustc, which knows what is cold; binaryen still inlines tiny functions.
export function wasmOptPasses() {
  return (process.env.ROBOTS_EVAL_WASM_OPT ?? '-O3 --one-caller-inline-max-function-size 0').split(' ');
}
