// AI usage preferences at the edge, with the package's aiPreferences (IETF aipref Content-Usage
// in robots.txt and in the HTTP header, and Cloudflare's Content-Signal):
// - every crawler response that passes carries, as a Content-Usage header, what robots.txt states
//   for that URL and crawler, combined with the Content-Usage the origin sends (VOCAB §5.1: any
//   `n` gives n, else any `y` gives y);
// - with AI_PREFERENCES = "enforce", the resolver decides (ai-use.js).
import { parseContentUsage } from 'robots-eval';

/** Combines category maps per VOCAB §5.1: any 'n' gives 'n', else any 'y' gives 'y', else null. */
export function combine(a, b) {
  const out = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const values = [a[key], b[key]];
    out[key] = values.includes('n') ? 'n' : values.includes('y') ? 'y' : null;
  }
  return out;
}

/** A category map as a Content-Usage field value (RFC 9651 Dictionary), or '' when it states nothing. */
export function serialize(usage) {
  return Object.entries(usage).filter(([, v]) => v === 'y' || v === 'n').map(([k, v]) => `${k}=${v}`).join(', ');
}

/**
 * The origin's response with the combined Content-Usage header, for a crawler whose robots.txt
 * preference is `usage` (a category map). Untouched (the same object) when robots.txt states
 * nothing or the origin's header already says the combined statement. Otherwise the members that
 * change are appended to the origin's field (the last value of a key wins, RFC 9651 §4.2), which
 * keeps members this gate does not know; a field that does not parse is replaced.
 */
export function withContentUsage(response, usage) {
  const mine = serialize(usage);
  if (mine === '') return response;
  const sent = response.headers.get('content-usage');
  let value = mine;
  if (sent !== null) {
    const theirs = parseContentUsage(sent);
    const combined = combine(usage, theirs);
    const changed = serialize(Object.fromEntries(Object.entries(combined).filter(([k, v]) => v !== theirs[k])));
    if (changed === '') return response;
    value = `${sent}, ${changed}`;
    if (serialize(parseContentUsage(value)) !== serialize(combined)) value = serialize(combined);
  }
  const out = new Response(response.body, response);
  out.headers.set('content-usage', value);
  return out;
}
