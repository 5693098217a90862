// The app the size budget is about: a browser app that only parses a robots.txt and asks
// isAllowed, as a crawler extension or an edge function would, from the 'robots-eval/verdict'
// entry, bundled and minified with esbuild for the browser. Shared by tests/js/bundle-split.test.mjs
// (which fails past BUDGET) and bench/js/bench.mjs (which prints its bytes beside Google's build).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Bytes of gzip (level 9) the bundle may take: issue 23's target (Google's module and glue: about 21 KB). */
export const BUDGET = 32 * 1024;

export const PARSE_ALLOWED_APP = `import { Robots } from 'robots-eval/verdict';

export function mayFetch(robotsTxt, url, agent) {
  const robots = Robots.parse(robotsTxt);
  try {
    return robots.isAllowed(url, agent);
  } finally {
    robots.free();
  }
}
`;

/**
 * Bundles the app in `dir` (where 'robots-eval' resolves) with `esbuild`: its text and gzip size.
 */
export function appBundleBytes(dir, esbuild) {
  writeFileSync(join(dir, 'parse-allowed-app.mjs'), PARSE_ALLOWED_APP);
  const out = resolve(dir, 'parse-allowed-app.bundle.js');
  execFileSync(esbuild, ['parse-allowed-app.mjs', '--bundle', '--format=esm', '--platform=browser', '--minify', `--outfile=${out}`, '--log-level=warning'], { cwd: dir });
  const text = readFileSync(out, 'utf8');
  return { text, gzip: gzipSync(text, { level: 9 }).length };
}
