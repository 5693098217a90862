// robots.txt playground: the per-URL decision table for any robots.txt, in every dialect.
// Plain ES modules; the only dependency is the package's own wasm build in ./vendor/.

import { PRESETS } from './presets.js';
import { $, el } from './dom.js';
import { defineCoverage } from './coverage.js';
import { Editor } from './editor.js';
import { encodeState, decodeState } from './share.js';
import { DIALECTS, DIALECT_BY_ID, spanLines, ranges, shortText, kindName } from './explain.js';
import { AI_BADGES, AI_LEGEND, SIGNALS, aiSpeaks, signalLines, signalSymbol, signalText, usageSymbol, usageWord } from './explain.js';

const MAX_ROWS = 1000;
const MAX_COLS = 40;

let Robots;
let lib;
let tools; // ./vendor/tools.js: the npm command's sitemap reader (js/sitemap.js)
let editor;
let againstEditor;
const state = {
  text: '',
  bytes: null, // the original bytes of an opened file that is not valid UTF-8, until the first edit
  agents: [],
  urls: [],
  dialect: 'rfc9309',
  compare: false,
  against: null, // the "compare with" text (another version of the file), or null when closed
  sel: [0, 0],
  preset: '',
  // Coverage: the URLs of a pasted or opened sitemap or URL list (null: the table's URLs).
  coverageUrls: null,
  coverageRule: 0, // the line whose URLs are listed
  // Page signals (optional): the response headers ("Name: value" lines), the page's head and the
  // body of /.well-known/tdmrep.json ('' = absent), for aiUse; the same for every URL.
  pageHeaders: '',
  pageHead: '',
  pageTdmrep: '',
};
let model = null;
let dialectsTimer = 0;
const perf = { renders: 0, last: null };
// The coverage chart (www/coverage.js): the core's robots.coverage over the current model.
const { scheduleCoverage, renderCoverage, readCoverageSource, openCoverageFile } = defineCoverage({
  state, model: () => model, tools: () => tools, lineButton: (line) => lineButton(line), lines: (text) => lines(text),
});
window.__playground = perf;

// ---------------------------------------------------------------- evaluation

function parse(dialect) {
  return Robots.parse(state.bytes ?? state.text, { dialect });
}

function lines(s) {
  return s.split('\n').map((x) => x.trim()).filter((x) => x !== '');
}

function freeModel(m) {
  if (!m) return;
  for (const r of [...Object.values(m.robots), m.against]) {
    if (!r) continue;
    try { r.free(); } catch { /* already freed */ }
  }
}

function evaluate() {
  const urls = state.urls.slice(0, MAX_ROWS);
  const agents = state.agents.slice(0, MAX_COLS);
  const robots = {};
  const main = (robots[state.dialect] = parse(state.dialect));
  // The whole grid in one call: verdict, reason and deciding line per cell, and its AI usage
  // preferences (aiPreferences); a package without them leaves `ai` null and the table shows no badges.
  const t = main.table(urls, agents, { ai: true });
  const cells = new Array(urls.length);
  let aiShown = false;
  // "May this crawler use this page for AI?" (aiUse), with the page signals given; a package
  // without it leaves `use` null.
  const signals = pageSignals();
  const given = signals.headers.length > 0 || signals.html !== null || signals.tdmrep !== null;
  for (let r = 0; r < urls.length; r++) {
    const row = (cells[r] = new Array(agents.length));
    for (let c = 0; c < agents.length; c++) {
      const ai = t.ai ? t.ai[r][c] : null;
      if (ai && !aiShown) aiShown = aiSpeaks(ai);
      row[c] = { allowed: t.allowed[r][c], reason: t.reasons[r][c], line: t.lines[r][c], ai, use: null };
    }
  }
  // Asked when page signals are given: a table without them costs what it did, and keeps its
  // Content-Usage and Content-Signal badges alone.
  if (given && typeof main.aiUse === 'function') {
    for (let r = 0; r < urls.length; r++) for (let c = 0; c < agents.length; c++) cells[r][c].use = main.aiUse(urls[r], agents[c], signals);
  }
  // compare with: the other version's verdict and deciding line, per cell
  let against = null;
  if (state.against !== null) {
    against = Robots.parse(state.against, { dialect: state.dialect });
    const ta = against.table(urls, agents);
    for (let r = 0; r < urls.length; r++) {
      for (let c = 0; c < agents.length; c++) cells[r][c].after = { allowed: ta.allowed[r][c], reason: ta.reasons[r][c], line: ta.lines[r][c] };
    }
    because(against, urls, agents, cells.map((row) => row.map((x) => x.after)));
  }
  because(main, urls, agents, cells);
  // compare: the verdict of every dialect, per cell
  let others = null;
  if (state.compare) {
    others = {};
    for (const d of DIALECTS) {
      if (d.id === state.dialect) continue;
      const rd = (robots[d.id] = parse(d.id));
      const v = rd.table(urls, agents).allowed;
      others[d.id] = v;
    }
  }
  return {
    dialect: state.dialect,
    urls,
    agents,
    cells,
    // The badges show once the file says something about AI use for some cell of the table, or
    // page signals are given (then the resolved answers per purpose show in every cell).
    aiShown: aiShown || given,
    pageGiven: given,
    others,
    robots,
    against,
    againstLines: state.against?.split(/\r\n|\r|\n/) ?? [],
    textLines: (state.bytes ? new TextDecoder().decode(state.bytes) : state.text).split('\n'),
    diagnostics: main.diagnostics ?? [],
    sitemaps: main.sitemaps ?? [],
    delays: agents.map((a) => main.crawlDelay(a)),
    groups: agents.map((a) => main.explain('/', a).group),
    truncated: state.urls.length > MAX_ROWS || state.agents.length > MAX_COLS,
  };
}

