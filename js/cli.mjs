#!/usr/bin/env node
// robots-eval: the command for site owners (check, lint, table, diff, test). It imports the
// package by its own name, so it runs the same WebAssembly build as the library; the native CLI
// (src/bin/robots-eval.rs) takes the same commands and flags and prints the same output, and
// tests/data/cli-cases.json holds the cases both are tested on. docs/cli.md documents it.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Robots, fetchRobots, fetchAiUse } from 'robots-eval/rich';
import { SITEMAP_MAX, SitemapError, sitemapLocs } from './sitemap.js';

const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const NAME = 'robots-eval';

/** The help of a command ('' for the overview), from cli-help.txt (shared with the native CLI). */
function help(command) {
  const parts = readFileSync(new URL('./cli-help.txt', import.meta.url), 'utf8').split(/^== (\w+) ==\n/m);
  const section = (name) => (parts[parts.indexOf(name) + 1] ?? '').replace(/\n$/, '');
  return section(command || 'main').replace('{common}', section('common'));
}

/** A usage or input error: one line on stderr, exit status 2. */
class UsageError extends Error {}

// ---- arguments -------------------------------------------------------------------------------

// Read by node:util's parseArgs; every command reads every option, and which command takes which
// is checked after (ALLOWED), so that an option of another command gets its own message. The
// native CLI (clap, src/bin/robots-eval/args.rs) makes the same checks in the same order.
const OPTIONS = {
  json: { type: 'boolean' },
  csv: { type: 'boolean' },
  markdown: { type: 'boolean' },
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  agent: { type: 'string', short: 'a', multiple: true },
  dialect: { type: 'string', short: 'd' },
  urls: { type: 'string' },
  sitemap: { type: 'string' },
  'max-bytes': { type: 'string' },
};
const ALLOWED = {
  check: ['json', 'agent'],
  lint: ['json', 'strict'],
  table: ['json', 'csv', 'markdown', 'agent', 'urls', 'sitemap'],
  diff: ['json', 'agent', 'urls', 'sitemap'],
  test: [],
  coverage: ['json', 'agent', 'urls', 'sitemap'],
};

function readArgs(argv) {
  if (argv.length === 0) throw new UsageError('missing command (robots-eval --help lists the commands)');
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { command: '', help: true };
  if (command === '--version' || command === '-V') return { command: 'version' };
  if (!(command in ALLOWED)) throw new UsageError(`unknown command ${JSON.stringify(command)} (commands: ${Object.keys(ALLOWED).join(', ')})`);
  // strict: false, so that each problem gets the message both CLIs print (below) rather than
  // parseArgs' own; tokens say what was written.
  const { tokens } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const o = { command, positional: [], agent: [], dialect: 'rfc9309', maxBytes: undefined };
  for (const t of tokens) {
    if (t.kind === 'positional') {
      o.positional.push(t.value);
      continue;
    }
    // After `--`, everything is a positional argument (parseArgs' tokens say so).
    if (t.kind === 'option-terminator') continue;
    const spec = OPTIONS[t.name];
    if (!spec) throw new UsageError(`unknown option ${t.rawName} (robots-eval ${command} --help lists the options)`);
    const key = t.name === 'max-bytes' ? 'maxBytes' : t.name;
    if (spec.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`--${t.name} takes no value`);
      o[key] = true;
      continue;
    }
    // A value is the next argument, unless that is an option ("-" alone is standard input).
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith('-') && t.value !== '-')) throw new UsageError(`--${t.name} needs a value`);
    if (spec.multiple) o[key].push(t.value);
    else o[key] = t.value;
  }
  if (o.help) return o;
  // In the order of the native CLI's table of options.
  for (const key of ['json', 'csv', 'markdown', 'strict', 'agent', 'urls', 'sitemap']) {
    const given = key === 'agent' ? o.agent.length > 0 : o[key] !== undefined;
    if (given && !ALLOWED[command].includes(key)) throw new UsageError(`${command} takes no --${key}`);
  }
  if (!Robots.dialects.includes(o.dialect.toLowerCase())) throw new UsageError(`unknown dialect ${JSON.stringify(o.dialect)} (dialects: ${Robots.dialects.join(', ')})`);
  o.dialect = o.dialect.toLowerCase();
  if (o.maxBytes !== undefined) {
    // At most 2^53 - 1 (a JavaScript integer, and far beyond any robots.txt).
    if (!/^\d+$/.test(o.maxBytes) || !Number.isSafeInteger(Number(o.maxBytes))) throw new UsageError(`--max-bytes: not a number of bytes: ${JSON.stringify(o.maxBytes)}`);
    o.maxBytes = Number(o.maxBytes);
  }
  if ([o.json, o.csv, o.markdown].filter(Boolean).length > 1) throw new UsageError('choose one of --json, --csv and --markdown');
  return o;
}

