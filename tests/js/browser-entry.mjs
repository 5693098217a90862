// The page script of the browser tests: a plain module (import map) and an esbuild bundle.
import * as pkg from 'robots-eval/rich';
import * as verdict from 'robots-eval/verdict';
import { smoke, smokeVerdict } from './smoke.mjs';

try {
  globalThis.__result = { failures: [...smoke(pkg), ...smokeVerdict(verdict)] };
} catch (e) {
  globalThis.__result = { failures: [`threw: ${e && e.stack}`] };
}
