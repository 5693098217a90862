// metaRobots / xRobotsTag: the core's robots_eval::meta through the packed package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { metaRobots, xRobotsTag } from 'robots-eval';

const DEFAULTS = {
  index: true, follow: true, archive: true, snippet: true, maxSnippet: null, maxImagePreview: null, maxVideoPreview: null,
  imageIndex: true, translate: true, unavailableAfter: null, indexIfEmbedded: false,
};
const NO_OTHER = { description: null, keywords: [], documentState: null, url: null, revisitAfter: null };
const resolved = (m) => Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, m[k]]));
const page = (head) => `<!doctype html><html><head><title>t</title>${head}</head><body><p>x</p></body></html>`;

test('no tags: the defaults, as a plain object', () => {
  const m = metaRobots(page(''), 'Googlebot');
  assert.deepEqual(m, { ...DEFAULTS, directives: [], other: NO_OTHER, truncated: false });
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
});

test('attribute order, case, quoting and whitespace are free', () => {
  for (const tag of [
    '<meta name="robots" content="noindex, nofollow">',
    '<meta content="noindex, nofollow" name="robots">',
    "<META CONTENT='NOINDEX,NOFOLLOW' NAME='ROBOTS'>",
    '<meta\n  content = "noindex , nofollow"\n  name = robots\n/>',
    '<meta name=robots content=noindex,nofollow>',
  ]) {
    const m = metaRobots(page(tag), 'bot');
    assert.equal(m.index, false, tag);
    assert.equal(m.follow, false, tag);
    assert.deepEqual(m.directives.map((d) => d.kind), ['noindex', 'nofollow'], tag);
    assert.ok(m.directives.every((d) => d.scope === null && d.origin === 'meta'), tag);
  }
  const raw = metaRobots(page("<META CONTENT='NOINDEX,NOFOLLOW' NAME='ROBOTS'>"), 'bot').directives.map((d) => d.raw);
  assert.deepEqual(raw, ['NOINDEX', 'NOFOLLOW']);
});

test('character references are decoded in names and values', () => {
  const m = metaRobots(page('<meta name="r&#111;bots" content="noindex&#44; max&#x2D;snippet:5"><meta name="description" content="Tom &amp; Jerry &quot;live&quot; &lt;3">'), 'bot');
  assert.deepEqual(m.directives.map((d) => [d.kind, d.raw]), [['noindex', 'noindex'], ['max-snippet', 'max-snippet:5']]);
  assert.equal(m.maxSnippet, 5);
  assert.equal(m.other.description, 'Tom & Jerry "live" <3');
});

test('comments, scripts and the body are not read', () => {
  const m = metaRobots(`<html><head>
    <!-- <meta name="robots" content="none"> -->
    <script>document.write('<meta name="robots" content="noarchive">')</script>
    <style>/* <meta name="robots" content="nosnippet"> */</style>
    <meta name="robots" content="notranslate">
    </head><body><meta name="robots" content="noindex"></body></html>`, 'bot');
  assert.deepEqual(m.directives.map((d) => d.kind), ['notranslate']);
  assert.deepEqual(resolved(m), { ...DEFAULTS, translate: false });
});

test('agent-specific names: the crawler\'s own, its family\'s, never another\'s', () => {
  const html = page(`<meta name="robots" content="max-snippet:50">
    <meta name="googlebot" content="noindex">
    <meta name="googlebot-news" content="nosnippet">
    <meta name="bingbot" content="nofollow, noarchive">`);
  const gb = metaRobots(html, 'Googlebot');
  assert.deepEqual(gb.directives.map((d) => [d.kind, d.scope]), [['max-snippet', null], ['noindex', 'googlebot']]);
  assert.deepEqual(resolved(gb), { ...DEFAULTS, index: false, maxSnippet: 50 });
  // A User-Agent is cut to its product token; googlebot applies to googlebot-news too.
  const news = metaRobots(html, 'Googlebot-News/2.1');
  assert.deepEqual(news.directives.map((d) => d.scope), [null, 'googlebot', 'googlebot-news']);
  assert.deepEqual(resolved(news), { ...DEFAULTS, index: false, snippet: false, maxSnippet: 0 });
  const bing = metaRobots(html, 'Mozilla/5.0 (compatible; bingbot/2.0)');
  assert.equal(bing.follow, true, 'the User-Agent\'s first token is Mozilla, not bingbot');
  const bingToken = metaRobots(html, 'bingbot');
  assert.deepEqual(resolved(bingToken), { ...DEFAULTS, follow: false, archive: false, maxSnippet: 50 });
  assert.deepEqual(resolved(metaRobots(html, 'OtherBot')), { ...DEFAULTS, maxSnippet: 50 });
});

