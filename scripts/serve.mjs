#!/usr/bin/env node
// The playground's static server and its build step.
//
//   node scripts/serve.mjs                 build what is missing or stale, then serve www/ at http://127.0.0.1:PORT/
//   node scripts/serve.mjs --build-only    only build: pkg/ (npm run build) and www/vendor/ (copied from pkg/)
//   node scripts/serve.mjs --build-only --out DIR   ... and copy the deployable site (www/ + vendor) to DIR
//   options: --port N (default $PORT or 8080; a busy port falls back to a free one), --host H (default 127.0.0.1),
//            --no-build (serve www/ as it is), --quiet
//
// www/ needs nothing from outside itself at run time: the package's browser build is copied into
// www/vendor/robots-eval/ (gitignored) and www/vendor/robots-eval.js re-exports it, so the folder
// works from any static host, under any sub-path.

import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WWW = join(ROOT, 'www');
const PKG = join(ROOT, 'pkg');
const VENDOR = join(WWW, 'vendor');

function parseArgs(argv) {
  const o = { port: process.env.PORT ? Number(process.env.PORT) : 8080, host: '127.0.0.1', build: true, buildOnly: false, out: null, quiet: false, strictPort: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') { o.port = Number(argv[++i]); o.strictPort = true; }
    else if (a === '--host') o.host = argv[++i];
    else if (a === '--no-build') o.build = false;
    else if (a === '--build-only') o.buildOnly = true;
    else if (a === '--out') o.out = resolve(argv[++i]);
    else if (a === '--quiet') o.quiet = true;
    else if (a === '-h' || a === '--help') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 12).join('\n'));
      process.exit(0);
    } else {
      console.error(`serve.mjs: unknown argument ${a}`);
      process.exit(2);
    }
  }
  return o;
}

/** Newest modification time of the files under the given paths (missing paths are skipped). */
function newest(paths, skip = () => false) {
  let t = 0;
  const walk = (p) => {
    if (!existsSync(p) || skip(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
    else t = Math.max(t, s.mtimeMs);
  };
  for (const p of paths) walk(p);
  return t;
}

const SOURCES = ['src', 'wasm/src', 'wasm/Cargo.toml', 'wasm-rich/src', 'wasm-rich/Cargo.toml', 'wasm-ai/src', 'wasm-ai/Cargo.toml', 'wasm-policy/src', 'wasm-policy/Cargo.toml', 'wasm-boundary/src', 'js', 'Cargo.toml', 'Cargo.lock', 'scripts/build-pkg.mjs', 'scripts/wasm-opt-passes.mjs', 'scripts/wasm-reader.mjs'].map((p) => join(ROOT, p));
const isReadme = (p) => /README\.md$/i.test(p);

/** The package's browser entry, relative to pkg/ (from the root package.json's exports). */
function pkgEntry() {
  let entry = null;
  try {
    const pj = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const dot = pj.exports?.['.'] ?? pj.exports;
    const pick = (x) => {
      if (typeof x === 'string') return x;
      if (!x || typeof x !== 'object') return null;
      for (const k of ['browser', 'import', 'module', 'default']) {
        const v = pick(x[k]);
        if (v) return v;
      }
      return null;
    };
    entry = pick(dot) ?? pj.module ?? null;
    if (entry) entry = entry.replace(/^\.\//, '').replace(/^pkg\//, '');
  } catch { /* fall back to the usual name */ }
  for (const guess of [entry, 'index.js']) {
    if (guess && !guess.endsWith('.cjs') && existsSync(join(PKG, guess))) return guess;
  }
  return null;
}

/**
 * The build's tools (the npm packages, the wasm32 targets, wasm-bindgen-cli), installed by
 * scripts/setup.sh, which skips what is there: a fresh clone's `npm start` needs no other step.
 * Chromium and Java are for the tests only.
 */
function ensureTools({ quiet }) {
  const r = spawnSync('bash', [join(ROOT, 'scripts', 'setup.sh')], {
    cwd: ROOT,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: { ...process.env, SKIP_CHROMIUM: '1', SKIP_JAVA: '1' },
  });
  if (r.status !== 0) throw new Error(`scripts/setup.sh failed (exit ${r.status})`);
}

function ensurePkg({ quiet }) {
  const have = existsSync(PKG) && pkgEntry() !== null;
  const stale = have && newest(SOURCES) > newest([PKG], isReadme);
  if (have && !stale) return;
  ensureTools({ quiet });
  const pj = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (!pj.scripts?.build) {
    if (have) return; // stale but no way to rebuild: use what is there
    throw new Error('pkg/ is missing and package.json has no "build" script to make it');
  }
  if (!quiet) console.error(`serve.mjs: ${have ? 'pkg/ is older than its sources' : 'pkg/ is missing'}; running npm run build`);
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status})`);
  if (pkgEntry() === null) throw new Error('npm run build did not produce a JavaScript entry in pkg/');
}

/** Copy the package's browser build into www/vendor/ and write the one-line re-export the page imports. */
function populateVendor() {
  const entry = pkgEntry();
  if (!entry) throw new Error('no package entry in pkg/');
  const dest = join(VENDOR, 'robots-eval');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  // Only what a browser loads: the browser entry, which carries every .wasm module inside it
  // (as text: js/wasm-text.js) and imports nothing else.
  cpSync(join(PKG, entry), join(dest, entry));
  // The coverage chart's sitemap reader is the npm command's own (js/sitemap.js with its XML
  // parser, sax), bundled into one module for the page (the coverage itself is the core's,
  // robots.coverage).
  const tools = spawnSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), ['--bundle', '--format=esm', '--platform=browser', '--target=es2022',
    '--minify', '--legal-comments=inline', '--sourcefile=tools.js', `--outfile=${join(VENDOR, 'tools.js')}`, '--log-level=warning'],
  { cwd: join(ROOT, 'js'), input: "export * from './sitemap.js';\n", stdio: ['pipe', 'inherit', 'inherit'] });
  if (tools.status !== 0) throw new Error(`esbuild failed to bundle www/vendor/tools.js (exit ${tools.status})`);
  const pj = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(VENDOR, 'robots-eval.js'),
    `// Generated by scripts/serve.mjs from pkg/ (the npm package build). Do not edit.\n` +
    `export * from './robots-eval/${entry}';\n` +
    // The playground explains, lints and reads records: Robots' rich calls ('robots-eval/rich').
    `import { installRich } from './robots-eval/${entry}';\ninstallRich();\n` +
    `export const version = ${JSON.stringify(pj.version ?? '')};\n`);
  return entry;
}