// ---- inputs ----------------------------------------------------------------------------------

const isUrl = (s) => /^https?:\/\//i.test(s);
let stdinTaken = null;

/** The bytes of a file, or of standard input for `-` (which only one argument may name). */
function readInput(path, what) {
  if (path === '-') {
    if (stdinTaken !== null) throw new UsageError(`${what} and ${stdinTaken} cannot both be standard input`);
    stdinTaken = what;
    return new Uint8Array(readFileSync(0));
  }
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new UsageError(`${what}: cannot read ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message}`);
  }
}

/** Fetches a sitemap (at most SITEMAP_MAX + 1 bytes of it, within 30 s); exit 2 when it cannot. */
async function fetchBytes(url, what) {
  const chunks = [];
  let size = 0;
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30000) });
    if (!res.ok) throw new UsageError(`fetch failed: ${url}: HTTP ${res.status}`);
    for await (const chunk of res.body ?? []) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > SITEMAP_MAX) break;
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`fetch failed: ${url}: ${e.cause?.message ?? e.message}`);
  }
  const bytes = Buffer.concat(chunks).subarray(0, SITEMAP_MAX + 1);
  note(`fetched ${url}: HTTP ${res.status}, ${bytes.length} bytes (${what})`);
  return bytes;
}

/**
 * A robots.txt (file, `-` or URL), parsed, with its lines for quoting rules as written:
 * { robots, lines, name }.
 */
async function loadRobots(arg, o, what) {
  const options = { dialect: o.dialect, ...(o.maxBytes === undefined ? {} : { maxBytes: o.maxBytes }) };
  if (!isUrl(arg)) {
    const bytes = readInput(arg, what);
    return { robots: Robots.parse(bytes, options), lines: splitLines(bytes), name: arg === '-' ? '<stdin>' : arg };
  }
  // fetchRobots reads the body itself; this fetch keeps a copy of the last 2xx body for quoting
  // its lines, and the network error, for the message.
  let body = new Uint8Array(0);
  let failure = null;
  const keep = async (url, init) => {
    let res;
    try {
      res = await fetch(url, init);
    } catch (e) {
      failure = e.cause?.message ?? e.message;
      throw e;
    }
    if (res.status < 200 || res.status > 299) return res;
    body = new Uint8Array(await res.arrayBuffer());
    return new Response(body, { status: res.status, headers: res.headers });
  };
  if (!URL.canParse(arg)) throw new UsageError(`${what}: not a valid URL: ${JSON.stringify(arg)}`);
  let robots;
  try {
    robots = await fetchRobots(arg, { ...options, fetch: keep });
  } catch (e) {
    throw new UsageError(`${what}: ${e.message.replace(/^robots-eval: /, '')}`);
  }
  const s = robots.source;
  if (s.status === 0) throw new UsageError(`fetch failed: ${s.finalUrl}: ${failure ?? s.message}`);
  const via = s.redirects ? ` after ${s.redirects} redirect${s.redirects > 1 ? 's' : ''} to ${s.finalUrl}` : '';
  note(`fetched ${s.url}: HTTP ${s.status}${via}: ${s.treatedAs} (${s.reason})`);
  return { robots, lines: s.treatedAs === 'parse' ? splitLines(body) : null, name: s.url, origin: new URL(s.url).origin };
}

// ---- progress --------------------------------------------------------------------------------

/**
 * Progress of a long run (sitemaps read, answers computed) on one line of standard error, redrawn
 * at most ten times a second, when standard error is a terminal; nothing otherwise (a log or a
 * pipe gets only the lines that say what was fetched). Cleared when the run is over.
 */