/** The core's words for each reason (`explain().because`), asked once per reason met. */
const BECAUSE = new Map();

/** Each cell's `because`: the core's words for its reason, from one explain() per reason. */
function because(robots, urls, agents, cells) {
  cells.forEach((row, r) => row.forEach((x, c) => {
    if (!BECAUSE.has(x.reason)) BECAUSE.set(x.reason, robots.explain(urls[r], agents[c]).because);
    x.because = BECAUSE.get(x.reason);
  }));
}

/** The dialects whose verdict for cell (r, c) differs from the current dialect's. */
function disagreeing(m, r, c) {
  if (!m.others) return [];
  const mine = m.cells[r][c].allowed;
  const out = [];
  for (const d of DIALECTS) {
    const v = m.others[d.id];
    if (v && v[r][c] !== mine) out.push(d);
  }
  return out;
}

// ---------------------------------------------------------------- rendering

let tableKey = '';
let cellEls = [];

function splitUrl(url) {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url);
  return m ? [m[1], m[2] || '/'] : ['', url];
}

function buildTable(m) {
  const table = $('decisions');
  const thead = table.tHead;
  const tbody = table.tBodies[0];
  // When every URL is on one origin, rows show paths and the corner names the origin.
  const hosts = new Set(m.urls.map((u) => splitUrl(u)[0]));
  const common = hosts.size === 1 ? [...hosts][0] : '';
  const corner = el('th', { scope: 'col', class: 'corner' }, 'URL', common ? el('span', { class: 'host', text: ` on ${common}` }) : null);
  const hr = el('tr', {}, corner);
  m.agents.forEach((a, c) => hr.append(el('th', { scope: 'col', title: a, 'data-col': c, text: a })));
  thead.replaceChildren(hr);
  cellEls = [];
  const frag = document.createDocumentFragment();
  m.urls.forEach((u, r) => {
    const [host, path] = splitUrl(u);
    const th = el('th', { scope: 'row', 'data-row': r, 'data-url': u, title: u },
      host && !common ? el('span', { class: 'host', text: host }) : null, path);
    const tr = el('tr', {}, th);
    const rowEls = [];
    m.agents.forEach((_, c) => {
      const btn = el('button', { type: 'button', class: 'cell', tabIndex: -1, 'data-row': r, 'data-col': c });
      const td = el('td', { 'data-row': r, 'data-col': c }, btn);
      tr.append(td);
      rowEls.push({ td, btn, key: '' });
    });
    cellEls.push(rowEls);
    frag.append(tr);
  });
  tbody.replaceChildren(frag);
  if (!m.urls.length || !m.agents.length) {
    tbody.append(el('tr', {}, el('td', { class: 'empty-note', colSpan: m.agents.length + 1,
      text: !m.urls.length ? 'Add a URL (one per line) to see verdicts.' : 'Add a crawler (one per line) to see verdicts.' })));
  }
}

const aiClass = (v) => (v === 'y' || v === 'yes' ? 'yes' : v === 'n' || v === 'no' ? 'no' : 'unknown');

/** The badges of a cell's AI usage preferences: train-ai and search (Content-Usage), and Content-Signal. */
function aiBadges(m, ai) {
  const quote = (l) => (l ? `: ${(m.textLines[l - 1] ?? '').trim()}` : '');
  const out = AI_BADGES.map(({ key, short, name }) => {
    const v = ai.contentUsage[key] ?? null;
    const why = ai.why.contentUsage[key];
    const line = why?.line || 0;
    return { ai: key, value: v ?? '', cls: aiClass(v), text: `${short}${usageSymbol(v)}`, lines: line ? [line] : [],
      title: `Content-Usage ${name}: ${usageWord(v)} — ${why?.text ?? 'no answer'}${quote(line)}` };
  });
  const sig = ai.contentSignal;
  const lines = signalLines(ai);
  const given = sig ? SIGNALS.filter((x) => sig[x.key] !== null) : [];
  const values = given.map((x) => sig[x.key]);
  out.push({ ai: 'content-signal', value: sig ? 'set' : 'none', signal: sig, lines,
    cls: !sig ? 'none' : aiClass(values.includes('no') ? 'no' : values.includes('yes') ? 'yes' : null),
    text: `CS ${!sig ? '–' : given.map((x) => `${x.short}${signalSymbol(sig[x.key])}`).join(' ') || '?'}`,
    title: `Content-Signal: ${signalText(sig)}${lines.length ? ` — line ${lines.join(', ')}${lines.length === 1 ? quote(lines[0]) : ''}` : ''}` });
  return out;
}

/** The page signals of the inputs, as aiUse takes them. */
function pageSignals() {
  const headers = [];
  for (const line of state.pageHeaders.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
  }
  return { headers, html: state.pageHead.trim() ? state.pageHead : null, tdmrep: state.pageTdmrep.trim() ? state.pageTdmrep : null };
}

const USE_PURPOSES = [
  { key: 'train-ai', short: 'AI-train', name: 'AI training' },
  { key: 'ai-use', short: 'AI-use', name: 'AI use (input, grounding)' },
  { key: 'search', short: 'Search', name: 'search' },
];
const useSymbol = (a) => (a === 'allow' ? '✓' : a === 'deny' ? '✗' : '?');
const useClass = (a) => (a === 'allow' ? 'yes' : a === 'deny' ? 'no' : 'unknown');


/** The badges of a cell's aiUse answer: one per purpose, with the signals that decided it. */
function useBadges(use) {
  return USE_PURPOSES.map(({ key, short, name }) => {
    const { answer, by } = use[key];
    const lines = by.map((e) => e.where.line).filter((l) => l !== undefined);
    const why = by.length ? by.map((e) => (e.where.text ? `${e.signal} (${e.where.text})` : e.signal)).join(', ') : 'no signal speaks for it';
    return { use: key, value: answer, cls: `use ${useClass(answer)}`, text: `${short} ${useSymbol(answer)}`, lines,
      title: `${name}: ${answer} — ${why}` };
  });
}

