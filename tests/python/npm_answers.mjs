// The npm package's answers to the questions test_agreement.py asks (a JSON array on stdin), as
// JSON on stdout, one answer per question in the same order. It imports 'robots-eval/rich' by its
// name: this file sits inside the package's own folder, so Node resolves the name to the built
// package (pkg/, package.json's exports), as a user's import does.
import { Robots, fetchRobots } from 'robots-eval/rich';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const questions = JSON.parse(Buffer.concat(chunks).toString('utf8'));

/** A body given as text or as {hex} (exact bytes). */
const bodyOf = (b) => (typeof b === 'string' ? b : Uint8Array.from(Buffer.from(b.hex, 'hex')));

/** The answer to one question; an error as {error: its class and message}. */
async function answer(q) {
  let robots;
  if (q.status !== undefined && q.status !== null) {
    const status = q.status;
    const fetch = async () => new Response(status >= 200 && status < 300 ? bodyOf(q.robots) : null, { status });
    robots = await fetchRobots('https://example.com/', { fetch, dialect: q.dialect });
  } else {
    robots = Robots.parse(bodyOf(q.robots), { dialect: q.dialect });
  }
  try {
    switch (q.op) {
      case 'verdict': {
        const t = robots.table([q.url], [q.agent]);
        return {
          explain: robots.explain(q.url, q.agent),
          isAllowed: robots.isAllowed(q.url, q.agent),
          isExplicitlyDisallowed: robots.isExplicitlyDisallowed(q.url, q.agent),
          table: { allowed: t.allowed[0][0], line: t.lines[0][0], reason: t.reasons[0][0] },
        };
      }
      case 'file':
        return {
          records: robots.records,
          diagnostics: robots.diagnostics,
          sitemaps: robots.sitemaps,
          host: robots.host,
          truncated: robots.truncated,
          crawlDelay: Object.fromEntries(q.agents.map((a) => [String(a), robots.crawlDelay(a) ?? null])),
          requestRate: Object.fromEntries(q.agents.map((a) => [String(a), robots.requestRate(a) ?? null])),
        };
      case 'ai_preferences':
        return robots.aiPreferences(q.url, q.agent, q.header === null ? undefined : { header: q.header });
      case 'ai_use': {
        const options = { headers: q.headers, html: q.html, tdmrep: q.tdmrep };
        if (q.purposes !== null) options.purposes = q.purposes;
        if (q.policy_tokens !== null) options.policyTokens = q.policy_tokens;
        return robots.aiUse(q.url, q.agent, options);
      }
      default:
        throw new Error(`unknown op ${q.op}`);
    }
  } catch (e) {
    return { error: `${e.constructor.name}: ${e.message}` };
  } finally {
    robots.free();
  }
}

const out = [];
for (const q of questions) out.push(await answer(q));
process.stdout.write(JSON.stringify(out));