class Progress {
  static for(o) {
    return process.stderr.isTTY && ['table', 'diff', 'coverage'].includes(o.command) ? new Progress() : null;
  }
  shown = false;
  last = 0;
  update(text, force = false) {
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    process.stderr.write(`\r${NAME}: ${text}\x1b[K`);
    this.shown = true;
  }
  clear() {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
let progress = null;

/** A line on standard error (what was fetched), above the progress line. */
function note(text) {
  progress?.clear();
  console.error(`${NAME}: ${text}`);
}

const count = (n) => n.toLocaleString('en-US');

/** URLs asked of the core at a time when progress is shown. */
const CHUNK = 5000;

/**
 * `file.robots.table(urls, agents)`. A fetched robots.txt refuses absolute URLs of another site;
 * the command reads every URL against the file it was given (as the native command does, which
 * compares staging's file with production's URLs), so such a URL is asked by what follows its
 * authority: the path and query the rules match. With progress, asked CHUNK URLs at a time.
 */
function tableOf(file, urls, agents) {
  const asked = askedOf(file, urls);
  const ask = agents.map(crawler);
  if (!progress || asked.length <= CHUNK) return file.robots.table(asked, ask);
  const t = { urls: [], agents: ask, allowed: [], lines: [], reasons: [] };
  for (let i = 0; i < asked.length; i += CHUNK) {
    const part = file.robots.table(asked.slice(i, i + CHUNK), ask);
    for (const k of ['urls', 'allowed', 'lines', 'reasons']) for (const row of part[k]) t[k].push(row);
    progress.update(`answers: ${count(Math.min(i + CHUNK, asked.length) * ask.length)} of ${count(asked.length * ask.length)}`);
  }
  progress.clear();
  return t;
}

/**
 * A crawler as the package takes it: `A,B` (commas, no space) is one crawler's product tokens, the
 * first with a group of its own deciding (docs/records.md); a User-Agent header always has a space.
 */
function crawler(agent) {
  if (!agent.includes(',') || /\s/.test(agent)) return agent;
  const tokens = agent.split(',').filter(Boolean);
  return tokens.length > 0 ? tokens : '';
}

/** The URLs as asked of a fetched file: those of another origin as paths on its site. */
function askedOf(file, urls) {
  const onSite = (u) => {
    const m = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(u);
    if (!m || !URL.canParse(u) || new URL(u).origin === file.origin) return u;
    const rest = u.slice(m[0].length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  };
  return file.origin ? urls.map(onSite) : urls;
}

/**
 * The file's lines as the core numbers them (LF, CR and CRLF each end one), as they are shown: cut
 * at a NUL (the core reads no further), other control characters but tab as U+FFFD.
 */
// (Hand-written, as in the native CLI: the lines must be numbered exactly as the core numbers them.)
function splitLines(bytes) {
  return new TextDecoder().decode(bytes).split(/\r\n|\r|\n/).map((l) => l.replace(/\0[\s\S]*$/, '').replace(/[\x01-\x08\x0b-\x1f\x7f-\x9f]/g, '\uFFFD'));
}

/** The URLs of --urls or --sitemap. */
async function loadUrls(o) {
  if ((o.urls === undefined) === (o.sitemap === undefined)) throw new UsageError(`${o.command} needs one of --urls FILE|- and --sitemap FILE|URL`);
  if (o.urls !== undefined) {
    const text = new TextDecoder().decode(readInput(o.urls, '--urls'));
    return text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  }
  const urls = [];
  const seen = new Set();
  const read = async (where, depth) => {
    if (seen.has(where)) return;
    seen.add(where);
    const bytes = isUrl(where) ? await fetchBytes(where, 'sitemap') : readInput(where, '--sitemap');
    const { index, locs } = readSitemap(bytes, where);
    if (!index) {
      for (const loc of locs) urls.push(loc);
      progress?.update(`sitemaps: ${count(seen.size)} read, ${count(urls.length)} URLs`, true);
    }
    else if (depth > 0) throw new UsageError(`--sitemap: ${where}: a sitemap index inside a sitemap index`);
    else for (const loc of locs) await read(loc, depth + 1);
  };
  await read(o.sitemap, 0);
  progress?.clear();
  return urls;
}

/** The <loc> values of a sitemap or sitemap index (XML, gzipped or not): { index, locs }. */
function readSitemap(bytes, where) {
  const tooLarge = () => new UsageError(`--sitemap: ${where}: larger than 52,428,800 bytes, the sitemap protocol's limit`);
  if (bytes.length > SITEMAP_MAX) throw tooLarge();
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX });
    } catch (e) {
      if (e.code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw new UsageError(`--sitemap: ${where}: not valid gzip (${e.message})`);
    }
  }
  try {
    return sitemapLocs(new TextDecoder().decode(bytes));
  } catch (e) {
    if (e instanceof SitemapError) throw new UsageError(`--sitemap: ${where}: ${e.message}`);
    throw e;
  }
}

// ---- answers ---------------------------------------------------------------------------------

