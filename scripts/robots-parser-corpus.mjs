#!/usr/bin/env node
// robots-eval/robots-parser against robots-parser itself over the real-world corpus
// (../shared/corpus: 1,248 robots.txt files and their probe URLs): every probe is asked of both,
// for Crawlee's default agent `*` and for each agent the corpus asks google/robotstxt about for it
// (up to three named in the file, Googlebot and ExampleBot), and every difference is put in a
// class: the first of the transformations below that, applied to robots-parser's input (cumulatively,
// in this order), makes robots-parser give our answer. docs/robots-parser.md explains each class.
// Where the corpus has google/robotstxt's own verdict, each class also says whose answer it is.
//
//   node scripts/robots-parser-corpus.mjs [--corpus DIR] [--dialect NAME] [--examples N]
//
// --dialect: the same entry with another engine dialect (a copy of js/robots-parser.js with its
// DIALECT changed, in target/), to compare the candidates; without it, the built entry (pkg/).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import robotsParser from 'robots-parser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const corpus = resolve(arg('--corpus', join(root, '..', 'shared', 'corpus')));
if (!existsSync(join(corpus, 'urls.txt'))) {
  console.log(`SKIPPED: ${corpus} is absent (the real-world corpus: ../shared/corpus, or --corpus DIR)`);
  process.exit(0);
}
const dialect = arg('--dialect', null);
const showExamples = Number(arg('--examples', '0'));

let ours;
if (dialect === null) {
  ours = (await import('robots-eval/robots-parser')).default;
} else {
  const source = readFileSync(join(root, 'js', 'robots-parser.js'), 'utf8');
  const changed = source.replace(/^const DIALECT = '[\w]+';$/m, `const DIALECT = ${JSON.stringify(dialect)};`);
  if (changed === source && !source.includes(`const DIALECT = ${JSON.stringify(dialect)};`)) throw new Error('js/robots-parser.js has no `const DIALECT = ...;` line');
  mkdirSync(join(root, 'target'), { recursive: true });
  const copy = join(root, 'target', `robots-parser-${dialect}.mjs`);
  writeFileSync(copy, changed);
  ours = (await import(pathToFileURL(copy).href)).default;
}

