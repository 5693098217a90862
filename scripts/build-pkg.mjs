#!/usr/bin/env node
// Builds the npm package into pkg/: the core compiled to four wasm modules (wasm/: the verdict
// module, every user's; wasm-policy/: the fetch policy; wasm-rich/: explanations, lint, records,
// AI preferences, META tags and X-Robots-Tag; wasm-ai/: AI use; the last three compiled by the
// package on first use), the wasm-bindgen modules' `--target web` glue turned into a factory (so a
// trapped instance can be replaced), wasm-opt -O3 (scripts/wasm-opt-passes.mjs; npm binaryen, never Debian's), the
// numbers-only modules' checks (no imports, one result per export), the core's names and the
// boundary's numbers read from the rich module, the hand-written wrapper from js/ (minified:
// whitespace and syntax) for each entry ('robots-eval', 'robots-eval/verdict', 'robots-eval/rich')
// and runtime, CommonJS builds, types, and the budgets: each module's gzip, and the parse +
// isAllowed app's (tests/js/bundle-app.mjs).
//
//   node scripts/build-pkg.mjs           release build (what is published)
//   node scripts/build-pkg.mjs --debug   debug build: std (+ console_error_panic_hook in the rich and AI-use modules), no wasm-opt

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { wasmOptPasses } from './wasm-opt-passes.mjs';
import { forEachSection, wasmReader } from './wasm-reader.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const debug = process.argv.includes('--debug');
const pkg = join(root, 'pkg');
const tmp = join(root, 'target', 'wasm-pkg');

function run(cmd, args, env = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
}

// The four modules (docs/architecture.md, "The wasm boundary: four modules"): the verdict module
// (wasm/: parse and every per-URL answer), which every user compiles on the first parse, the
// policy module (wasm-policy/: the fetch policy, on the first fetchRobots), the rich module
// (wasm-rich/: explanations, diagnostics, records, AI preferences, META tags and X-Robots-Tag) and
// the AI-use module (wasm-ai/: aiUse), each compiled only when first asked. Each has its own gzip
// budget. `hot`: a numbers-only module (plain exports, no wasm-bindgen; no imports and one result
// per export: step 5); `glue`: a wasm-bindgen module's glue, as the stage names it.
// `buildOnly`: exports asked at build time only (step 6), dropped from the shipped module.
// `lengthName`: the constant that gives js/load-file.js the module's byte length (step 7).
// `optLevel`: rustc's opt-level for the module (ROBOTS_EVAL_OPT_LEVEL overrides it for all).
// The rich and AI-use modules' is `z`: 3.6 and 3.0 KB gzip smaller than `s`, their first explain
// and aiUse within the noise (bench/js/rich-first-call.mjs); in steady state the rich module's
// parse + diagnostics is about a fifth slower, its other calls within the noise
// (bench/js/structured.mjs).
// Budgets: bytes of gzip (the wasm-bindgen modules' as issue 32 states them, 1 KB = 1000 B). The
// AI-use resolver (tdmrep.json through serde_json, the trace and its notes, the operator table)
// was about 42 KB of the rich module's gzip: a module of its own since, compiled on the first
// aiUse only, so that neither is over 80,000 B.
const MODULES = [
  { crate: 'robots-eval-wasm', name: 'robots_eval', glue: null, embedded: 'wasm-embedded.js', lengthName: 'ROBOTS_WASM_LENGTH', optLevel: 's', budget: 30 * 1024, hot: true, buildOnly: [] },
  { crate: 'robots-eval-policy-wasm', name: 'robots_eval_policy', glue: null, embedded: 'policy-embedded.js', lengthName: 'POLICY_WASM_LENGTH', optLevel: 's', budget: 10 * 1024, hot: true, buildOnly: [] },
  { crate: 'robots-eval-rich-wasm', name: 'robots_eval_rich', glue: 'rich-glue.js', embedded: 'rich-embedded.js', lengthName: 'RICH_WASM_LENGTH', optLevel: 'z', budget: 80_000, hot: false, buildOnly: ['names'] },
  { crate: 'robots-eval-ai-wasm', name: 'robots_eval_ai', glue: 'ai-glue.js', embedded: 'ai-embedded.js', lengthName: 'AI_WASM_LENGTH', optLevel: 'z', budget: 80_000, hot: false, buildOnly: [] },
];

