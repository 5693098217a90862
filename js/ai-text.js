// How an aiUse answer is written for people, shared by the npm command (js/cli.mjs, `ai`) and the
// playground (www/app.js, through www/vendor/tools.js): the native command's wording
// (src/lifecycle/ai_use.rs, Where's Display), so the two CLIs print the same bytes.

/** Where a signal was found: "robots.txt line 2", "header X-Robots-Tag (field line 0)", ...; '' for none. */
export function whereText(w) {
  const parts = [];
  if (w.line !== undefined) parts.push(`robots.txt line ${w.line}`);
  if (w.header !== undefined) parts.push(`header ${w.header}${w.index !== undefined ? ` (field line ${w.index})` : ''}`);
  if (w.tag !== undefined) parts.push(`META tag ${w.tag}`);
  if (w.file !== undefined) parts.push(`${w.file}${w.rule !== undefined ? ` rule ${w.rule}` : ''}`);
  return parts.join(', ');
}