const KIND = { allow: 'Allow', disallow: 'Disallow' };
/** The core's words for each reason (`explain().because`, `Reason::words`), filled in by `cell`. */
const BECAUSE = new Map();

/**
 * Cell (r, c) of `t`, a `robots.table()` of the file, as the JSON output has it:
 * { allowed, reason, line, rule }, the rule as written (the deciding line of the file).
 */
function cell(file, t, r, c) {
  const line = t.lines[r][c];
  let rule = null;
  if (line) {
    rule = file.lines?.[line - 1]?.replace(/^\uFEFF/, '').trim();
    // No text: a fetch taken as allow-all or disallow-all, whose rules were not read from a body.
    if (!rule) {
      const { kind, pattern } = file.robots.explain(t.urls[r], t.agents[c]).rule;
      rule = `${KIND[kind]}: ${pattern}`;
    }
  }
  const reason = t.reasons[r][c];
  // The core's words for the reason (Reason::words), asked once per reason met, for `why`.
  if (rule === null && !BECAUSE.has(reason)) BECAUSE.set(reason, file.robots.explain(t.urls[r], t.agents[c]).because);
  return { allowed: t.allowed[r][c], reason, line, rule };
}


/** One answer: { allowed, reason, line, rule }. */
const answer = (file, url, agent) => cell(file, tableOf(file, [url], [agent]), 0, 0);

/** "line 3: Disallow: /x (rule)", "no rule matches (no-match)": the native command's `why`. */
const why = (a) => (a.rule !== null ? `line ${a.line}: ${a.rule} (${a.reason})` : `${BECAUSE.get(a.reason)} (${a.reason})`);
const verdict = (a) => (a.allowed ? 'allowed' : 'disallowed');

/** Each URL, then each agent: [{ url, agent, allowed, reason, line, rule }], from one table. */
function answers(file, urls, agents) {
  const t = tableOf(file, urls, agents);
  return urls.flatMap((url, r) => agents.map((agent, c) => ({ url, agent, ...cell(file, t, r, c) })));
}

const width = (s) => [...s].length;
const pad = (s, n) => s + ' '.repeat(Math.max(0, n - width(s)));
/** Rows of cells as text columns two spaces apart (the last column unpadded). */
function columns(rows) {
  const widths = [];
  for (const row of rows) row.forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 0, width(c)); });
  return rows.map((row) => row.map((c, i) => (i === row.length - 1 ? c : pad(c, widths[i]))).join('  ')).join('\n');
}

const print = (s) => process.stdout.write(s === '' ? '' : `${s}\n`);
const json = (v) => print(JSON.stringify(v, null, 2));

// ---- commands --------------------------------------------------------------------------------

function needAgents(o) {
  if (!o.agent.length) throw new UsageError(`${o.command} needs --agent A (a product token or a User-Agent header)`);
}

/** The positional arguments `names` are there (and no more, unless `more`). */
function needPositional(o, names, more = false) {
  const n = o.positional.length;
  if (n < names.length) throw new UsageError(`${o.command} needs ${names.slice(n).join(' and ')}`);
  if (n > names.length && !more) throw new UsageError(`${o.command} takes ${names.join(' and ')}, got ${n} arguments`);
}

async function check(o) {
  needPositional(o, ['<robots>', 'at least one <url>'], true);
  needAgents(o);
  const [robotsArg, ...urls] = o.positional;
  const file = await loadRobots(robotsArg, o, '<robots>');
  const all = answers(file, urls, o.agent);
  if (o.json) json(all);
  else print(columns(all.map((a) => [verdict(a), a.agent, a.url, why(a)])));
  return all.every((a) => a.allowed) ? 0 : 1;
}

async function lint(o) {
  needPositional(o, ['<robots>']);
  const file = await loadRobots(o.positional[0], o, '<robots>');
  const list = file.robots.diagnostics.map((d) => ({ ...d, ...pointAt(d, file.lines) }));
  const count = (s) => list.filter((d) => d.severity === s).length;
  const [errors, warnings, infos] = [count('error'), count('warning'), count('info')];
  if (o.json) {
    json(list.map(({ line, column, severity, code, message }) => ({ line, column, severity, code, message })));
  } else {
    const out = [];
    for (const d of list) {
      out.push(`${file.name}:${d.line}${d.column ? `:${d.column}` : ''}: ${d.severity}: ${d.message} [${d.code}]`);
      const text = d.line > 0 ? file.lines?.[d.line - 1] : undefined;
      if (text === undefined) continue;
      const gutter = String(d.line);
      out.push(`  ${gutter} | ${text}`);
      if (d.column) out.push(`  ${' '.repeat(gutter.length)} | ${caret(text, d.column, d.length)}`);
    }
    const n = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
    out.push(`${n(errors, 'error')}, ${n(warnings, 'warning')}, ${n(infos, 'note')} (${o.dialect})`);
    print(out.join('\n'));
  }
  return errors > 0 || (o.strict && warnings > 0) ? 1 : 0;
}