function badgeEl(b) {
  const e = el('span', { class: `badge ${b.cls}`, title: b.title, 'data-ai': b.ai ?? null, 'data-use': b.use ?? null, 'data-value': b.value, 'data-lines': b.lines.join(' ') || null, text: b.text });
  if (b.signal) for (const { key } of SIGNALS) e.setAttribute(`data-${key}`, b.signal[key] ?? '');
  return e;
}

function updateCells(m) {
  const [sr, sc] = state.sel ?? [-1, -1];
  let allowed = 0;
  let differ = 0;
  let changed = 0;
  for (let r = 0; r < m.urls.length; r++) {
    for (let c = 0; c < m.agents.length; c++) {
      const ex = m.cells[r][c];
      const diff = disagreeing(m, r, c);
      if (ex.allowed) allowed++;
      if (diff.length) differ++;
      const line = ex.line;
      const sel = r === sr && c === sc;
      const after = ex.after && ex.after.allowed !== ex.allowed ? ex.after : null;
      if (after) changed++;
      const afterKey = ex.after ? `${ex.after.allowed}|${ex.after.line}|${ex.after.line ? m.againstLines[ex.after.line - 1] : ''}` : '';
      const badges = m.aiShown && (ex.ai || ex.use) ? [...(ex.ai ? aiBadges(m, ex.ai) : []), ...(ex.use ? useBadges(ex.use) : [])] : null;
      const aiKey = badges ? badges.map((b) => b.title).join('|') : '';
      const key = `${ex.allowed}|${ex.reason}|${line}|${line ? m.textLines[line - 1] : ''}|${diff.map((d) => d.id).join()}|${sel}|${afterKey}|${aiKey}`;
      const ce = cellEls[r][c];
      if (ce.key === key) continue;
      ce.key = key;
      // A changed cell takes the colour of its new verdict and shows both: ✓ → ✗, L9 → L3.
      const shown = after ?? ex;
      ce.td.className = `${shown.allowed ? 'allow' : 'deny'}${diff.length ? ' diff' : ''}${after ? ' changed' : ''}${sel ? ' selected' : ''}`;
      const word = ex.allowed ? 'allowed' : 'disallowed';
      const afterWord = after ? (after.allowed ? 'allowed' : 'disallowed') : '';
      const ln = (l) => (l ? `L${l}` : '—');
      const kids = [el('span', { class: 'sym', 'aria-hidden': 'true', text: ex.allowed ? '✓' : '✗' })];
      if (after) kids.push(el('span', { class: 'change', 'aria-hidden': 'true', text: '→' }), el('span', { class: 'sym', 'aria-hidden': 'true', text: after.allowed ? '✓' : '✗' }));
      kids.push(el('span', { class: 'word', text: after ? afterWord : word }));
      if (diff.length) kids.push(el('span', { class: 'ndiff', 'aria-hidden': 'true', text: `≠${diff.length}` }));
      kids.push(el('span', { class: 'ln', 'aria-hidden': 'true', text: after ? `${ln(line)} → ${ln(after.line)}` : ln(line) }));
      // The verdict on one line; the AI badges, if any, on the next.
      // (replaceChildren, unlike el(), would show a null argument as the text "null".)
      const verdictEl = el('span', { class: 'v' }, ...kids);
      if (badges) ce.btn.replaceChildren(verdictEl, el('span', { class: 'ai', 'aria-hidden': 'true' }, ...badges.map(badgeEl)));
      else ce.btn.replaceChildren(verdictEl);
      let tip = shortText(ex, line ? (m.textLines[line - 1] ?? '').trim() : '', ex.because);
      if (after) tip = `Before: ${tip}\nAfter (compare with): ${shortText(after, after.line ? (m.againstLines[after.line - 1] ?? '').trim() : '', after.because)}`;
      if (diff.length) tip += `\nDialects that disagree: ${diff.map((d) => `${d.short} ${ex.allowed ? '✗' : '✓'}`).join(', ')}`;
      ce.btn.title = tip;
      const change = after ? `, changes to ${afterWord}${after.line ? ` by line ${after.line} of the compared file` : ''}` : '';
      const aiLabel = badges ? `; ${badges.map((b) => b.title.split(' — ')[0]).join('; ')}` : '';
      ce.btn.setAttribute('aria-label', `${word}${line ? `, line ${line}` : ''}${change}${diff.length ? `, ${diff.length} dialect${diff.length > 1 ? 's' : ''} disagree` : ''}${aiLabel}`);
      ce.btn.setAttribute('aria-pressed', sel ? 'true' : 'false');
      ce.td.dataset.allowed = String(ex.allowed);
      ce.td.dataset.line = line;
      ce.td.dataset.diff = diff.map((d) => d.id).join(' ');
      if (after) {
        ce.td.dataset.afterAllowed = String(after.allowed);
        ce.td.dataset.afterLine = after.line;
      } else {
        delete ce.td.dataset.afterAllowed;
        delete ce.td.dataset.afterLine;
      }
    }
  }
  $('ai-legend').hidden = !m.aiShown;
  $('use-legend').hidden = !m.cells.some((row) => row.some((x) => x.use));
  // roving tabindex
  const focusable = cellEls[sr]?.[sc] ?? cellEls[0]?.[0];
  for (const row of cellEls) for (const ce of row) ce.btn.tabIndex = ce === focusable ? 0 : -1;
  const total = m.urls.length * m.agents.length;
  const parts = [`${m.urls.length} URL${m.urls.length === 1 ? '' : 's'} × ${m.agents.length} crawler${m.agents.length === 1 ? '' : 's'}`,
    `✓ ${allowed} allowed`, `✗ ${total - allowed} disallowed`];
  if (m.others) parts.push(`≠ ${differ} cell${differ === 1 ? '' : 's'} where dialects disagree`);
  if (m.against) parts.push(`→ ${changed} cell${changed === 1 ? '' : 's'} change${changed === 1 ? 's' : ''} with the compared file`);
  if (m.truncated) parts.push(`showing the first ${MAX_ROWS} URLs × ${MAX_COLS} crawlers`);
  $('summary').textContent = parts.join(' · ');
}