// 1. The core + bindings, for wasm32, one cargo run per module: in one run cargo would unify the
//    core's features, and the verdict module would carry the rich module's (`aipref`).
//    strip=false keeps the target_features section that wasm-bindgen and wasm-opt read; wasm-opt
//    strips everything at the end.
// The opt-level: see docs/performance.md ("Size") for the measurements behind the default.
for (const m of MODULES) {
  const optLevel = process.env.ROBOTS_EVAL_OPT_LEVEL ?? m.optLevel;
  const cargoArgs = ['build', '--target', 'wasm32-unknown-unknown', '-p', m.crate, '--locked'];
  if (debug) cargoArgs.push('--features', `${m.crate}/debug`);
  else cargoArgs.push('--release');
  run('cargo', cargoArgs, debug ? {} : { CARGO_PROFILE_RELEASE_STRIP: 'false', CARGO_PROFILE_RELEASE_OPT_LEVEL: optLevel });
}

// 2. Fresh pkg/ (README.md is hand-written and kept), and the stage the bundles are made from.
rmSync(tmp, { recursive: true, force: true });
mkdirSync(pkg, { recursive: true });
for (const f of readdirSync(pkg)) if (f !== 'README.md') rmSync(join(pkg, f), { recursive: true, force: true });
const stage = join(tmp, 'stage');
mkdirSync(stage, { recursive: true });

/**
 * Steps 3-5 for one module: the optimised .wasm in pkg/, a wasm-bindgen module's glue as a factory
 * in the stage, the checks. Returns the .wasm's bytes and, for a wasm-bindgen module's release build, the
 * module as wasm-bindgen made it (before the build-only exports were dropped).
 */
function buildModule({ crate, name, glue: glueFile, buildOnly, hot }) {
  const built = join(root, 'target', 'wasm32-unknown-unknown', debug ? 'debug' : 'release', `${crate.replaceAll('-', '_')}.wasm`);
  const out = join(tmp, name);
  const wasmOut = join(pkg, `${name}_bg.wasm`);
  const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
  const strip = ['--strip-debug', '--strip-producers', '--strip-target-features'];
  let asBuilt = null;

  if (hot) {
    // 3. The numbers-only modules (wasm/, wasm-policy/) are plain exports of numbers, with no
    //    wasm-bindgen and no glue: js/engine.js instantiates them with no imports and calls their
    //    exports directly (docs/architecture.md, "Plain exports"). -O3, with rustc's inlining
    //    kept: see scripts/wasm-opt-passes.mjs.
    if (debug) copyFileSync(built, wasmOut);
    else run(wasmOpt, [built, ...wasmOptPasses(), ...strip, '-o', wasmOut]);
  } else {
    // 3. The rich and AI-use modules: wasm-bindgen's JS glue (its imports are real:
    //    serde-wasm-bindgen builds JS objects), and the optimised .wasm.
    run('wasm-bindgen', ['--target', 'web', '--out-dir', out, '--out-name', name, built, ...(debug ? ['--debug', '--keep-debug'] : [])]);
    const bindgenOut = join(out, `${name}_bg.wasm`);
    if (debug) {
      copyFileSync(bindgenOut, wasmOut);
    } else {
      // Its build-only exports (names, step 6) are asked of the module as wasm-bindgen made it,
      // and dropped from the shipped one.
      asBuilt = readFileSync(bindgenOut);
      let shipped = asBuilt;
      for (const exportName of buildOnly) {
        shipped = dropExport(shipped, exportName, null);
        if (shipped === null) throw new Error(`unexpected wasm-bindgen output (no ${exportName} export): update build-pkg.mjs`);
      }
      writeFileSync(bindgenOut, shipped);
      run(wasmOpt, [bindgenOut, ...wasmOptPasses(), ...strip, '-o', wasmOut]);
    }

    // 4. wasm-bindgen's glue keeps its instance in module-level variables and can be initialised
    //    only once. Wrapping it in a factory lets js/engine.js build a fresh instance after a trap.
    //    The async init (fetch + import.meta.url) is dropped: initialisation is always synchronous.
    let glue = readFileSync(join(out, `${name}.js`), 'utf8');
    const asyncStart = glue.indexOf('async function __wbg_load(');
    const syncStart = glue.indexOf('function initSync(');
    const initEnd = glue.indexOf('let __wbg_init_promise;');
    if (asyncStart < 0 || syncStart < asyncStart || initEnd < syncStart) throw new Error('unexpected wasm-bindgen glue layout: update build-pkg.mjs');
    const exported = [...glue.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]);
    glue = glue.slice(0, asyncStart) + glue.slice(syncStart, initEnd);
    glue = glue.replace(/^export (class|function) /gm, '$1 ').replace(/^\/\* @ts-self-types=.*\n/m, '');
    if (/import\.meta|^export /m.test(glue)) throw new Error('unexpected wasm-bindgen glue layout: update build-pkg.mjs');
    glue = `// Generated by scripts/build-pkg.mjs from wasm-bindgen ${execFileSync('wasm-bindgen', ['--version']).toString().trim()} --target web output.\n` +
      `export function createBindings() {\n${glue}\nreturn { ${[...exported, 'initSync'].join(', ')} };\n}\n`;
    writeFileSync(join(stage, glueFile), glue);
  }
  const wasm = readFileSync(wasmOut);

  // 5. The module's checks. Every export of a numbers-only release module returns at most one
  //    value: V8 compiles an optimised JS-to-wasm wrapper, when the module is compiled, for each
  //    export signature that returns more, and five of them doubled `new WebAssembly.Module`;
  //    numbers-only exports share the generic wrapper. And it imports nothing (each import costs
  //    a wasm-to-JS wrapper compiled with TurboFan).
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(wasm)).map((i) => i.name);
  console.log(`${name}_bg.wasm imports: ${hot ? imports.join(', ') || 'nothing' : imports.length}`);
  if (!debug && hot) {
    const multiValue = multiValueExports(wasm);
    if (multiValue.length > 0) throw new Error(`these exports of ${name}_bg.wasm return more than one value: ${multiValue.join(', ')}`);
    if (imports.length > 0) throw new Error(`${name}_bg.wasm imports ${imports.join(', ')}: it should import nothing`);
  }
  return { wasm, asBuilt };
}