export function buildWww({ quiet = false, build = true } = {}) {
  if (build) ensurePkg({ quiet });
  // A pkg/ made elsewhere still needs esbuild here, for the page's sitemap reader.
  if (!existsSync(join(ROOT, 'node_modules', '.bin', 'esbuild'))) ensureTools({ quiet });
  const entry = populateVendor();
  if (!quiet) console.error(`serve.mjs: www/vendor/robots-eval/ <- pkg/ (entry ${entry})`);
}

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.ico': 'image/x-icon', '.map': 'application/json; charset=utf-8',
};

export function startServer({ port = 0, host = '127.0.0.1', root = WWW, strictPort = false } = {}) {
  const server = createServer((req, res) => {
    const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400, headers).end('bad request');
      return;
    }
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403, headers).end('forbidden');
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { ...headers, Location: `${path}/` }).end();
        return;
      }
      file = join(file, 'index.html');
    }
    if (!existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolveP, reject) => {
    const tryListen = (p, fallback) => {
      server.once('error', (e) => {
        if (fallback && e.code === 'EADDRINUSE') tryListen(0, false);
        else reject(e);
      });
      server.listen(p, host, () => {
        server.removeAllListeners('error');
        const a = server.address();
        resolveP({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${a.port}/` });
      });
    };
    tryListen(port, !strictPort && port !== 0);
  });
}

async function cli() {
  const o = parseArgs(process.argv.slice(2));
  try {
    buildWww({ quiet: o.quiet, build: o.build });
  } catch (e) {
    console.error(`serve.mjs: ${e.message}`);
    process.exit(1);
  }
  if (o.out) {
    rmSync(o.out, { recursive: true, force: true });
    cpSync(WWW, o.out, { recursive: true });
    console.error(`serve.mjs: deployable site written to ${relative(process.cwd(), o.out) || '.'}`);
  }
  if (o.buildOnly) return;
  const { url } = await startServer({ port: o.port, host: o.host, strictPort: o.strictPort });
  console.log(`robots-eval playground: ${url}`);
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) cli();