test('every directive kind and the limits resolve most-restrictively', () => {
  const m = metaRobots(page(`<meta name="robots" content="all, index, follow, archive, max-snippet:120, max-image-preview:large, max-video-preview:-1">
    <meta name="robots" content="max-snippet:30, max-image-preview:standard, max-video-preview:10, noimageindex, indexifembedded, max-snippet:abc, sparkles">
    <meta name="robots" content="unavailable_after: 2030-01-02T03:04:05Z, unavailable_after: 2029-12-31">`), 'bot');
  assert.deepEqual(resolved(m), {
    ...DEFAULTS, maxSnippet: 30, maxImagePreview: 'standard', maxVideoPreview: 10, imageIndex: false, indexIfEmbedded: true,
    unavailableAfter: Date.UTC(2029, 11, 31),
  });
  assert.deepEqual(m.directives.map((d) => d.kind), ['all', 'index', 'follow', 'archive', 'max-snippet', 'max-image-preview', 'max-video-preview',
    'max-snippet', 'max-image-preview', 'max-video-preview', 'noimageindex', 'indexifembedded', 'invalid', 'unknown', 'unavailable_after', 'unavailable_after']);
  const none = metaRobots(page('<meta name="robots" content="none, noarchive, nosnippet, notranslate, max-image-preview:none">'), 'bot');
  assert.deepEqual(resolved(none), {
    ...DEFAULTS, index: false, follow: false, archive: false, snippet: false, maxSnippet: 0, translate: false, maxImagePreview: 'none',
  });
});

test('the other META tags of seeds 001 and 002', () => {
  const m = metaRobots(page(`<meta name="description" content="  First  "><meta name="description" content="Second">
    <meta name="keywords" content="robots, , crawler ,"><meta name="keywords" content="meta">
    <meta name="document-state" content="Dynamic"><meta name="url" content="https://example.com/canonical">
    <meta name="revisit-after" content="10 days">`), 'bot');
  assert.deepEqual(m.other, {
    description: 'First', keywords: ['robots', 'crawler', 'meta'], documentState: 'dynamic', url: 'https://example.com/canonical',
    revisitAfter: { raw: '10 days', days: 10 },
  });
  assert.equal(metaRobots('<meta name="document-state" content="STATIC">', 'b').other.documentState, 'static');
  assert.equal(metaRobots('<meta name="document-state" content="Sometimes">', 'b').other.documentState, 'Sometimes');
  assert.deepEqual(metaRobots('<meta name="revisit-after" content="often">', 'b').other.revisitAfter, { raw: 'often', days: null });
  assert.deepEqual(xRobotsTag('noindex', 'b').other, NO_OTHER);
});

test('non-ASCII text, and bytes as input', () => {
  const html = page('<meta name="description" content="Ünïcödé 😀 &#x1F600;"><meta name="keywords" content="é, 😀"><meta name="robots" content="noindex">');
  const m = metaRobots(html, 'bot');
  assert.equal(m.other.description, 'Ünïcödé 😀 😀');
  assert.deepEqual(m.other.keywords, ['é', '😀']);
  assert.equal(m.index, false);
  const bytes = new TextEncoder().encode(html);
  assert.deepEqual(metaRobots(bytes, 'bot'), m);
  assert.deepEqual(metaRobots(bytes.buffer, 'bot'), m);
  // Invalid UTF-8 becomes U+FFFD.
  const bad = Uint8Array.from([...new TextEncoder().encode('<meta name="description" content="a'), 0xff, ...new TextEncoder().encode('b">')]);
  assert.equal(metaRobots(bad, 'bot').other.description, 'a\uFFFDb');
});

test('X-Robots-Tag: bot names, unavailable_after with a zone, several values', () => {
  const m = xRobotsTag(['googlebot: noindex, nofollow', 'unavailable_after: 25 Jun 2010 15:00:00 PST', 'otherbot: noarchive'], 'Googlebot');
  assert.deepEqual(m.directives, [
    { kind: 'noindex', raw: 'noindex', scope: 'googlebot', origin: 'header' },
    { kind: 'nofollow', raw: 'nofollow', scope: 'googlebot', origin: 'header' },
    { kind: 'unavailable_after', raw: 'unavailable_after: 25 Jun 2010 15:00:00 PST', scope: null, origin: 'header' },
  ]);
  assert.deepEqual(resolved(m), { ...DEFAULTS, index: false, follow: false, unavailableAfter: Date.UTC(2010, 5, 25, 23, 0, 0) });
  // Another crawler: only the generic value applies.
  const other = xRobotsTag(['googlebot: noindex, nofollow', 'unavailable_after: 25 Jun 2010 15:00:00 PST'], 'bingbot');
  assert.deepEqual(resolved(other), { ...DEFAULTS, unavailableAfter: Date.UTC(2010, 5, 25, 23) });
  // A date with a day name keeps its comma; max-snippet:N is a directive, not a bot name.
  const dated = xRobotsTag('unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, max-snippet:20', 'bot');
  assert.deepEqual(dated.directives.map((d) => d.kind), ['unavailable_after', 'max-snippet']);
  assert.equal(dated.unavailableAfter, Date.UTC(2010, 5, 25, 15));
  assert.equal(dated.maxSnippet, 20);
  // One string, an iterable, nothing.
  assert.deepEqual(xRobotsTag('noindex', 'b'), xRobotsTag(new Set(['noindex']), 'b'));
  assert.deepEqual(xRobotsTag([], 'b'), { ...DEFAULTS, directives: [], other: NO_OTHER, truncated: false });
  assert.equal(xRobotsTag(['bötchen: noindex', 'noarchive'], 'other').archive, false);
});