function renderTable(m) {
  const key = `${m.urls.join('\n')}\u0000${m.agents.join('\n')}`;
  if (key !== tableKey) {
    tableKey = key;
    buildTable(m);
  }
  updateCells(m);
}

function lineButton(line, label = `line ${line}`) {
  return el('button', { type: 'button', class: 'line-ref', 'data-line': line, text: label });
}

/** The explanation's rows for a cell's AI usage preferences, each value with the line it comes from. */
function explainAi(m, ai, row) {
  const lineRef = (l) => (l ? [' ', lineButton(l), ' ', el('span', { class: 'quote', text: (m.textLines[l - 1] ?? '').trim() })] : []);
  const whys = ai.why.contentUsage;
  if (!aiSpeaks(ai)) {
    // Nothing in the file speaks for this cell: one reason says it for every category.
    const why = Object.values(whys)[0];
    row('AI use', `Unknown for every category: ${why?.text ?? 'no answer'}`, ...lineRef(why?.line), `; ${signalText(null)}.`);
    return;
  }
  const about = 'IETF aipref: the longest matching Content-Usage rule of the crawler’s group, for a URL it may crawl (draft-ietf-aipref-attach §3.1).';
  const keys = Object.keys(ai.contentUsage);
  const one = whys[keys[0]];
  if (keys.every((k) => ai.contentUsage[k] === null && whys[k].text === one.text)) {
    // One reason for every category (a URL that is not crawlable, no rule): said once.
    row('Content-Usage', `Unknown for every category (${keys.join(', ')}): ${one.text}`, ...lineRef(one.line), el('br'), about);
  } else {
    const usage = el('ul', { class: 'ai-list' });
    for (const key of keys) {
      const v = ai.contentUsage[key];
      usage.append(el('li', { 'data-ai': key }, el('span', { class: `badge ${aiClass(v)}`, text: `${key} ${usageSymbol(v)}` }),
        ` ${usageWord(v)}: ${whys[key].text}`, ...lineRef(whys[key].line)));
    }
    row('Content-Usage', usage, about);
  }
  const sig = ai.contentSignal;
  const note = !sig ? ''
    : !ai.allowed ? 'A Content-Signal line has no path, so it is reported for the whole group, this URL too, though the URL is not crawlable.'
      : 'Cloudflare’s Content Signals Policy: yes grants, no reserves, an omitted signal neither grants nor restricts. Kept apart from Content-Usage: no official mapping exists.';
  row('Content-Signal', signalText(sig), ...signalLines(ai).flatMap((l) => [el('br'), ...lineRef(l).slice(1)]), note ? el('br') : '', note);
}

/** The explanation's rows for a cell's aiUse answer: each purpose, the trace, the conditions. */
function explainUse(m, use, row) {
  const answers = el('ul', { class: 'ai-list' });
  for (const { key, name } of USE_PURPOSES) {
    const { answer, by } = use[key];
    const refs = by.map((e) => `[${use.trace.indexOf(e)}]`).join(' ');
    answers.append(el('li', { 'data-use': key }, el('span', { class: `badge use ${useClass(answer)}`, text: `${key} ${useSymbol(answer)}` }),
      ` ${name}: ${answer}${by.length ? `, decided by ${refs}` : ' (no signal speaks for it; nothing is assumed)'}`));
  }
  const c = use.crawler;
  row('AI use, every signal', answers,
    `${c.token}: ${c.known ? `${c.operator} ${c.kind}, serves ${c.purposes.join(', ') || 'no purpose'}` : 'not in the operator table'}; crawl gate ${c.fetch_token} (${use.crawlable ? 'may fetch the URL' : 'may not fetch the URL'}).`);
  const trace = el('ol', { class: 'trace', start: '0' });
  use.trace.forEach((e) => {
    const effects = USE_PURPOSES.filter(({ key }) => e.effect[key] !== null).map(({ key }) => `${key} ${e.effect[key]}`);
    // Where it was found, in the core's words (AiUse's where.text; none for the fetch itself).
    const kids = [el('b', { text: e.signal }), e.where.text ? ` at ${e.where.text}` : ''];
    if (e.where.line) kids.push(' ', lineButton(e.where.line));
    if (e.scope) kids.push(` for ${e.scope}`);
    if (e.raw) kids.push(': ', el('span', { class: 'quote', text: e.raw }));
    kids.push(` → ${effects.length ? effects.join(', ') : 'no effect'}`);
    if (e.error) kids.push(el('br'), el('span', { class: 'error', text: `error: ${e.error}` }));
    if (e.note) kids.push(el('br'), e.note);
    if (!e.visible) kids.push(el('br'), 'Not visible: the crawler may not fetch the URL, so it never sees this.');
    kids.push(el('br'), el('span', { class: 'hint', text: e.rules.join(', ') }));
    trace.append(el('li', { 'data-signal': e.signal }, ...kids));
  });
  row('Trace', trace);
  if (use.conditions.length) {
    const list = el('ul', { class: 'ai-list' });
    for (const k of use.conditions) {
      list.append(el('li', { 'data-condition': k.condition }, el('b', { text: `${k.condition} = ${k.value}` }),
        ` (${k.signal}, ${k.where.text}; ${k.purposes.join(', ')}): ${k.note}`));
    }
    row('Conditions', list);
  }
}