/**
 * Where on its line a diagnostic points, { column, length } in characters (column 1-based, null
 * when a caret would not help): for a missing colon, just after the field name; otherwise what
 * the diagnostic is about (its detail: the text in the last parentheses of its message, a field
 * name, a token, a pattern), or the detail's first word, where the line contains it.
 */
function pointAt(d, lines) {
  const text = d.line > 0 ? lines?.[d.line - 1] : undefined;
  const none = { column: null, length: 0 };
  if (text === undefined) return none;
  if (d.code.startsWith('missing-colon')) {
    const key = /^[ \t]*[^ \t]+/.exec(text);
    return key ? { column: width(key[0]) + 1, length: 1 } : none;
  }
  // Every message of the core ends with '.', and a detail follows as " (detail)".
  const detail = /^[\s\S]*?\. \(([\s\S]+)\)$/.exec(d.message)?.[1];
  for (const want of detail ? [detail, detail.split(' ')[0]] : []) {
    const at = want === '' ? -1 : text.indexOf(want);
    if (at >= 0) return { column: width(text.slice(0, at)) + 1, length: width(want) };
  }
  return none;
}

/** Spaces (tabs kept, so it lines up) up to the column, then ^~~~ under `length` characters. */
function caret(text, column, length) {
  const before = [...text].slice(0, column - 1).map((c) => (c === '\t' ? '\t' : ' ')).join('');
  return `${before}^${'~'.repeat(Math.max(0, length - 1))}`;
}

