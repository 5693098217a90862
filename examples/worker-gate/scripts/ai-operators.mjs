// Generates src/ai-operators.js from the one operator table, the core's src/aipref/operators.rs
// (OPERATORS: token, operator, kind, purposes, source), so that the gate and every other surface
// of the package (Robots.aiUse, the CLI, the playground) know the same AI crawlers.
//   node scripts/ai-operators.mjs           rewrites src/ai-operators.js
//   node scripts/ai-operators.mjs --check   exits 1 when src/ai-operators.js differs (test/ai-operators.test.mjs)
// The table is plain data written in a few forms only (`row(...)`, `Operator { field: ..,
// ..row(...) }`, `const NAME: &str = "..."`); the reader fails, naming what it could not read,
// when the rows it finds are not the `[Operator; N]` the array declares.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const RUST = join(here, '..', '..', '..', 'src', 'aipref', 'operators.rs');
export const OUT = join(here, '..', 'src', 'ai-operators.js');

const SETS = { TRAIN: ['train-ai'], INPUT: ['ai-use'], SEARCH: ['search'], NONE: [] };
const KINDS = { Crawler: 'crawler', Control: 'control-token', UserFetcher: 'user-fetcher', Previews: 'link-previews' };
const ORDER = ['train-ai', 'ai-use', 'search'];

/** The rows of OPERATORS in `rust` (the text of operators.rs). */
export function readOperators(rust) {
  const consts = new Map();
  for (const m of rust.matchAll(/const (\w+): &str =\s*"([^"]*)";/g)) consts.set(m[1], m[2]);
  // Purpose sets: `const SI: Purposes = Purposes::SEARCH.and(Purposes::INPUT);`, `TIS = TI.and(...)`.
  const sets = new Map(Object.entries(SETS).map(([k, v]) => [`Purposes::${k}`, v]));
  for (const m of rust.matchAll(/^const (\w+): Purposes = ([^;]+);/gm)) {
    const parts = m[2].replace(/\s+/g, '').split(/\.and\(|\)/).filter(Boolean);
    const labels = parts.flatMap((p) => {
      if (!sets.has(p)) throw new Error(`ai-operators: purpose set ${p} in ${m[0]} is unknown`);
      return sets.get(p);
    });
    sets.set(m[1], ORDER.filter((l) => labels.includes(l)));
  }
  const declared = /pub const OPERATORS: \[Operator; (\d+)\] = \[([\s\S]*?)\n\];/.exec(rust);
  if (!declared) throw new Error('ai-operators: no `pub const OPERATORS: [Operator; N] = [...]` in operators.rs');
  const rows = [];
  // Each row: an optional `Operator { robots_txt: Some("..."), fetched_by: ..., ..row(` prefix, then row(args).
  const re = /(?:Operator\s*\{([^{}]*?)\.\.\s*)?row\(\s*"([^"]+)",\s*"([^"]+)",\s*Kind::(\w+),\s*([\w:]+),\s*(true|false),\s*(\w+),?\s*\)/g;
  for (const m of declared[2].matchAll(re)) {
    const [, fields = '', token, operator, kind, set, , src] = m;
    if (!KINDS[kind]) throw new Error(`ai-operators: ${token}: kind ${kind} is unknown`);
    if (!sets.has(set)) throw new Error(`ai-operators: ${token}: purposes ${set} are unknown`);
    if (!consts.has(src)) throw new Error(`ai-operators: ${token}: source ${src} is not a string constant`);
    const row = { token, operator, kind: KINDS[kind], purposes: sets.get(set), source: consts.get(src) };
    const fetchedBy = /fetched_by:\s*Some\("([^"]+)"\)/.exec(fields);
    if (fetchedBy) row.fetchedBy = fetchedBy[1];
    const robotsTxt = /robots_txt:\s*Some\(\s*"((?:[^"\\]|\\.)*)",?\s*\)/.exec(fields);
    if (robotsTxt) row.robotsTxt = robotsTxt[1].replace(/\\"/g, '"');
    rows.push(row);
  }
  if (rows.length !== Number(declared[1])) {
    throw new Error(`ai-operators: read ${rows.length} rows of OPERATORS, the array declares ${declared[1]}: a row in a form this reader does not know`);
  }
  return rows;
}

/** The text of src/ai-operators.js for `rows`. */
export function render(rows) {
  return `// GENERATED from src/aipref/operators.rs by scripts/ai-operators.mjs: do not edit; edit the Rust
// table and run \`node scripts/ai-operators.mjs\` (test/ai-operators.test.mjs fails when they differ).
// The operator table: each token, its operator, what it is, the AI purposes its operator documents
// (the aipref labels train-ai, ai-use, search) and the operator's documentation.
export const OPERATORS = [
${rows.map((r) => `  ${JSON.stringify(r)},\n`).join('')}];
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = render(readOperators(readFileSync(RUST, 'utf8')));
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error('src/ai-operators.js differs from src/aipref/operators.rs: run node scripts/ai-operators.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
  }
}
