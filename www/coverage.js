// The coverage chart: which rule of the current file decides how many of a sitemap's URLs (or
// the table's) for the table's crawlers, and the URLs of the rule clicked. The computation is
// the core's (robots.coverage, src/coverage.rs); this file renders it and reads the sitemap or URL
// list given.

import { $, el } from './dom.js';

/**
 * The chart over the playground's `state` (coverageUrls, coverageRule), its current `model()`,
 * the command's `tools()` (www/vendor/tools.js), `lineButton(line)` (a button that shows a line
 * in the editor) and `lines(text)` (the playground's line splitter).
 */
export function defineCoverage({ state, model, tools, lineButton, lines }) {
  let coverageTimer = 0;
  /** Coverage is computed off the typing path (a sitemap may hold 50,000 URLs). */
  function scheduleCoverage() {
    clearTimeout(coverageTimer);
    coverageTimer = setTimeout(renderCoverage, 150);
  }

  const fmt = (n) => n.toLocaleString('en-US');
  const plural = (n, word) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

  /** The coverage of the current file for the table's crawlers, over the sitemap's URLs or the table's. */
  function renderCoverage() {
    const m = model();
    const chart = $('coverage-chart');
    if (!m) return;
    const urls = state.coverageUrls ?? m.urls;
    const agents = m.agents;
    if (!urls.length || !agents.length) {
      chart.replaceChildren(el('p', { class: 'muted', text: !urls.length ? 'No URLs: paste a sitemap or a URL list, or add URLs to the table.' : 'Add a crawler to see which rule decides what.' }));
      $('coverage-summary').textContent = '';
      $('coverage-detail').replaceChildren();
      return;
    }
    const robots = m.robots[m.dialect];
    // The core's indices (URLs, agents) as the URLs and crawlers the user wrote.
    const core = robots.coverage(urls, agents);
    const c = { ...core, rules: core.rules.map((r) => ({ ...r, urls: r.urls.map((u) => urls[u]), agents: r.agents.map((a) => [agents[a.agent], a.answers]) })) };
    const most = Math.max(1, ...c.rules.map((r) => r.allowed + r.disallowed), c.noRule.allowed + c.noRule.disallowed);
    // (Widths through the CSSOM: the page's CSP allows no style attributes.)
    const part = (cls, n) => {
      const e = el('span', { class: cls });
      e.style.width = `${(100 * n) / most}%`;
      return e;
    };
    const bar = (allowed, disallowed) => el('span', { class: 'bars', 'aria-hidden': 'true' }, part('a', allowed), part('d', disallowed));
    const rows = c.rules.map((r) => {
      const idle = r.status !== 'decides';
      const tag = r.status === 'shadowed' ? `shadowed: matches ${plural(r.matched, 'URL')}` : r.status === 'unmatched' ? 'matches no URL' : '';
      const n = r.allowed + r.disallowed;
      return el('button', {
        type: 'button', class: `bar-row${idle ? ' idle' : ''}`, 'data-line': r.line, 'data-allowed': r.allowed, 'data-disallowed': r.disallowed, 'data-status': r.status,
        'aria-pressed': String(state.coverageRule === r.line),
        'aria-label': `Line ${r.line}, ${r.text}: ${plural(n, 'answer')}, ${fmt(r.allowed)} allowed, ${fmt(r.disallowed)} disallowed${tag ? `; ${tag}` : ''}`,
        title: `${r.text}\n${r.agents.map(([a, k]) => `${a}: ${fmt(k)}`).join(', ')}`,
      }, el('span', { class: 'bl', text: `L${r.line}` }), el('span', { class: 'br', text: r.text }),
      // A rule that decides nothing has no bar: in its place, why.
      idle ? el('span', { class: 'tag', text: tag }) : bar(r.allowed, r.disallowed),
      el('span', { class: 'bn', text: `${fmt(r.allowed)} ✓ ${fmt(r.disallowed)} ✗` }));
    });
    const none = c.noRule.allowed + c.noRule.disallowed;
    rows.push(el('div', { class: 'bar-row none', 'data-line': 0, 'data-allowed': c.noRule.allowed, 'data-disallowed': c.noRule.disallowed },
      el('span', { class: 'bl', text: '—' }), el('span', { class: 'br muted', text: 'no rule (allowed)' }), bar(c.noRule.allowed, c.noRule.disallowed),
      el('span', { class: 'bn', text: `${fmt(c.noRule.allowed)} ✓ ${fmt(c.noRule.disallowed)} ✗` })));
    chart.replaceChildren(...rows);
    const idle = c.rules.filter((r) => r.status !== 'decides').length;
    $('coverage-summary').textContent = `${plural(urls.length, 'URL')} × ${plural(agents.length, 'crawler')} · ${plural(c.rules.length, 'rule')}${idle ? `, ${fmt(idle)} deciding nothing` : ''}${c.otherGroups ? ` · ${plural(c.otherGroups, 'rule')} of other crawlers' groups` : ''}`;
    coverageDetail(c.rules.find((r) => r.line === state.coverageRule) ?? null);
  }

  /** The URLs a rule decides, under the chart. */
  function coverageDetail(r) {
    const box = $('coverage-detail');
    if (!r) {
      box.replaceChildren(el('p', { class: 'muted', text: 'Click a bar to list the URLs its rule decides.' }));
      return;
    }
    const SHOWN = 500;
    const what = r.status === 'shadowed' ? `decides nothing: it matches ${plural(r.matched, 'URL')}, but another rule decides each, so it can go.`
      : r.status === 'unmatched' ? 'decides nothing: it matches none of these URLs.'
        : `decides ${plural(r.allowed + r.disallowed, 'answer')}: ${fmt(r.allowed)} allowed, ${fmt(r.disallowed)} disallowed (${r.agents.map(([a, k]) => `${a} ${fmt(k)}`).join(', ')}).`;
    const list = el('ul', { class: 'coverage-urls' }, ...r.urls.slice(0, SHOWN).map((u) => el('li', { text: u })));
    // (replaceChildren would show a null argument as the text "null": only the parts there are.)
    const parts = [el('p', {}, lineButton(r.line), ' ', el('span', { class: 'quote', text: r.text }), ` ${what}`)];
    if (r.urls.length) parts.push(el('p', { class: 'muted', text: `The URLs it decides (${fmt(r.urls.length)}):` }), list);
    if (r.urls.length > SHOWN) parts.push(el('p', { class: 'muted', text: `… and ${fmt(r.urls.length - SHOWN)} more` }));
    box.replaceChildren(...parts);
  }

  /** A pasted or opened sitemap or URL list: its URLs, or null when empty (the table's URLs). */
  function readCoverageSource(text, name = '') {
    const meta = $('coverage-source-meta');
    const trimmed = text.trim();
    if (!trimmed) {
      state.coverageUrls = null;
      meta.textContent = 'Using the table\'s URLs.';
      return;
    }
    if (trimmed.startsWith('<')) {
      try {
        const { index, locs } = tools().sitemapLocs(text);
        if (index) {
          state.coverageUrls = [];
          meta.textContent = `${name || 'This'} is a sitemap index: open its sitemaps (${locs.slice(0, 3).join(', ')}${locs.length > 3 ? ', …' : ''}).`;
          return;
        }
        state.coverageUrls = locs;
        meta.textContent = `${name ? `${name}: ` : ''}a sitemap of ${plural(locs.length, 'URL')}.`;
      } catch (e) {
        state.coverageUrls = [];
        meta.textContent = `${name ? `${name}: ` : ''}${e instanceof tools().SitemapError ? e.message : `cannot read it (${e.message})`}.`;
      }
      return;
    }
    state.coverageUrls = lines(text).filter((l) => !l.startsWith('#'));
    meta.textContent = `${name ? `${name}: ` : ''}${plural(state.coverageUrls.length, 'URL')}.`;
  }

  /** A sitemap file (gzipped too), at most the protocol's 50 MB uncompressed. */
  async function openCoverageFile(file) {
    if (!file) return;
    let bytes = new Uint8Array(await file.arrayBuffer());
    try {
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        const out = new DecompressionStream('gzip');
        const chunks = [];
        let size = 0;
        const reader = new Blob([bytes]).stream().pipeThrough(out).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.length;
          if (size > tools().SITEMAP_MAX) {
            reader.cancel();
            throw new Error('larger than 52,428,800 bytes uncompressed, the sitemap protocol\'s limit');
          }
          chunks.push(value);
        }
        bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      } else if (bytes.length > tools().SITEMAP_MAX) {
        throw new Error('larger than 52,428,800 bytes, the sitemap protocol\'s limit');
      }
    } catch (e) {
      $('coverage-source-meta').textContent = `${file.name}: ${e.message.startsWith('larger') ? e.message : 'not valid gzip'}.`;
      state.coverageUrls = [];
      scheduleCoverage();
      return;
    }
    const text = new TextDecoder().decode(bytes);
    // The textarea shows a large file's start only; the URLs come from all of it.
    $('coverage-urls').value = text.length > 200000 ? '' : text;
    readCoverageSource(text, file.name);
    renderCoverage();
  }

  return { scheduleCoverage, renderCoverage, readCoverageSource, openCoverageFile };
}