const built = MODULES.map(buildModule);

// 6. The core's names of dialects and reasons (wasm-rich/src/lib.rs, names), read once here
//    through the glue and written into the JavaScript: the wrapper's lookup tables stay defined in
//    the core alone, and no run of the package pays for asking.
const rich = MODULES.findIndex((m) => m.buildOnly.includes('names'));
const { createBindings } = await import(pathToFileURL(join(stage, MODULES[rich].glue)).href);
const bindings = createBindings();
bindings.initSync({ module: new WebAssembly.Module(built[rich].asBuilt ?? built[rich].wasm) });
const { dialects, reasons, protocol } = bindings.names();
// js/robots.js passes index 0 when no dialect is given: the default must come first.
if (dialects?.[0] !== 'rfc9309' || reasons?.length !== 5) throw new Error(`unexpected names from the module: ${JSON.stringify({ dialects, reasons })}`);
writeFileSync(join(stage, 'names.js'), `// Generated by scripts/build-pkg.mjs from the rich module's names() (wasm-rich/src/lib.rs).\nexport default ${JSON.stringify({ dialects, reasons })};\n`);
// The numbers of the numbers-only modules' protocol (wasm-boundary/src/lib.rs, PROTOCOL), one
// constant each (esbuild writes their values where they are used).
if (!Array.isArray(protocol) || !protocol.some(([n]) => n === 'NONE')) throw new Error(`unexpected protocol from the module: ${JSON.stringify(protocol)}`);
writeFileSync(join(stage, 'protocol.js'), `// Generated by scripts/build-pkg.mjs from robots-eval-boundary's PROTOCOL (wasm-boundary/src/lib.rs), through the rich module's names().\n${protocol.map(([n, v]) => `export const ${n} = ${v};\n`).join('')}`);

/** An unsigned LEB128's bytes. */
function lebBytes(n) {
  const out = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}

/**
 * The module without the export `name`, which must be the imported function `importName`; null
 * when the module has no such export.
 */
function dropExport(bytes, name, importName) {
  const r = wasmReader(bytes);
  const importedFunctions = [];
  const parts = [bytes.subarray(0, 8)];
  let dropped = false;
  while (r.at < bytes.length) {
    const start = r.at;
    const id = bytes[r.at++];
    const end = r.leb() + r.at;
    if (id === 2) {
      for (let n = r.leb(), i = 0; i < n; i++) {
        r.name();
        const field = r.name();
        const kind = bytes[r.at++];
        if (kind === 0) {
          importedFunctions.push(field);
          r.leb();
        } else r.skipImport(kind);
      }
    }
    if (id !== 7) {
      parts.push(bytes.subarray(start, end));
      r.at = end;
      continue;
    }
    const kept = [];
    for (let n = r.leb(), i = 0; i < n; i++) {
      const at = r.at;
      const exportName = r.name();
      const kind = bytes[r.at++];
      const index = r.leb();
      // importName: the export must be that import's re-export; null: any function of that name.
      if (exportName === name && kind === 0 && (importName === null || importedFunctions[index] === importName)) dropped = true;
      else kept.push(bytes.subarray(at, r.at));
    }
    const body = Buffer.concat([Buffer.from(lebBytes(kept.length)), ...kept]);
    parts.push(Buffer.from([7, ...lebBytes(body.length)]), body);
    r.at = end;
  }
  return dropped ? Buffer.concat(parts) : null;
}

