// The bundlers the README names, other than esbuild (tests/js/bundle-split.test.mjs), each through
// its own JavaScript API with its defaults for a browser build and minification: the text of the
// bundle they make of `source` (an ES module importing 'robots-eval...'), written in `here`, where
// the package is installed. `repo`: the repository, whose node_modules has the bundlers.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bundle's JavaScript, all chunks together. */
function readAll(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => (f.endsWith('.js') || f.endsWith('.mjs')) && !f.startsWith('.cache'))
    .map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
}

const importFrom = (repo, name) => import(pathToFileURL(createRequire(join(repo, 'package.json')).resolve(name)).href);

export async function bundleWith(name, repo, here, source) {
  const entry = join(here, `${name}-app.mjs`);
  writeFileSync(entry, source);
  const out = join(here, `${name}-out`);
  mkdirSync(out, { recursive: true });
  if (name === 'rollup') {
    const { rollup } = await importFrom(repo, 'rollup');
    const { nodeResolve } = await importFrom(repo, '@rollup/plugin-node-resolve');
    const { default: terser } = await importFrom(repo, '@rollup/plugin-terser');
    const bundle = await rollup({ input: entry, plugins: [nodeResolve({ browser: true, rootDir: here })] });
    await bundle.write({ dir: out, format: 'es', plugins: [terser()] });
    await bundle.close();
  } else if (name === 'webpack') {
    const { default: webpack } = await importFrom(repo, 'webpack');
    await new Promise((resolve, reject) => webpack({
      mode: 'production', target: 'web', entry, context: here, output: { path: out, filename: 'app.js', library: { type: 'module' } },
      resolve: { modules: [join(here, 'node_modules')] }, experiments: { outputModule: true }, performance: { hints: false },
    }, (err, stats) => (err || stats.hasErrors() ? reject(err ?? new Error(stats.toString('errors-only'))) : resolve())));
  } else if (name === 'vite') {
    const { build } = await importFrom(repo, 'vite');
    await build({
      root: here, logLevel: 'warn', configFile: false,
      build: { outDir: out, emptyOutDir: true, lib: { entry, formats: ['es'], fileName: 'app' }, minify: true },
    });
  } else if (name === 'parcel') {
    const { Parcel } = await importFrom(repo, '@parcel/core');
    const bundler = new Parcel({
      entries: entry, mode: 'production', logLevel: 'error', shouldDisableCache: true, cacheDir: join(out, '.cache'),
      defaultConfig: createRequire(join(repo, 'package.json')).resolve('@parcel/config-default'),
      defaultTargetOptions: { distDir: out, outputFormat: 'esmodule', isLibrary: true, shouldOptimize: true, engines: { browsers: ['last 1 Chrome version'] } },
    });
    await bundler.run();
  } else {
    throw new Error(`unknown bundler ${name}`);
  }
  return readAll(out);
}
