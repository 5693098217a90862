// The app the size budget is about: a browser app that only parses a robots.txt and asks
// isAllowed, as a crawler extension or an edge function would, bundled and minified with esbuild
// for the browser, importing Robots from the main entry ('robots-eval', as the README's first
// line does) or from 'robots-eval/verdict'. Shared by scripts/build-pkg.mjs (which fails the build
// past BUDGET), tests/js/bundle-split.test.mjs (the same with every bundler) and
// bench/js/bench.mjs (which prints its bytes beside Google's build).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Bytes of gzip (level 9) the bundle may take: 27,000 B, issue 32's "27 KB" in bytes (kB = 1000 B,
 * as the issue measured its "30.5"); Google's module and glue take about 20,800 B.
 */
export const BUDGET = 27_000;

/** The entries the app is bundled from, each held to BUDGET. */
export const APP_ENTRIES = ['robots-eval', 'robots-eval/verdict'];

/** The app's source, importing Robots from `entry`. */
export const parseAllowedApp = (entry = 'robots-eval') => `import { Robots } from '${entry}';

export function mayFetch(robotsTxt, url, agent) {
  const robots = Robots.parse(robotsTxt);
  try {
    return robots.isAllowed(url, agent);
  } finally {
    robots.free();
  }
}
`;

export const PARSE_ALLOWED_APP = parseAllowedApp();

/**
 * Bundles the app in `dir` (where 'robots-eval' resolves) with `esbuild`, importing from `entry`:
 * its text and gzip size (the bundle is `dir`/parse-allowed-app.bundle.js).
 */
export function appBundleBytes(dir, esbuild, entry = 'robots-eval', extra = []) {
  writeFileSync(join(dir, 'parse-allowed-app.mjs'), parseAllowedApp(entry));
  const out = resolve(dir, 'parse-allowed-app.bundle.js');
  execFileSync(esbuild, ['parse-allowed-app.mjs', '--bundle', '--format=esm', '--platform=browser', '--minify', `--outfile=${out}`, '--log-level=warning', ...extra], { cwd: dir });
  const text = readFileSync(out, 'utf8');
  return { text, gzip: gzipSync(text, { level: 9 }).length };
}
