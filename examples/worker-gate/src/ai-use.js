// AI_PREFERENCES = "enforce": the package's resolver (Robots.aiUse: robots.txt with the operators'
// purpose tokens, Content-Usage and Content-Signal, the site's tdmrep.json, the page's
// Content-Usage, X-Robots-Tag and tdm-* headers, and its META tags) answers, per purpose, whether
// this crawler may use this page; the gate refuses a crawler whose every declared purpose the
// site denies. Three moments, each asking only when it has something new to read:
// 1. before the origin: robots.txt and tdmrep.json (a refusal costs the origin nothing);
// 2. the origin's response headers, when it sends one the resolver reads (HEADERS): a 403
//    before any of the body is sent;
// 3. an HTML page's head, held back as it streams through HTMLRewriter (page-head.js) until it
//    ends (at most AI_HEAD_MAX_BYTES), when it has a named META tag: a 403 before the status
//    is sent, or the held head and the rest of the body stream on.
import { readHead, isHtml } from './page-head.js';

/** The response headers the resolver reads; a response with none of them is not asked about. */
const HEADERS = ['content-usage', 'x-robots-tag', 'tdm-reservation', 'tdm-policy', 'content-signal'];

/** Whether the origin's response sends a header the resolver reads. */
export function hasAiHeaders(headers) {
  return HEADERS.some((h) => headers.has(h));
}

/** Where a trace entry was found, short: `line 5`, `Content-Usage`, `X-Robots-Tag[1]`, `meta 3`, `/.well-known/tdmrep.json rule 0`. */
export function whereOf(entry) {
  const w = entry.where ?? {};
  if (w.line !== undefined) return `line ${w.line}`;
  if (w.file !== undefined) return w.rule !== undefined ? `${w.file} rule ${w.rule}` : w.file;
  if (w.tag !== undefined) return `meta ${w.tag}`;
  if (w.header !== undefined) return w.index ? `${w.header}[${w.index}]` : w.header;
  return '';
}

/** A trace entry as the decision names it: `content-usage-header (Content-Usage) train-ai=n`. */
export function nameOf(entry, cut) {
  const where = whereOf(entry);
  return `${entry.signal}${where ? ` (${where})` : ''}${entry.raw ? ` ${cut(entry.raw.replace(/\s+/g, ' '), 96)}` : ''}`;
}

/**
 * The resolver's answer for the request, or null when it throws (a malformed input is a trace
 * entry, never an exception; a trap or a bug must not break traffic: logged, the crawler passes).
 * `inputs`: `{ headers, html }` of the page; `tdmrep` the site's file as tdmrep-cache.js keeps it.
 */
export function answerOf(robots, url, agent, row, tdmrep, inputs = {}) {
  try {
    return robots.aiUse(url, agent, {
      ...inputs,
      tdmrep: tdmrep.body,
      // For a crawler the package's table does not know (an AI_CRAWLERS row): its purposes.
      ...(row.override ? { purposes: row.purposes } : {}),
    });
  } catch (e) {
    console.error(`worker-gate: aiUse failed for ${agent}: ${e?.message ?? e}`);
    return null;
  }
}

/**
 * The refusal in an answer: null unless every purpose of the crawler (`row.purposes`) is
 * answered `deny` (a crawler with a purpose the site allows or leaves unknown may fetch; the
 * Content-Usage header carries the rest). Else `{ purposes, by }`: the denied purposes and the
 * trace entries that decided them, each once, in trace order.
 */
export function refusalOf(answer, row) {
  if (answer === null || row.purposes.length === 0) return null;
  if (!row.purposes.every((p) => answer[p]?.answer === 'deny')) return null;
  // `by` holds the trace's own entries (the package's contract), so each is kept once by identity.
  const by = new Set(row.purposes.flatMap((p) => answer[p].by));
  return { purposes: row.purposes, by: [...by] };
}

/**
 * The origin's response with its head read (page-head.js): `{ response, html, head }`.
 * `response` streams the page (the held head, then the rest); `html` the head's bytes, or null
 * when the page is not HTML or its head has no named META tag (nothing for the resolver to read
 * there); `head` how the head was read (`head`, `limit`, `time`, `eof`; '' when not HTML): at
 * most `maxBytes` and `maxMs` are held.
 */
export async function withHead(response, maxBytes, maxMs) {
  if (!response.body || !isHtml(response)) return { response, html: null, head: '' };
  const read = await readHead(response, maxBytes, maxMs);
  return { response: read.response, html: read.metas > 0 ? read.head : null, head: read.ended };
}