function groupAgentsText(group) {
  if (!group || !Array.isArray(group.agents) || !group.agents.length) return '';
  return group.agents.map((a) => `User-agent: ${a}`).join(', ');
}

function explainCell(m, r, c) {
  const box = $('explain-live');
  if (!m || r == null || !m.cells[r] || !m.cells[r][c]) {
    box.replaceChildren(el('p', { class: 'muted', text: 'Select a cell of the table.' }));
    $('explain-dialects').replaceChildren();
    editor.setMarks({ decide: null, group: [] });
    againstEditor.setMarks({ decide: null });
    return;
  }
  const url = m.urls[r];
  const agent = m.agents[c];
  const ex = m.robots[m.dialect].explain(url, agent);
  const d = DIALECT_BY_ID[m.dialect] ?? DIALECTS[0];
  // The group's lines and every word of why come from the core (explain(): group.lines/ends, group.why, why).
  const gl = spanLines(ex.group);
  const head = el('p', { class: `verdict ${ex.allowed ? 'allow' : 'deny'}` },
    el('span', { 'aria-hidden': 'true', text: ex.allowed ? '✓' : '✗' }),
    el('span', { text: ex.allowed ? 'Allowed' : 'Disallowed' }),
    el('span', { class: 'who', text: `${agent} → ${url} · ${d.name}` }));
  const dl = el('dl', { class: 'why' });
  const row = (term, ...dd) => dl.append(el('dt', { text: term }), el('dd', {}, ...dd));

  // Which group, and why that one.
  if (ex.group) {
    const agentsText = groupAgentsText(ex.group);
    row('Group', lineButton(ex.group.lines[0], `${gl.length > 1 ? 'lines' : 'line'} ${ranges(gl)}`), agentsText ? ' ' : '',
      agentsText ? el('span', { class: 'quote', text: agentsText }) : '', el('br'), ex.group.why);
  } else {
    row('Group', 'None.');
  }

  // Which rule, or why none.
  const ignoredAllows = m.diagnostics.filter((g) => g.code === 'allow-ignored' && gl.includes(g.line));
  if (ex.reason === 'rule' && ex.rule) {
    const text = editor.line(ex.rule.line).trim() || `${kindName(ex.rule.kind)}: ${ex.rule.pattern}`;
    row('Rule', lineButton(ex.rule.line), ' ', el('span', { class: 'quote', text }),
      ' matches the path ', el('span', { class: 'quote', text: ex.path }), '.', el('br'), ex.why);
  } else {
    row('Rule', ex.rule ? lineButton(ex.rule.line) : '', ex.rule ? ' ' : '', ex.why);
  }
  if (m.cells[r][c].ai) explainAi(m, m.cells[r][c].ai, row);
  if (m.cells[r][c].use) explainUse(m, m.cells[r][c].use, row);
  // compare with: the other version's answer for this cell, with its deciding line.
  const after = m.cells[r][c].after;
  if (after) {
    const text = after.line ? (m.againstLines[after.line - 1] ?? '').trim() : '';
    const moved = after.allowed !== ex.allowed;
    row('Compare with', el('span', { class: after.allowed ? 'allow' : 'deny', text: `${moved ? 'Changes to' : 'Stays'} ${after.allowed ? 'allowed' : 'disallowed'}` }),
      after.line ? ` by line ${after.line} ` : '', text ? el('span', { class: 'quote', text }) : '',
      after.line ? '' : ` (${after.because})`, ' of the compared file.');
  }
  if (ignoredAllows.length) {
    row('Note', `This dialect has no Allow: `, ...ignoredAllows.flatMap((g, i) => [i ? ', ' : '', lineButton(g.line)]),
      ` ${ignoredAllows.length > 1 ? 'are' : 'is'} ignored.`);
  }

  // Every dialect's verdict for this cell: filled in just after, so typing never waits for it.
  const dt = el('table', { class: 'dialects' });
  dt.append(el('caption', { class: 'visually-hidden', text: 'This cell in every dialect' }));
  dt.append(el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Dialect' }), el('th', { scope: 'col', text: 'Verdict' }),
    el('th', { scope: 'col', text: 'Why' }))));
  const tb = el('tbody');
  dt.append(tb);
  box.replaceChildren(head, dl);
  $('explain-dialects').replaceChildren(dt);
  clearTimeout(dialectsTimer);
  const fill = () => {
    if (model !== m) return;
    const rows = [];
    for (const dd of DIALECTS) {
      let r2 = m.robots[dd.id];
      if (!r2) r2 = m.robots[dd.id] = parse(dd.id);
      const e2 = r2.explain(url, agent);
      rows.push(el('tr', { class: dd.id === m.dialect ? 'current' : '' },
        el('th', { scope: 'row', text: dd.name }),
        el('td', { class: e2.allowed ? 'allow' : 'deny', text: `${e2.allowed ? '✓ allowed' : '✗ disallowed'}` }),
        el('td', {}, e2.rule ? lineButton(e2.rule.line, `line ${e2.rule.line}`) : '—', ' ', el('span', { class: 'muted', text: e2.because }))));
    }
    tb.replaceChildren(...rows);
  };
  // All dialects are parsed already in compare mode; otherwise parse them off the typing path.
  if (m.others) fill();
  else dialectsTimer = setTimeout(fill, 120);
  editor.setMarks({ decide: ex.rule ? ex.rule.line : null, group: gl });
  if (after) {
    againstEditor.setMarks({ decide: after.line || null });
    if (after.line) againstEditor.reveal(after.line);
  }
}

