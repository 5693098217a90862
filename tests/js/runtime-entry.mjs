// Run by Deno and Bun (runtimes.test.mjs): import the package by name, run the smoke check,
// print the failures as JSON and exit non-zero if there are any.
import * as pkg from 'robots-eval';
import { smoke } from './smoke.mjs';

const failures = smoke(pkg);
console.log(JSON.stringify({ failures }));
if (failures.length > 0) throw new Error(failures.join('\n'));