async function table(o) {
  needPositional(o, ['<robots>']);
  needAgents(o);
  const urls = await loadUrls(o);
  const file = await loadRobots(o.positional[0], o, '<robots>');
  const all = answers(file, urls, o.agent);
  if (o.json) return json(all), 0;
  if (o.csv) {
    const q = (v) => (v === null ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
    const rows = [['url', 'agent', 'allowed', 'reason', 'line', 'rule'], ...all.map((a) => [a.url, a.agent, a.allowed, a.reason, a.line, a.rule])];
    process.stdout.write(rows.map((r) => r.map(q).join(',')).join('\r\n') + '\r\n');
    return 0;
  }
  const grid = urls.map((url, r) => [url, ...o.agent.map((_, c) => all[r * o.agent.length + c])]);
  if (o.markdown) {
    const esc = (s) => s.replace(/\|/g, '\\|');
    const cell = (a) => `${a.allowed ? '✓ allowed' : '✗ disallowed'}${a.line ? ` (line ${a.line})` : ''}`;
    print([`| URL | ${o.agent.map(esc).join(' | ')} |`, `|---|${o.agent.map(() => '---').join('|')}|`,
      ...grid.map(([url, ...cells]) => `| ${esc(url)} | ${cells.map(cell).join(' | ')} |`)].join('\n'));
    return 0;
  }
  const cell = (a) => `${verdict(a)}${a.line ? ` (line ${a.line})` : ''}`;
  print(columns([['URL', ...o.agent], ...grid.map(([url, ...cells]) => [url, ...cells.map(cell)])]));
  return 0;
}

async function diff(o) {
  needPositional(o, ['<old>', '<new>']);
  needAgents(o);
  const urls = await loadUrls(o);
  const before = await loadRobots(o.positional[0], o, '<old>');
  const after = await loadRobots(o.positional[1], o, '<new>');
  // The verdicts of both files in one table each; the answers only of the cells that change.
  const [tb, ta] = [before, after].map((f) => tableOf(f, urls, o.agent));
  const changes = [];
  let unchanged = 0;
  urls.forEach((url, r) => o.agent.forEach((agent, c) => {
    if (tb.allowed[r][c] === ta.allowed[r][c]) unchanged++;
    else changes.push({ url, agent, before: cell(before, tb, r, c), after: cell(after, ta, r, c) });
  }));
  if (o.json) {
    json({ changes, unchanged });
  } else {
    const out = [];
    for (const c of changes) {
      out.push(`${c.url}  ${c.agent}: ${verdict(c.before)} -> ${verdict(c.after)}`);
      out.push(`    before: ${why(c.before)}`);
      out.push(`    after:  ${why(c.after)}`);
    }
    const closed = changes.filter((c) => !c.after.allowed).length;
    const total = changes.length + unchanged;
    out.push(`${changes.length} of ${total} answer${total === 1 ? '' : 's'} changed (${closed} now disallowed, ${changes.length - closed} now allowed), ${unchanged} unchanged`);
    print(out.join('\n'));
  }
  return changes.length ? 1 : 0;
}

/** How many of the blocked URLs of a rule the text output lists (--json lists them all). */
const BLOCKED_SHOWN = 10;

/**
 * The core's coverage (robots.coverage) in the command's shape, with the crawlers' names and the
 * URLs as the user wrote them (the native command's src/bin/robots-eval/coverage.rs does the same).
 */
function coverageView(c, urls, names) {
  const rules = c.rules.map((r) => ({
    line: r.line,
    rule: r.text,
    agents: Object.fromEntries(r.agents.map((a) => [names[a.agent], a.answers])),
    allowed: r.allowed,
    disallowed: r.disallowed,
    status: r.status,
    matched: r.matched,
    urls: r.urls.map((u) => urls[u]),
  }));
  return { urls: urls.length, agents: names, answers: c.answers, rules, no_rule: c.noRule, other_groups: c.otherGroups };
}

async function coverageCommand(o) {
  needPositional(o, ['<robots>']);
  needAgents(o);
  const urls = await loadUrls(o);
  const file = await loadRobots(o.positional[0], o, '<robots>');
  const c = coverageView(file.robots.coverage(askedOf(file, urls), o.agent.map(crawler)), urls, o.agent);
  if (o.json) return json(c), 0;
  const plural = (n, word) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
  const who = (r) => Object.entries(r.agents).map(([a, n]) => `${a} ${count(n)}`).join(', ');
  const out = [`${plural(c.urls, 'URL')} × ${plural(c.agents.length, 'crawler')} = ${plural(c.answers, 'answer')} (${o.dialect})`];
  out.push(columns([['line', 'rule', 'allowed', 'disallowed', 'crawlers'],
    ...c.rules.map((r) => [String(r.line), r.rule, count(r.allowed), count(r.disallowed), who(r)]),
    ['', 'no rule', count(c.no_rule.allowed), count(c.no_rule.disallowed), '']]).replace(/ +$/gm, ''));
  const idle = c.rules.filter((r) => r.status !== 'decides');
  if (idle.length) {
    out.push(`${plural(idle.length, 'rule')} decide${idle.length === 1 ? 's' : ''} nothing for these URLs and crawlers (delete ${idle.length === 1 ? 'it' : 'them'}, or add the URLs ${idle.length === 1 ? 'it is' : 'they are'} for):`);
    out.push(columns(idle.map((r) => [`  line ${r.line}`, r.rule, r.status === 'shadowed' ? `shadowed: matches ${plural(r.matched, 'URL')}, another rule decides` : 'matches none of the URLs'])));
  } else if (c.rules.length) {
    out.push('Every rule decides at least one answer.');
  }
  if (c.other_groups) out.push(`${plural(c.other_groups, 'rule')} in groups none of these crawlers obeys ${c.other_groups === 1 ? 'is' : 'are'} not counted.`);
  for (const r of c.rules.filter((x) => x.disallowed > 0)) {
    out.push(`Blocked by line ${r.line}: ${r.rule} (${plural(r.urls.length, 'URL')})`);
    for (const u of r.urls.slice(0, BLOCKED_SHOWN)) out.push(`  ${u}`);
    if (r.urls.length > BLOCKED_SHOWN) out.push(`  … and ${count(r.urls.length - BLOCKED_SHOWN)} more (--json lists them all)`);
  }
  print(out.join('\n'));
  return 0;
}

async function test(o) {
  needPositional(o, ['<robots>', '<expectations-file>']);
  const [robotsArg, expectArg] = o.positional;
  const expectName = expectArg === '-' ? '<stdin>' : expectArg;
  const expectations = [];
  splitLines(readInput(expectArg, '<expectations-file>')).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(allow|disallow)\s+(.+?)\s+(\S+)$/i.exec(line);
    if (!m) throw new UsageError(`${expectName}:${i + 1}: expected "allow|disallow <agent> <url-or-path>", got ${JSON.stringify(line)}`);
    expectations.push({ at: i + 1, text: line, allowed: m[1].toLowerCase() === 'allow', agent: m[2], url: m[3] });
  });
  const file = await loadRobots(robotsArg, o, '<robots>');
  const out = [];
  let failed = 0;
  for (const e of expectations) {
    const a = answer(file, e.url, e.agent);
    if (a.allowed === e.allowed) continue;
    failed++;
    out.push(`FAIL ${expectName}:${e.at}: ${e.text}`);
    out.push(`    but ${verdict(a)}: ${why(a)}`);
  }
  out.push(`${expectations.length} expectation${expectations.length === 1 ? '' : 's'}, ${expectations.length - failed} passed, ${failed} failed`);
  print(out.join('\n'));
  return failed ? 1 : 0;
}