const SEV_SYMBOL = { error: '✖', warning: '▲', info: 'ℹ' };

function renderDiagnostics(m) {
  const ul = $('diagnostics');
  const list = [...m.diagnostics].sort((a, b) => a.line - b.line);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of list) counts[d.severity] = (counts[d.severity] || 0) + 1;
  $('diag-count').textContent = list.length
    ? `(${[counts.error && `${counts.error} error${counts.error > 1 ? 's' : ''}`, counts.warning && `${counts.warning} warning${counts.warning > 1 ? 's' : ''}`, counts.info && `${counts.info} note${counts.info > 1 ? 's' : ''}`].filter(Boolean).join(', ')})`
    : '';
  if (!list.length) {
    ul.replaceChildren(el('li', { class: 'muted', text: `No findings in the ${DIALECT_BY_ID[m.dialect]?.name ?? m.dialect} dialect.` }));
  } else {
    const shown = list.slice(0, 500);
    ul.replaceChildren(...shown.map((d) => el('li', {}, el('button', {
      type: 'button', class: `diag ${d.severity}`, 'data-line': d.line, 'data-code': d.code,
      title: d.line ? `Go to line ${d.line}` : 'The whole file',
    },
    el('span', { class: 'dl', text: d.line ? `line ${d.line}` : 'file' }),
    el('span', { class: 'sev', 'aria-hidden': 'true', text: SEV_SYMBOL[d.severity] ?? '•' }),
    el('span', {}, el('span', { class: 'visually-hidden', text: `${d.severity}: ` }), d.message, ' ', el('span', { class: 'code-name', text: d.code }))))));
    if (list.length > shown.length) ul.append(el('li', { class: 'muted', text: `… and ${list.length - shown.length} more` }));
  }
  editor.setMarks({ diags: list });
}

function renderAgents(m) {
  const tb = $('agents-table').tBodies[0];
  if (!m.agents.length) {
    tb.replaceChildren(el('tr', {}, el('td', { colSpan: 3, class: 'muted', text: 'No crawlers.' })));
  } else {
    tb.replaceChildren(...m.agents.map((a, i) => {
      const g = m.groups[i];
      const gl = spanLines(g);
      const delay = m.delays[i];
      return el('tr', {},
        el('th', { scope: 'row', text: a }),
        el('td', {}, g ? el('span', {}, lineButton(g.lines[0], `${gl.length > 1 ? 'lines' : 'line'} ${ranges(gl)}`), ' ', g.by === 'global' ? 'User-agent: * (no group names it)' : groupAgentsText(g)) : el('span', { class: 'muted', text: 'none — unrestricted' })),
        el('td', { text: delay === undefined || delay === null ? '—' : `${delay} s` }));
    }));
  }
  const sm = $('sitemaps');
  sm.replaceChildren(...(m.sitemaps.length ? m.sitemaps.map((s) => el('li', { text: s })) : [el('li', { class: 'muted', text: 'None declared (Sitemap lines apply to the whole file, not to a crawler).' })]));
}

function renderMeta() {
  const text = state.bytes ? null : state.text;
  const size = state.bytes ? state.bytes.length : new TextEncoder().encode(text).length;
  const kb = size >= 1024 ? `${(size / 1024).toFixed(1)} KB` : `${size} bytes`;
  const preset = PRESETS.find((p) => p.id === state.preset);
  $('file-meta').textContent = `${preset ? `${preset.label.split(' (')[0]} · ` : ''}${kb} · ${editor.lineCount} lines${state.bytes ? ' · not UTF-8: evaluating the original bytes until you edit' : ''}`;
  $('preset').value = preset ? preset.id : '';
  $('dialect-note').textContent = DIALECT_BY_ID[state.dialect]?.about ?? '';
}

function render() {
  const t0 = performance.now();
  const m = evaluate();
  const t1 = performance.now();
  freeModel(model);
  model = m;
  hoverLines(''); // the badge under the pointer may be gone, or now stand for another line
  renderTable(m);
  if (state.sel) {
    const [r, c] = state.sel;
    if (r >= m.urls.length || c >= m.agents.length) state.sel = m.urls.length && m.agents.length ? [Math.min(r, m.urls.length - 1), Math.min(c, m.agents.length - 1)] : null;
    if (state.sel) updateCells(m);
  }
  const t2a = performance.now();
  renderDiagnostics(m);
  const t2b = performance.now();
  explainCell(m, state.sel?.[0], state.sel?.[1]);
  const t2c = performance.now();
  renderAgents(m);
  renderMeta();
  const t2 = performance.now();
  perf.parts = { table: t2a - t1, diagnostics: t2b - t2a, explain: t2c - t2b, rest: t2 - t2c };
  perf.renders++;
  perf.last = { evaluateMs: t1 - t0, domMs: t2 - t1, totalMs: t2 - t0, cells: m.urls.length * m.agents.length, compare: !!m.others };
  $('render-time').textContent = `${(t2 - t0).toFixed(1)} ms`;
  if (document.body.dataset.ready !== 'true') renderCoverage();
  else scheduleCoverage();
  document.body.dataset.ready = 'true';
  scheduleHash();
}

let frame = 0;
function scheduleRender() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    render();
  });
}

// ---------------------------------------------------------------- selection and keyboard

let hovered = '';
/** lines: "29" or "29 31" (a badge's data-lines), or '' for none. */
function hoverLines(lines) {
  if (lines === hovered) return;
  hovered = lines;
  const list = lines ? lines.split(' ').map(Number) : [];
  editor.setMarks({ hover: list });
  if (list.length) editor.reveal(list[0]);
}

