#!/usr/bin/env node
// robots-eval: the command for site owners (check, lint, table, diff, test). It imports the
// package by its own name, so it runs the same WebAssembly build as the library; the native CLI
// (src/bin/robots-eval.rs) takes the same commands and flags and prints the same output, and
// tests/data/cli-cases.json holds the cases both are tested on. docs/cli.md documents it.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Robots, fetchRobots } from 'robots-eval';

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

const FLAGS = { '--json': 'json', '--csv': 'csv', '--markdown': 'markdown', '--strict': 'strict', '--help': 'help', '-h': 'help' };
const VALUES = { '--agent': 'agent', '-a': 'agent', '--dialect': 'dialect', '-d': 'dialect', '--urls': 'urls', '--sitemap': 'sitemap', '--max-bytes': 'maxBytes' };
const ALLOWED = {
  check: ['json', 'agent'],
  lint: ['json', 'strict'],
  table: ['json', 'csv', 'markdown', 'agent', 'urls', 'sitemap'],
  diff: ['json', 'agent', 'urls', 'sitemap'],
  test: [],
};

function parseArgs(argv) {
  if (argv.length === 0) throw new UsageError('missing command (robots-eval --help lists the commands)');
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { command: '', help: true };
  if (command === '--version' || command === '-V') return { command: 'version' };
  if (!(command in ALLOWED)) throw new UsageError(`unknown command ${JSON.stringify(command)} (commands: check, lint, table, diff, test)`);
  const o = { command, positional: [], agent: [], dialect: 'rfc9309', maxBytes: undefined };
  for (let i = 0; i < rest.length; i++) {
    let a = rest[i];
    let inline = null;
    if (a.startsWith('--') && a.includes('=')) [a, inline] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
    if (a in FLAGS && inline === null) {
      o[FLAGS[a]] = true;
    } else if (a in VALUES) {
      const v = inline ?? rest[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      if (VALUES[a] === 'agent') o.agent.push(v);
      else o[VALUES[a]] = v;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a} (robots-eval ${command} --help lists the options)`);
    } else {
      o.positional.push(a);
    }
  }
  if (o.help) return o;
  for (const key of ['json', 'csv', 'markdown', 'strict', 'urls', 'sitemap']) {
    if (o[key] !== undefined && !ALLOWED[command].includes(key)) throw new UsageError(`${command} takes no --${key}`);
  }
  if (o.agent.length && !ALLOWED[command].includes('agent')) throw new UsageError(`${command} takes no --agent`);
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

/** The sitemap protocol's limit: 50 MB (52,428,800 bytes), uncompressed. Larger sitemaps (and gzip bombs) are an input error. */
const SITEMAP_MAX = 52428800;

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
  console.error(`${NAME}: fetched ${url}: HTTP ${res.status}, ${bytes.length} bytes (${what})`);
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
  console.error(`${NAME}: fetched ${s.url}: HTTP ${s.status}${via}: ${s.treatedAs} (${s.reason})`);
  return { robots, lines: s.treatedAs === 'parse' ? splitLines(body) : null, name: s.url, origin: new URL(s.url).origin };
}

/**
 * `file.robots.table(urls, agents)`. A fetched robots.txt refuses absolute URLs of another site;
 * the command reads every URL against the file it was given (as the native command does, which
 * compares staging's file with production's URLs), so such a URL is asked by what follows its
 * authority: the path and query the rules match.
 */
function tableOf(file, urls, agents) {
  const onSite = (u) => {
    const m = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(u);
    if (!m || !URL.canParse(u) || new URL(u).origin === file.origin) return u;
    const rest = u.slice(m[0].length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  };
  return file.robots.table(file.origin ? urls.map(onSite) : urls, agents.map(crawler));
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

/**
 * The file's lines as the core numbers them (LF, CR and CRLF each end one), as they are shown: cut
 * at a NUL (the core reads no further), other control characters but tab as U+FFFD.
 */
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
    const { index, locs } = sitemapLocs(bytes, where);
    if (!index) urls.push(...locs);
    else if (depth > 0) throw new UsageError(`--sitemap: ${where}: a sitemap index inside a sitemap index`);
    else for (const loc of locs) await read(loc, depth + 1);
  };
  await read(o.sitemap, 0);
  return urls;
}

/** The <loc> values of a sitemap or sitemap index (XML, gzipped or not). */
function sitemapLocs(bytes, where) {
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
  const xml = new TextDecoder().decode(bytes);
  const root = /<([A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s>]/.exec(xml);
  if (!root) throw new UsageError(`--sitemap: ${where}: not a sitemap (no <urlset> or <sitemapindex>)`);
  const locs = [...xml.matchAll(/<(?:[A-Za-z_][\w.-]*:)?loc\s*>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?loc\s*>/g)].map((m) => xmlText(m[1]));
  return { index: root[2] === 'sitemapindex', locs: locs.filter((l) => l !== '') };
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** An element's text: CDATA kept, the five entities and character references decoded, trimmed. */
function xmlText(s) {
  const m = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(s);
  if (m) return m[1].trim();
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, e) => {
    if (e[0] !== '#') return ENTITIES[e] ?? all;
    const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  }).trim();
}

// ---- answers ---------------------------------------------------------------------------------

const KIND = { allow: 'Allow', disallow: 'Disallow' };

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
  return { allowed: t.allowed[r][c], reason: t.reasons[r][c], line, rule };
}

/** One answer: { allowed, reason, line, rule }. */
const answer = (file, url, agent) => cell(file, tableOf(file, [url], [agent]), 0, 0);

const WHY = { 'no-match': 'no rule matches', 'no-group': 'no group applies', 'robots-txt': '/robots.txt is always allowed' };
/** "line 3: Disallow: /x (rule)", "no rule matches (no-match)". */
const why = (a) => `${a.rule !== null ? `line ${a.line}: ${a.rule}` : WHY[a.reason] ?? a.reason} (${a.reason})`;
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

const COMMANDS = { check, lint, table, diff, test };

async function main(argv) {
  try {
    const o = parseArgs(argv);
    if (o.command === 'version') return print(`${NAME} ${VERSION}`), 0;
    if (o.help) return print(help(o.command)), 0;
    return await COMMANDS[o.command](o);
  } catch (e) {
    // Only our own one-line messages for usage and input; anything else is a bug, still one line.
    const msg = e instanceof UsageError ? e.message : `internal error: ${e?.message ?? e}`;
    process.stderr.write(`${NAME}: ${msg}\n`);
    return 2;
  }
}

// A closed pipe (| head) ends the output quietly.
process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? process.exitCode ?? 0 : 2));
process.exitCode = await main(process.argv.slice(2));