/** The exported functions whose type returns more than one value. */
function multiValueExports(bytes) {
  const results = []; // result count by type index
  const funcTypes = []; // type index by function index (imports first)
  const bad = [];
  forEachSection(bytes, (id, r) => {
    if (id === 1) {
      for (let n = r.leb(), i = 0; i < n; i++) {
        r.at++; // 0x60
        const params = r.leb();
        r.at += params; // one byte each
        const count = r.leb();
        r.at += count;
        results.push(count);
      }
    } else if (id === 2) {
      for (let n = r.leb(), i = 0; i < n; i++) {
        r.name();
        r.name();
        const kind = bytes[r.at++];
        if (kind === 0) funcTypes.push(r.leb());
        else r.skipImport(kind);
      }
    } else if (id === 3) {
      for (let n = r.leb(), i = 0; i < n; i++) funcTypes.push(r.leb());
    } else if (id === 7) {
      for (let n = r.leb(), i = 0; i < n; i++) {
        const name = r.name();
        const kind = bytes[r.at++];
        const index = r.leb();
        if (kind === 0 && results[funcTypes[index]] > 1) bad.push(name);
      }
    }
  });
  return bad;
}

// 7. The wrapper and its entry (js/), the embedded wasm, types. The entry is bundled once for each
//    way of obtaining the compiled module (js/load-*.js, copied to load.js before each bundle),
//    into one file each: one module to load instead of five is a measurable part of the cold start.
// (Every .js of js/ but the loaders, copied to load.js for each bundle below.)
for (const f of readdirSync(join(root, 'js'))) if (f.endsWith('.js') && !f.startsWith('load-')) copyFileSync(join(root, 'js', f), join(stage, f));
// The embedded builds carry each .wasm as text (js/wasm-text.js), decoded by js/wasm-text.wat,
// whose bytes js/wasm-text.js holds: checked against wasm-as's.
const { encodeWasmText, decodeWasmText } = await import(pathToFileURL(join(root, 'js', 'wasm-text.js')).href);
{
  const assembled = join(tmp, 'wasm-text.wasm');
  run(join(root, 'node_modules', '.bin', 'wasm-as'), [join(root, 'js', 'wasm-text.wat'), '-o', assembled]);
  const held = readFileSync(join(root, 'js', 'wasm-text.js'), 'utf8').match(/const DECODER = Uint8Array\.of\(([^)]*)\)/)?.[1];
  const want = [...readFileSync(assembled)].join(', ');
  if (held?.replace(/\s+/g, ' ') !== want) throw new Error(`js/wasm-text.js does not hold js/wasm-text.wat's bytes; put these in DECODER:\n${want}`);
}
MODULES.forEach((m, i) => {
  const { wasm } = built[i];
  const { text, order } = encodeWasmText(wasm);
  if (Buffer.compare(Buffer.from(decodeWasmText(text, order, wasm.length)), wasm) !== 0) throw new Error(`js/wasm-text.js does not give ${m.name}_bg.wasm back`);
  writeFileSync(join(stage, m.embedded), `// Generated by scripts/build-pkg.mjs: ${m.name}_bg.wasm as text (js/wasm-text.js).\nexport default { text: ${JSON.stringify(text)}, order: ${JSON.stringify(order)}, length: ${wasm.length} };\n`);
});
// load-file.js reads each .wasm with one read of its length (and checks it).
writeFileSync(join(stage, 'wasm-lengths.js'), `// Generated by scripts/build-pkg.mjs: the byte length of each .wasm.\n${MODULES.map((m, i) => `export const ${m.lengthName} = ${built[i].wasm.length};\n`).join('')}`);
copyFileSync(join(root, 'js', 'index.d.ts'), join(pkg, 'index.d.ts'));
copyFileSync(join(root, 'js', 'index.d.ts'), join(pkg, 'index.d.cts'));
for (const t of ['verdict', 'rich']) {
  copyFileSync(join(root, 'js', `${t}.d.ts`), join(pkg, `${t}.d.ts`));
  copyFileSync(join(root, 'js', `${t}.d.ts`), join(pkg, `${t}.d.cts`));
}
const esbuild = join(root, 'node_modules', '.bin', 'esbuild');
// The command (package.json "bin"): it imports the package by name (left external: the same
// module the library's users get); its sitemap reader's XML parser (saxes, a devDependency) is
// bundled in, so the package installs with no dependencies at all.
run(esbuild, [join(root, 'js', 'cli.mjs'), '--bundle', '--format=esm', '--platform=node', '--target=node20', '--external:robots-eval',
  '--legal-comments=inline', `--outfile=${join(pkg, 'cli.mjs')}`, '--log-level=warning']);
