// The 'robots-eval/rich' entry: the main entry with Robots' rich calls installed (explain,
// diagnostics, records, aiPreferences, answered by the rich module, and aiUse, by the AI-use
// module: js/rich-methods.js).
// `import 'robots-eval/rich'` once, or import from it instead of 'robots-eval': it imports the
// package by name (scripts/build-pkg.mjs leaves 'robots-eval' external), so both give the same
// class, and package.json lists this file as having side effects (a bundler keeps the import).
// (The default export by name: in CommonJS, a default import of the package would be its exports.)
import { installRich, Robots } from 'robots-eval';

installRich();

export * from 'robots-eval';
export default Robots;
