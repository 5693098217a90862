// Types of 'robots-eval/rich': the main entry's (js/index.d.ts), whose Robots then answers
// explain, aiPreferences, aiUse, records and diagnostics (installed by this entry).
export * from './index.js';
export { default } from './index.js';