// ---- ai: what a site tells a crawler about AI use (the native src/bin/robots-eval/ai.rs) --------

// `ai` reads its own options (as the native command does), with the native command's messages.
const AI_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  agent: { type: 'string', short: 'a', multiple: true },
  dialect: { type: 'string', short: 'd' },
  robots: { type: 'string' },
  tdmrep: { type: 'string' },
  html: { type: 'string' },
  header: { type: 'string', multiple: true },
  purpose: { type: 'string', multiple: true },
  'policy-token': { type: 'string', multiple: true },
};
const PURPOSE_NAMES = { 'train-ai': 'train-ai', 'ai-train': 'train-ai', 'ai-use': 'ai-use', 'ai-input': 'ai-use', search: 'search' };

function readAiArgs(argv) {
  const { tokens } = parseArgs({ args: argv, options: AI_OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const a = { positional: [], agent: [], dialect: 'rfc9309', header: [], purpose: [], 'policy-token': [] };
  for (const t of tokens) {
    if (t.kind === 'positional') a.positional.push(t.value);
    if (t.kind !== 'option') continue;
    const spec = AI_OPTIONS[t.name];
    if (!spec) throw new UsageError(`unknown option ${t.rawName} (robots-eval ai --help lists the options)`);
    if (t.name === 'help') return null;
    if (spec.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`--${t.name} takes no value`);
      a[t.name] = true;
      continue;
    }
    if (t.value === undefined) throw new UsageError(`${t.rawName} needs a value`);
    if (spec.multiple) a[t.name].push(t.value);
    else a[t.name] = t.value;
  }
  if (a.agent.length > 1) throw new UsageError('ai takes one --agent');
  if (!Robots.dialects.includes(a.dialect.toLowerCase())) throw new UsageError(`unknown dialect ${JSON.stringify(a.dialect)} (dialects: ${Robots.dialects.join(', ')})`);
  a.dialect = a.dialect.toLowerCase();
  a.headers = a.header.map((h) => {
    const at = h.indexOf(':');
    if (at < 0) throw new UsageError(`--header ${JSON.stringify(h)}: not 'Name: value'`);
    return [h.slice(0, at).trim(), h.slice(at + 1).trim()];
  });
  a.purposes = a.purpose.map((p) => {
    const name = PURPOSE_NAMES[p.trim().toLowerCase()];
    if (name === undefined) throw new UsageError(`--purpose ${JSON.stringify(p)}: not a purpose (train-ai, ai-use, search)`);
    return name;
  });
  if (a.positional.length === 0) throw new UsageError("ai needs the page's <url>");
  if (a.positional.length > 1) throw new UsageError('ai takes one <url>');
  [a.url] = a.positional;
  if (a.agent.length === 0) throw new UsageError('ai needs --agent');
  [a.agent] = a.agent;
  const offline = a.robots !== undefined && a.tdmrep !== undefined && a.html !== undefined;
  if (!offline && !isUrl(a.url)) {
    throw new UsageError(`<url>: not an http(s) URL: ${JSON.stringify(a.url)} (give --robots, --tdmrep and --html to answer offline)`);
  }
  return a;
}

const labels = (purposes) => (purposes.length === 0 ? 'no purpose' : purposes.join(', '));

/** One trace entry on one line (the native command's `entry`). */
function entryText(e) {
  let s = e.signal;
  if (e.where.text) s += ` (${e.where.text})`;
  if (e.scope !== undefined) s += ` for ${e.scope}`;
  if (e.raw !== undefined) s += `: ${e.raw.replaceAll('\n', ' | ')}`;
  const effects = ['train-ai', 'ai-use', 'search'].filter((p) => e.effect[p] !== null).map((p) => `${p} ${e.effect[p]}`);
  if (effects.length > 0) s += ` -> ${effects.join(', ')}`;
  if (e.error !== undefined) s += ` [error: ${e.error}]`;
  if (e.note !== undefined) s += ` (${e.note})`;
  if (e.rules.length > 0) s += ` [${e.rules.join(', ')}]`;
  return s;
}

/** The answer for people (the native command's `ai_text`). */
function aiText(url, agent, r) {
  const c = r.crawler;
  const kind = c.operator === undefined ? 'not in the operator table' : `${c.operator} ${c.kind}, serves ${labels(c.purposes)}`;
  const out = [`${agent} at ${url}`, `  crawler: ${c.token} (${kind}); crawl gate: ${c.fetch_token}`];
  for (const f of r.fetched) out.push(`  fetched ${f.what} ${f.url}: ${f.status === 0 ? 'no response' : `HTTP ${f.status}`}, ${f.bytes} bytes: ${f.note}`);
  for (const p of ['train-ai', 'ai-use', 'search']) {
    out.push(`${p}: ${r[p].answer}`);
    for (const e of r[p].by) out.push(`  by [${r.trace.indexOf(e)}] ${entryText(e)}`);
  }
  if (r.conditions.length > 0) {
    out.push('conditions:');
    for (const k of r.conditions) out.push(`  ${k.condition} = ${k.value} (${k.signal}, ${k.where.text}; ${labels(k.purposes)}): ${k.note}`);
  }
  out.push('trace:');
  r.trace.forEach((e, i) => out.push(`  [${i}] ${entryText(e)}`));
  return out.join('\n');
}

/** A value with every object's keys sorted, as serde_json's map writes them. */
function sortedKeys(v) {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedKeys(v[k])]));
}

