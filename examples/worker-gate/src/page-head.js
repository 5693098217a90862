// The head of an HTML response, read as it streams through HTMLRewriter, so the page's META tags
// (robots, noai, tdm-reservation, content-usage...) can decide before the response's status is
// sent. Only the head is held back, never the page: the bytes read until the head ends (its
// `</head>`, a `<body>`, or the first element that cannot be in a head), capped; then the held
// bytes and the rest of the body stream on to the client as they arrive.

import { concat } from './shared-cache.js';

// The elements a head may hold (HTML's "in head" insertion mode); any other child of <html>
// starts the body. A document with no <html>, <head> or <body> tag at all is held to its end or
// the limit (selectors cannot name an element at the top level without matching every element).
const IN_HEAD = ['head', 'meta', 'link', 'title', 'style', 'script', 'base', 'noscript', 'template'];
const BODY_STARTS = `html > *${IN_HEAD.map((t) => `:not(${t})`).join('')}`;

/** Whether a response is an HTML document. */
export function isHtml(response) {
  return /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(response.headers.get('content-type') ?? '');
}

const TIMED_OUT = Symbol('timed out');

/**
 * Reads `response`'s head: resolves to `{ head, metas, ended, response }`: `head` the bytes held
 * (up to `maxBytes`, plus the rest of the chunk that passed it), `metas` how many named META
 * tags the head has (none: the page says nothing a META tag could), `ended` `head` (it ended),
 * `limit` (`maxBytes` passed first), `time` (`maxMs` passed first: an origin that stalls in its
 * head holds the response no longer), `eof`, `error` (the body broke off) or `unread`
 * (HTMLRewriter does not take it), and `response` the same response, whose body streams the held
 * bytes and then the rest.
 */
export async function readHead(response, maxBytes, maxMs = Infinity) {
  const state = { done: false, metas: 0 };
  const end = () => {
    state.done = true;
  };
  let rewritten;
  try {
    rewritten = new HTMLRewriter()
      .on('head', { element: (e) => e.onEndTag(end) })
      .on('body', { element: end })
      .on(BODY_STARTS, { element: end })
      .on('meta[name]', {
        element: () => {
          if (!state.done) state.metas++;
        },
      })
      .transform(response);
  } catch {
    // A page HTMLRewriter does not take (an encoding it does not know): passed on unread.
    return { head: new Uint8Array(0), metas: 0, ended: 'unread', response };
  }
  const reader = rewritten.body.getReader();
  const held = [];
  let size = 0;
  let eof = false;
  let failed = null;
  let timedOut = false;
  // A read the time limit overtook: the body's stream takes it up where the hold left off.
  let inflight = null;
  const deadline = Date.now() + maxMs;
  let timer;
  try {
    while (!state.done && size <= maxBytes) {
      inflight = reader.read();
      const left = deadline - Date.now();
      const next = left === Infinity ? await inflight
        : await Promise.race([inflight, new Promise((r) => { timer = setTimeout(() => r(TIMED_OUT), Math.max(0, left)); })]);
      clearTimeout(timer);
      if (next === TIMED_OUT) {
        timedOut = true;
        break;
      }
      inflight = null;
      const { done, value } = next;
      if (done) {
        eof = true;
        break;
      }
      held.push(value);
      size += value.length;
    }
  } catch (e) {
    // The origin's body broke off: the client gets what arrived, then the same error.
    failed = e;
  }
  const head = concat(held, size);
  const body = new ReadableStream({
    start(c) {
      if (size > 0) c.enqueue(head);
      if (failed) c.error(failed);
      else if (eof) c.close();
    },
    async pull(c) {
      const read = inflight ?? reader.read();
      inflight = null;
      const { done, value } = await read;
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return {
    head,
    metas: state.metas,
    ended: state.done ? 'head' : eof ? 'eof' : failed ? 'error' : timedOut ? 'time' : 'limit',
    response: new Response(body, rewritten),
  };
}