function select(r, c, { focus = false } = {}) {
  if (!model || !cellEls[r]?.[c]) return;
  state.sel = [r, c];
  updateCells(model);
  explainCell(model, r, c);
  const ce = cellEls[r][c];
  if (focus) ce.btn.focus();
  const line = model.cells[r][c].line;
  if (line) editor.reveal(line);
  scheduleHash();
}

function onTableKey(e) {
  const btn = e.target.closest('button.cell');
  if (!btn || !model) return;
  let r = +btn.dataset.row;
  let c = +btn.dataset.col;
  const rows = model.urls.length;
  const cols = model.agents.length;
  switch (e.key) {
    case 'ArrowUp': r = Math.max(0, r - 1); break;
    case 'ArrowDown': r = Math.min(rows - 1, r + 1); break;
    case 'ArrowLeft': c = Math.max(0, c - 1); break;
    case 'ArrowRight': c = Math.min(cols - 1, c + 1); break;
    case 'Home': c = 0; if (e.ctrlKey) r = 0; break;
    case 'End': c = cols - 1; if (e.ctrlKey) r = rows - 1; break;
    case 'PageUp': r = Math.max(0, r - 10); break;
    case 'PageDown': r = Math.min(rows - 1, r + 10); break;
    default: return;
  }
  e.preventDefault();
  select(r, c, { focus: true });
}

// ---------------------------------------------------------------- state in and out

function applyState(s) {
  state.text = s.text ?? '';
  state.bytes = s.bytes ?? null;
  state.agents = s.agents ?? [];
  state.urls = s.urls ?? [];
  state.dialect = DIALECT_BY_ID[s.dialect] ? s.dialect : 'rfc9309';
  state.compare = !!s.compare;
  state.against = typeof s.against === 'string' ? s.against : null;
  state.sel = s.sel ?? [0, 0];
  state.preset = s.preset ?? PRESETS.find((p) => p.text === state.text && !state.bytes)?.id ?? '';
  editor.value = state.bytes ? new TextDecoder().decode(state.bytes) : state.text;
  $('agents').value = state.agents.join('\n');
  $('urls').value = state.urls.join('\n');
  $('dialect').value = state.dialect;
  $('compare').checked = state.compare;
  showAgainst();
}

/** Shows or hides the "compare with" editor as state.against says. */
function showAgainst() {
  const open = state.against !== null;
  $('against-panel').hidden = !open;
  $('against-open').setAttribute('aria-expanded', String(open));
  if (open && againstEditor.value !== state.against) againstEditor.value = state.against;
  if (!open) againstEditor.setMarks({ decide: null });
}

function loadPreset(id) {
  const p = PRESETS.find((x) => x.id === id) ?? PRESETS[0];
  applyState({ text: p.text, agents: p.agents, urls: p.urls, dialect: state.dialect, compare: state.compare, against: state.against, sel: [0, 0], preset: p.id });
  render();
}

let hashTimer = 0;
let lastHash = '';
function scheduleHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHash, 400);
}

async function currentLink() {
  const frag = await encodeState(state);
  return { frag, href: `${location.href.split('#')[0]}#${frag}` };
}

async function writeHash() {
  const { frag } = await currentLink();
  if (frag === lastHash) return;
  lastHash = frag;
  history.replaceState(null, '', `#${frag}`);
}

async function readHash() {
  const h = location.hash;
  if (!h || h.length < 3 || h.slice(1) === lastHash) return false;
  try {
    const s = await decodeState(h);
    if (!s) return false;
    lastHash = h.slice(1);
    applyState(s);
    return true;
  } catch {
    toast('This link is damaged; showing the default example.');
    return false;
  }
}

// ---------------------------------------------------------------- copy, files, toast

let toastTimer = 0;
function toast(msg) {
  const t = $('status');
  t.textContent = msg;
  t.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove('show'), 2200);
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = el('textarea', { class: 'visually-hidden' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  toast(`${what} copied`);
}

function tableMarkdown(m) {
  const esc = (s) => s.replace(/\|/g, '\\|');
  const head = `| URL | ${m.agents.map(esc).join(' | ')} |`;
  const sep = `|---|${m.agents.map(() => ':---:').join('|')}|`;
  const rows = m.urls.map((u, r) => `| ${esc(u)} | ${m.cells[r].map((ex, c) => {
    const diff = disagreeing(m, r, c);
    const after = ex.after && ex.after.allowed !== ex.allowed ? ` → ${ex.after.allowed ? '✓ allowed' : '✗ disallowed'}${ex.after.line ? ` (line ${ex.after.line})` : ''}` : '';
    const ai = m.aiShown && ex.ai ? ` · ${aiBadges(m, ex.ai).map((b) => b.text).join(' ')}` : '';
    return `${ex.allowed ? '✓ allowed' : '✗ disallowed'}${ex.line ? ` (line ${ex.line})` : ''}${after}${diff.length ? ` ≠ ${diff.map((d) => d.short).join(', ')}` : ''}${ai}`;
  }).join(' | ')} |`);
  return [`Dialect: ${DIALECT_BY_ID[m.dialect]?.name ?? m.dialect}`, '', head, sep, ...rows, ...(m.aiShown ? ['', AI_LEGEND] : []), ''].join('\n');
}

function tableCsv(m) {
  const q = (s) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const rows = [['url', ...m.agents].map(q).join(',')];
  m.urls.forEach((u, r) => rows.push([u, ...m.cells[r].map((ex) => (ex.allowed ? 'allowed' : 'disallowed'))].map(q).join(',')));
  return rows.join('\r\n') + '\r\n';
}

async function openFile(file) {
  if (!file) return;
  if (file.size > 5 * 1024 * 1024) {
    toast('That file is larger than 5 MB; a robots.txt is read up to 500 KiB.');
    return;
  }
  const buf = new Uint8Array(await file.arrayBuffer());
  let text;
  let bytes = null;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    bytes = buf;
    text = new TextDecoder().decode(buf);
  }
  applyState({ text, bytes, agents: state.agents, urls: state.urls, dialect: state.dialect, compare: state.compare, against: state.against, sel: state.sel, preset: '' });
  render();
  toast(`Opened ${file.name}`);
}

