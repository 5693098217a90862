// The page script of the browser tests: a plain module (import map) and an esbuild bundle.
import * as pkg from 'robots-eval';
import { smoke } from './smoke.mjs';

try {
  globalThis.__result = { failures: smoke(pkg) };
} catch (e) {
  globalThis.__result = { failures: [`threw: ${e && e.stack}`] };
}