copyFileSync(join(root, 'js', 'cli-help.txt'), join(pkg, 'cli-help.txt'));
chmodSync(join(pkg, 'cli.mjs'), 0o755);
// Whitespace and syntax minified (names kept: stack traces still name the functions, and a test
// checks the class names): the loader reads and compiles a third less text. Lines are wrapped at
// 120 characters: Node prints the throwing source line above an uncaught error, and on one line
// that was the whole 6 KB wrapper (tests/js/bad-input.test.mjs checks the excerpt stays short).
// js/ is the source.
const bundle = (entry, load, out, format, extra = []) => {
  copyFileSync(join(root, 'js', `load-${load}.js`), join(stage, 'load.js'));
  run(esbuild, [join(stage, `${entry}.js`), '--bundle', `--format=${format}`, '--platform=neutral', '--target=es2022',
    '--external:*.wasm', '--external:node:*', '--legal-comments=none', '--minify-whitespace', '--minify-syntax', '--line-limit=120',
    `--outfile=${join(pkg, out)}`, '--log-level=warning', ...extra]);
  // --minify-whitespace drops the entries' /* @__PURE__ */ marks, and without them a bundler keeps
  // every part of the API (and its .wasm) that an app imports nothing of: put them back on the
  // entry's top-level calls (js/index.js, js/verdict.js).
  const file = join(pkg, out);
  let marked = 0;
  const text = readFileSync(file, 'utf8').replace(/((?:^|[\s,;])(?:var |let |const )?\w+=)(defineApi|defineFetch|defineFetchAiUse|defineRichMethods|defineRobotRules|defineEngine|member)\(/g, (_, head, fn) => {
    marked++;
    return `${head}/* @__PURE__ */ ${fn}(`;
  });
  // index.js and verdict.js make at least 4 (defineApi, defineFetch, defineRobotRules, member).
  if (['index', 'verdict'].includes(entry) && marked < 4) throw new Error(`${out}: ${marked} of the entry's pure calls found (4 or more expected): update build-pkg.mjs`);
  writeFileSync(file, text);
};
// The glue of the rich and AI-use modules, each compiled on first use, for Node's entries to require then (js/load-file.js).
for (const m of MODULES.filter((m) => m.glue !== null)) {
  run(esbuild, [join(stage, m.glue), '--bundle', '--format=cjs', '--platform=neutral', '--target=es2022', '--legal-comments=none',
    '--minify-whitespace', '--minify-syntax', '--line-limit=120', `--outfile=${join(pkg, m.glue.replace(/\.js$/, '.cjs'))}`, '--log-level=warning']);
}
// 8. For each entry ('robots-eval': index.js; 'robots-eval/verdict': verdict.js, the files named
//    verdict*), ES modules and CommonJS (require() needs no top-level await, and there is none).
for (const [entry, prefix] of [['index', ''], ['verdict', 'verdict-']]) {
  bundle(entry, 'embedded', `${entry}.js`, 'esm');
  bundle(entry, 'embedded', `${entry}.cjs`, 'cjs');
  bundle(entry, 'file', `${prefix}node.js`, 'esm');
  // The CommonJS build of load-file.js finds the .wasm beside itself through __dirname.
  bundle(entry, 'file', `${prefix}node.cjs`, 'cjs', ['--define:import.meta.dirname=__dirname']);
  bundle(entry, 'workerd', `${prefix}workerd.js`, 'esm');
}
// The entries that import the package by name (so they share the runtime's entry and instance),
// each bundled alone, in both formats: 'robots-eval/rich' (Robots' rich calls installed) and
// 'robots-eval/robots-parser' (in CommonJS require() returns the function itself, as robots-parser's).
const compatSizes = {};
for (const [source, name, cjsExtra] of [['rich-entry.js', 'rich', []],
  ['robots-parser.js', 'robots-parser', ['--footer:js=module.exports = module.exports.default;']]]) {
  for (const [out, format, extra] of [[`${name}.js`, 'esm', []], [`${name}.cjs`, 'cjs', cjsExtra]]) {
    run(esbuild, [join(root, 'js', source), '--bundle', `--format=${format}`, '--platform=neutral', '--target=es2022',
      '--external:robots-eval', '--legal-comments=none', '--minify-whitespace', '--minify-syntax', '--line-limit=120',
      `--outfile=${join(pkg, out)}`, '--log-level=warning', ...extra]);
    const code = readFileSync(join(pkg, out));
    compatSizes[out] = { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
    console.log(`${out}: ${code.length} B raw, ${compatSizes[out].gzip} B gzip (imports robots-eval)`);
  }
}
for (const f of ['robots-parser.d.ts', 'robots-parser.d.cts']) copyFileSync(join(root, 'js', f), join(pkg, f));

// 9. Sizes and the budgets.
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sizes = { debug, ...compatSizes };
let over = false;
MODULES.forEach((m, i) => {
  const { wasm } = built[i];
  const gzip = gzipSync(wasm, { level: 9 }).length;
  const brotli = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  sizes[`${m.name}_bg.wasm`] = { raw: wasm.length, gzip, brotli, budget: m.budget };
  console.log(`${m.name}_bg.wasm: ${wasm.length} B raw (${kb(wasm.length)}), ${gzip} B gzip (${kb(gzip)}), ${brotli} B brotli (${kb(brotli)}); budget ${m.budget} B gzip`);
  if (!debug && gzip > m.budget) {
    console.error(`FAIL: ${m.name}_bg.wasm is ${kb(gzip)} gzip (${gzip} B), over its ${m.budget} B budget`);
    over = true;
  }
});
// The app the budget is about (tests/js/bundle-app.mjs): parse + isAllowed, bundled for the
// browser by esbuild --minify, from the main entry and from 'robots-eval/verdict'; each within
// APP_BUDGET gzip, and without the rich or AI-use module. The package is reached through a link in a
// scratch node_modules (--preserve-symlinks: the entries that import 'robots-eval' by name find
// it there), as an app that installed it would.
{
  const { appBundleBytes, APP_ENTRIES, BUDGET: APP_BUDGET } = await import(pathToFileURL(join(root, 'tests', 'js', 'bundle-app.mjs')).href);
  const appDir = join(tmp, 'app');
  mkdirSync(join(appDir, 'node_modules'), { recursive: true });
  symlinkSync(root, join(appDir, 'node_modules', 'robots-eval'));
  const marker = (file) => {
    const { text } = encodeWasmText(readFileSync(join(pkg, file)));
    return text.slice(text.length >> 1, (text.length >> 1) + 64);
  };
  const lazy = [['the rich module', marker('robots_eval_rich_bg.wasm')], ['the AI-use module', marker('robots_eval_ai_bg.wasm')]];
  for (const entry of APP_ENTRIES) {
    const { text, gzip } = appBundleBytes(appDir, esbuild, entry, ['--preserve-symlinks']);
    sizes[`app (${entry})`] = { raw: text.length, gzip, budget: APP_BUDGET };
    console.log(`parse + isAllowed app from '${entry}' (esbuild --minify, browser): ${text.length} B raw, ${gzip} B gzip; budget ${APP_BUDGET} B gzip`);
    for (const [what, m] of lazy) {
      if (text.includes(m)) {
        console.error(`FAIL: the parse + isAllowed app from '${entry}' carries ${what}`);
        over = true;
      }
    }
    if (!debug && gzip > APP_BUDGET) {
      console.error(`FAIL: the parse + isAllowed app from '${entry}' is ${gzip} B gzip, over its ${APP_BUDGET} B budget`);
      over = true;
    }
  }
}
// The embedded entries as a page without a bundler downloads them (the modules inside).
for (const entry of ['index.js', 'verdict.js']) {
  const text = readFileSync(join(pkg, entry));
  const gzip = gzipSync(text, { level: 9 }).length;
  sizes[entry] = { raw: text.length, gzip };
  console.log(`${entry} (the modules inside, for a page without a bundler): ${text.length} B raw, ${gzip} B gzip`);
}
writeFileSync(join(pkg, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
if (over) process.exit(1);