// ---------------------------------------------------------------- start

function showFatal(msg) {
  const box = el('div', { class: 'error-box', role: 'alert' }, msg);
  document.body.prepend(box);
}

async function main() {
  try {
    lib = await import('./vendor/robots-eval.js');
    ({ Robots } = lib);
    if (!Robots) throw new Error('the module has no Robots export');
    tools = await import('./vendor/tools.js');
  } catch (e) {
    showFatal(`Could not load the robots-eval WebAssembly build from ./vendor/ (${e.message}). Run “npm start” or “npm run build:www”.`);
    console.warn(e);
    return;
  }
  editor = new Editor($('robots'), $('gutter'), $('overlay'));
  againstEditor = new Editor($('against'), $('against-gutter'), $('against-overlay'));

  const presetSel = $('preset');
  presetSel.append(el('option', { value: '', text: '— your own —', disabled: true }));
  for (const p of PRESETS) presetSel.append(el('option', { value: p.id, text: p.label }));
  const dsel = $('dialect');
  for (const d of DIALECTS) dsel.append(el('option', { value: d.id, text: d.name }));

  // inputs
  $('robots').addEventListener('input', () => {
    state.text = editor.value;
    state.bytes = null;
    state.preset = '';
    editor.refresh();
    scheduleRender();
  });
  $('agents').addEventListener('input', (e) => { state.agents = lines(e.target.value); scheduleRender(); });
  $('urls').addEventListener('input', (e) => { state.urls = lines(e.target.value); scheduleRender(); });
  $('page-headers').addEventListener('input', (e) => { state.pageHeaders = e.target.value; scheduleRender(); });
  $('page-head').addEventListener('input', (e) => { state.pageHead = e.target.value; scheduleRender(); });
  $('page-tdmrep').addEventListener('input', (e) => { state.pageTdmrep = e.target.value; scheduleRender(); });
  dsel.addEventListener('change', () => { state.dialect = dsel.value; render(); });
  $('compare').addEventListener('change', (e) => { state.compare = e.target.checked; render(); });
  // compare with: opens on a copy of the current text, to edit into the proposed version
  $('against-open').addEventListener('click', () => {
    if (state.against === null) state.against = editor.value;
    showAgainst();
    $('against').focus();
    render();
  });
  $('against-close').addEventListener('click', () => {
    state.against = null;
    showAgainst();
    $('against-open').focus();
    render();
  });
  $('against').addEventListener('input', () => {
    state.against = againstEditor.value;
    againstEditor.refresh();
    scheduleRender();
  });
  presetSel.addEventListener('change', () => loadPreset(presetSel.value));

  // coverage: a pasted or opened sitemap or URL list; a click on a bar lists its URLs
  $('coverage-urls').addEventListener('input', (e) => { readCoverageSource(e.target.value); scheduleCoverage(); });
  $('coverage-file').addEventListener('change', (e) => { openCoverageFile(e.target.files[0]); e.target.value = ''; });
  $('coverage-chart').addEventListener('click', (e) => {
    const b = e.target.closest('button.bar-row');
    if (!b) return;
    state.coverageRule = +b.dataset.line;
    for (const row of $('coverage-chart').querySelectorAll('button.bar-row')) row.setAttribute('aria-pressed', String(row === b));
    renderCoverage();
    if (state.coverageRule) editor.reveal(state.coverageRule);
  });
  readCoverageSource('');

  // table
  const tbody = $('decisions').tBodies[0];
  tbody.addEventListener('click', (e) => {
    const b = e.target.closest('button.cell');
    if (b) select(+b.dataset.row, +b.dataset.col, { focus: true });
  });
  tbody.addEventListener('keydown', onTableKey);
  // Hovering a badge highlights the line its value comes from (the editor's marks, as for a selected cell's deciding line).
  tbody.addEventListener('mouseover', (e) => hoverLines(e.target.closest('.badge')?.dataset.lines ?? ''));
  tbody.addEventListener('mouseleave', () => hoverLines(''));

  // line links anywhere (explanation, diagnostics, per-crawler)
  document.addEventListener('click', (e) => {
    const b = e.target.closest('button.line-ref, button.diag');
    if (!b) return;
    const line = +b.dataset.line;
    if (line > 0) editor.jump(line);
  });

  // copy / share
  $('copy-md').addEventListener('click', () => model && copyText(tableMarkdown(model), 'Markdown table'));
  $('copy-csv').addEventListener('click', () => model && copyText(tableCsv(model), 'CSV'));
  $('share').addEventListener('click', async () => {
    const { frag, href } = await currentLink();
    lastHash = frag;
    history.replaceState(null, '', `#${frag}`);
    await copyText(href, 'Share link');
  });

  // files: picker and drag-and-drop
  $('file').addEventListener('change', (e) => { openFile(e.target.files[0]); e.target.value = ''; });
  const zone = $('drop-zone');
  const ed = $('editor');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); ed.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => ed.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    ed.classList.remove('dragging');
    openFile(e.dataTransfer?.files?.[0]);
  });

  window.addEventListener('hashchange', async () => { if (await readHash()) render(); });

  if (!(await readHash())) {
    const p = PRESETS[0];
    applyState({ text: p.text, agents: p.agents, urls: p.urls, dialect: 'rfc9309', compare: false, against: null, sel: [0, 0], preset: p.id });
  }
  render();
  const v = lib.version ?? '';
  $('version').textContent = v ? `v${v}` : '';
}

main();