async function ai(argv) {
  const a = readAiArgs(argv);
  if (a === null) return print(help('ai')), 0;
  const options = { purposes: a.purposes.length > 0 ? a.purposes : undefined, policyTokens: a['policy-token'], dialect: a.dialect };
  let robots = null;
  if (a.robots !== undefined && !isUrl(a.robots)) robots = Robots.parse(readInput(a.robots, 'robots.txt'), { dialect: a.dialect });
  else if (a.robots !== undefined) robots = (await loadRobots(a.robots, a, 'robots.txt')).robots;
  const tdmrep = a.tdmrep === undefined ? undefined : a.tdmrep === 'none' ? null : readInput(a.tdmrep, '--tdmrep');
  const html = a.html === undefined ? undefined : readInput(a.html, '--html');
  let answer;
  try {
    if (robots !== null && tdmrep !== undefined && html !== undefined) {
      answer = robots.aiUse(a.url, a.agent, { headers: a.headers, html, tdmrep, purposes: options.purposes, policyTokens: options.policyTokens });
      answer.fetched = [];
    } else {
      // The native command adds --header lines to a fetched page's; fetchAiUse reads the page's own.
      if (html === undefined && a.headers.length > 0) throw new UsageError('--header needs --html in the npm command (a fetched page brings its own headers)');
      const page = html === undefined ? {} : { html, headers: a.headers };
      answer = await fetchAiUse(a.url, a.agent, { ...options, robots, tdmrep, ...page });
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(e.message.replace(/^robots-eval: /, ''));
  } finally {
    robots?.free();
  }
  if (a.json) {
    const out = structuredClone({ ...answer, url: a.url, agent: a.agent });
    for (const p of ['train-ai', 'ai-use', 'search']) out[p].by = answer[p].by.map((e) => answer.trace.indexOf(e));
    out.fetched = answer.fetched.map((f) => ({ what: f.what, url: f.url, status: f.status === 0 ? null : f.status, bytes: f.bytes, note: f.note }));
    print(JSON.stringify(sortedKeys(out), null, 2));
  } else {
    print(aiText(a.url, a.agent, answer));
  }
  return 0;
}

const COMMANDS = { check, lint, table, diff, test, coverage: coverageCommand };

async function main(argv) {
  try {
    if (argv[0] === 'ai') return await ai(argv.slice(1));
    const o = readArgs(argv);
    if (o.command === 'version') return print(`${NAME} ${VERSION}`), 0;
    if (o.help) return print(help(o.command)), 0;
    progress = Progress.for(o);
    return await COMMANDS[o.command](o);
  } catch (e) {
    progress?.clear();
    // Only our own one-line messages for usage and input; anything else is a bug, still one line.
    const msg = e instanceof UsageError ? e.message : `internal error: ${e?.message ?? e}`;
    process.stderr.write(`${NAME}: ${msg}\n`);
    return 2;
  }
}

// A closed pipe (| head) ends the output quietly.
process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? process.exitCode ?? 0 : 2));
process.exitCode = await main(process.argv.slice(2));
