// Run by Deno and Bun (runtimes.test.mjs): import the package by name, run the smoke check,
// print the failures as JSON and exit non-zero if there are any.
import * as pkg from 'robots-eval/rich';
import * as verdict from 'robots-eval/verdict';
import { smoke, smokeVerdict } from './smoke.mjs';

const failures = [...smoke(pkg), ...smokeVerdict(verdict)];
console.log(JSON.stringify({ failures }));
if (failures.length > 0) throw new Error(failures.join('\n'));