test('conflict modes: most-restrictive (default) and seed001', () => {
  const cases = [
    // content, most-restrictive [index, follow], seed001 [index, follow]
    ['index, noindex', [false, true], [true, true]],
    ['follow, nofollow', [true, false], [true, true]],
    ['all, none', [false, false], [true, true]],
    ['noindex', [false, true], [false, false]],
    ['noindex, follow', [false, true], [false, true]],
    ['noindex, nofollow', [false, false], [false, false]],
  ];
  for (const [content, mr, seed] of cases) {
    const html = page(`<meta name="robots" content="${content}">`);
    const a = metaRobots(html, 'bot');
    assert.deepEqual([a.index, a.follow], mr, `most-restrictive: ${content}`);
    assert.deepEqual(metaRobots(html, 'bot', { conflict: 'most-restrictive' }), a);
    const b = metaRobots(html, 'bot', { conflict: 'seed001' });
    assert.deepEqual([b.index, b.follow], seed, `seed001: ${content}`);
    assert.deepEqual(b.directives, a.directives);
    const h = xRobotsTag(content, 'bot', { conflict: 'seed001' });
    assert.deepEqual([h.index, h.follow], seed, `seed001 header: ${content}`);
  }
  // Directives seed 001 does not know resolve as most-restrictive in both modes.
  const other = metaRobots(page('<meta name="robots" content="all, nosnippet, max-image-preview:none">'), 'b', { conflict: 'seed001' });
  assert.equal(other.snippet, false);
  assert.equal(other.maxImagePreview, 'none');
});

test('a head past 512 KiB is cut and says so; a long body after </head> is not', () => {
  const padding = `<meta name="x" content="${'p'.repeat(600 * 1024)}">`;
  const cut = metaRobots(`<html><head>${padding}<meta name="robots" content="noindex">`, 'bot');
  assert.equal(cut.truncated, true);
  assert.equal(cut.index, true);
  const bytes = metaRobots(new TextEncoder().encode(`<html><head>${padding}<meta name="robots" content="noindex">`), 'bot');
  assert.deepEqual(bytes, cut);
  const fine = metaRobots(`<html><head><meta name="robots" content="noindex"></head><body>${'x'.repeat(600 * 1024)}</body>`, 'bot');
  assert.equal(fine.truncated, false);
  assert.equal(fine.index, false);
  const many = xRobotsTag(Array.from({ length: 1100 }, () => 'noarchive'), 'bot');
  assert.equal(many.truncated, true);
  assert.equal(many.directives.length, 1024);
});

test('bad arguments throw TypeError or RangeError naming the argument', () => {
  assert.throws(() => metaRobots(42, 'bot'), /robots-eval: metaRobots\(html, agent, options\): html must be a string/);
  assert.throws(() => metaRobots(null, 'bot'), TypeError);
  assert.throws(() => metaRobots('', 7), /agent must be a string/);
  assert.throws(() => metaRobots('', 'bot', 'seed001'), /options must be an object/);
  assert.throws(() => metaRobots('', 'bot', { conflict: 'loose' }), RangeError);
  assert.throws(() => xRobotsTag(42, 'bot'), /headerValues must be a string or an array of strings/);
  assert.throws(() => xRobotsTag(['ok', 5], 'bot'), /headerValues\[1\] must be a string/);
  assert.throws(() => xRobotsTag('noindex'), /agent must be a string/);
  assert.throws(() => xRobotsTag('noindex', 'bot', { conflict: 'SEED001' }), RangeError);
});

test('CommonJS exports them too', () => {
  const cjs = createRequire(import.meta.url)('robots-eval');
  assert.equal(cjs.metaRobots('<meta name="robots" content="noindex">', 'b').index, false);
  assert.equal(cjs.xRobotsTag('nofollow', 'b').follow, false);
});