const lines = (file) => readFileSync(join(corpus, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
// file -> url -> agents (always `*`), and google/robotstxt's verdicts.
const probes = new Map();
for (const { file, url } of lines('urls.txt')) {
  if (!probes.has(file)) probes.set(file, new Map());
  probes.get(file).set(url, new Set(['*']));
}
const google = new Map();
for (const { file, agent, url, allowed } of lines('expected-google.jsonl')) {
  probes.get(file).get(url).add(agent);
  google.set(`${file}\n${agent}\n${url}`, allowed);
}

const ROBOTS_URL = 'https://example.com/robots.txt';
const UNRESERVED = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/g;
const decodeUnreserved = (s) => s.replace(UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
// A user-agent line's value as RFC 9309 reads it (the engine's rfc9309 reading, src/agent.rs):
// `*`, or its leading run of letters, digits, `_`, `-` and `.`.
const agentLine = /^(\s*user-agent\s*:\s*)([^#\r\n]*)/gim;
const asToken = (text) => text.replace(agentLine, (_, key, value) => key + (/^\*(\s|$)/.test(value) ? '*' : /^[A-Za-z0-9_.-]*/.exec(value)[0]));
// The misspellings the engine reads in rfc9309 and google (src/parse.rs, TYPOS), spelt right.
const TYPOS = /^(\s*)(useragent|user agent|dissallow|dissalow|disalow|diasllow|disallaw|site-map)(\s*:)/gim;
const spelt = (key) => (/^user/i.test(key) ? 'user-agent' : /^site/i.test(key) ? 'sitemap' : 'disallow');
const fixTypos = (text) => text.replace(TYPOS, (_, before, key, after) => before + spelt(key) + after);
const ruleOrAgent = /^\s*(user-agent|allow|disallow)\s*:/i;
const onlyGroups = (text) => text.split(/\r\n|\r|\n/).filter((l) => ruleOrAgent.test(l)).join('\n');

// The classes, in the order they are tried; `input` transforms robots-parser's [text, url].
const CLASSES = [
  { id: 'robots-txt', what: '/robots.txt itself, always allowed (RFC 9309 §2.2.2)', test: (text, url) => new URL(url).pathname === '/robots.txt', input: (t, u) => [t, u] },
  { id: 'size-cap', what: 'the part of a file after its first 500 KiB, ignored (RFC 9309 §2.5)', input: (t, u) => [new TextDecoder().decode(new TextEncoder().encode(t).subarray(0, 512000)), u] },
  { id: 'percent-unreserved', what: '`%xx` of an unreserved character read as the character (RFC 9309 §2.2.2: `/%6Dodules` is `/modules`)', input: (t, u) => [decodeUnreserved(t), decodeUnreserved(u)] },
  { id: 'typos', what: 'the frequent misspellings of a field read as the field (`Disalow`, `useragent`: RFC 9309 §2.2.4 allows it, google/robotstxt does it)', input: (t, u) => [fixTypos(t), u] },
  { id: 'agent-token', what: 'a user-agent value read as its product token (`Mediapartners-Google*` names Mediapartners-Google, `Clickagy Intelligence Bot` Clickagy: RFC 9309 §2.2.1)', input: (t, u) => [asToken(t), u] },
  { id: 'other-records', what: 'lines other than user-agent, allow and disallow do not end a group (RFC 9309 §2.1: a user-agent line ends it; §2.2.4)', input: (t, u) => [onlyGroups(t), u] },
  { id: 'empty-group', what: 'a group without rules, at the end of the file: its agents obey it, and so nothing (RFC 9309 §2.1: "The last group may have no rules, which means it implicitly allows everything")', input: (t, u) => [/^\s*user-agent\s*:[^\n]*$(?![\s\S]*^\s*(allow|disallow)\s*:)/im.test(t) ? `${t}\nDisallow:\n` : t, u] },
  { id: 'empty-query', what: 'an empty query (`/a?`) kept, which robots-parser drops with URL.search (RFC 9309 §2.2.2 matches the path and query)', input: (t, u) => [t, u.endsWith('?') ? `${u}x` : u] },
];

const counts = new Map([...CLASSES.map((c) => [c.id, { n: 0, withUs: 0, withThem: 0, examples: [] }]), ['other', { n: 0, withUs: 0, withThem: 0, examples: [] }]]);
let asked = 0;
let differ = 0;
for (const [file, urls] of probes) {
  const text = new TextDecoder().decode(readFileSync(join(corpus, 'files', file)));
  const theirs = robotsParser(ROBOTS_URL, text);
  const mine = ours(ROBOTS_URL, text);
  for (const [url, agents] of urls) {
    for (const agent of agents) {
      asked++;
      const ourAnswer = mine.isAllowed(url, agent);
      if (theirs.isAllowed(url, agent) === ourAnswer) continue;
      differ++;
      let input = [text, url];
      let cls = 'other';
      for (const c of CLASSES) {
        if (c.test?.(...input) === true) { cls = c.id; break; }
        input = c.input(...input);
        if (c.test === undefined && robotsParser(ROBOTS_URL, input[0]).isAllowed(input[1], agent) === ourAnswer) { cls = c.id; break; }
      }
      const entry = counts.get(cls);
      entry.n++;
      const g = google.get(`${file}\n${agent}\n${url}`);
      if (g !== undefined) {
        if (g === ourAnswer) entry.withUs++;
        else entry.withThem++;
      }
      if (entry.examples.length < showExamples) entry.examples.push(`${file} ${JSON.stringify(agent)} ${url}: robots-parser ${!ourAnswer}, robots-eval ${ourAnswer}`);
    }
  }
}

const label = dialect === null ? 'robots-eval/robots-parser (pkg/)' : `robots-eval/robots-parser with the ${dialect} dialect`;
console.log(`${label} vs robots-parser ${JSON.parse(readFileSync(join(root, 'node_modules', 'robots-parser', 'package.json'), 'utf8')).version}: ` +
  `${probes.size} files, ${asked} questions (isAllowed of each probe URL for \`*\` and the agents the corpus asks google/robotstxt about), ` +
  `${differ} different answers (${((100 * differ) / asked).toFixed(2)}%).\n`);
console.log('| class | differences | google/robotstxt gives our answer | google/robotstxt gives robots-parser\'s |');
console.log('|---|---:|---:|---:|');
for (const c of [...CLASSES, { id: 'other', what: 'none of the above' }]) {
  const e = counts.get(c.id);
  console.log(`| \`${c.id}\`: ${c.what} | ${e.n} | ${e.withUs} | ${e.withThem} |`);
}
console.log('\n(google/robotstxt\'s verdicts: those of the corpus, for the named agents; `*` is not asked of it.)');
for (const [id, e] of counts) {
  if (e.examples.length > 0) console.log(`\n${id}:\n  ${e.examples.join('\n  ')}`);
}
