// Runs the shared CLI cases (tests/data/cli-cases.json) against a command: each case in a fresh
// scratch directory holding its files, with its own HTTP server on 127.0.0.1 when it has routes.
// Used by cli.test.mjs for the npm package's bin; tests/cli.rs runs the same cases natively.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { closedPort } from './loopback.mjs';

/**
 * Serves the case's routes: { path: { status, headers, body | body_b64 } } ({origin} in a body is
 * the server's own); anything else is a 404.
 */
async function serve(routes) {
  const server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const r = routes[req.url];
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(r.status ?? 200, r.headers ?? {});
    res.end(r.body_b64 !== undefined ? Buffer.from(r.body_b64, 'base64') : (r.body ?? '').replaceAll('{origin}', origin));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * npm's own lines on stderr (`npm warn Unknown user config ...` when a user's ~/.npmrc holds a key
 * npm no longer knows): printed by npm, not by us, when the command runs through npx.
 */
const NPM_LINE = /^npm (warn|notice) [^\n]*\n/gm;

/**
 * Runs one case with `command` (an argv prefix: [file, ...args]); returns the differences found.
 * `viaNpm`: the command is npx, so npm's own lines are taken out of stderr before comparing (and
 * returned as `npmLines`); what remains must be exactly ours.
 */
export async function runCase(c, command, { env = {}, viaNpm = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'robots-eval-cli-'));
  const server = c.http ? await serve(c.http) : null;
  try {
    const vars = {
      origin: server ? `http://127.0.0.1:${server.address().port}` : '',
      closed: `http://127.0.0.1:${await closedPort()}`,
    };
    const fill = (s) => s.replace(/\{(origin|closed)\}/g, (_, k) => vars[k]);
    for (const [name, f] of Object.entries(c.files ?? {})) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), typeof f === 'string' ? fill(f) : Buffer.from(f.b64, 'base64'));
    }
    // Asynchronous, so this process's server can answer the command.
    const got = await new Promise((resolve) => {
      const child = execFile(command[0], [...command.slice(1), ...c.args.map(fill)], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30000 },
        (err, stdout, stderr) => resolve({ status: child.exitCode ?? err?.code, stdout, stderr }));
      // A command that exits without reading its input closes the pipe first.
      child.stdin.on('error', () => {});
      child.stdin.end(c.stdin === undefined ? '' : fill(c.stdin));
    });
    const npmLines = viaNpm ? got.stderr.match(NPM_LINE) ?? [] : [];
    if (viaNpm) got.stderr = got.stderr.replace(NPM_LINE, '');
    return { got, npmLines, problems: compare(c, got, fill) };
  } finally {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What differs between the case's expectations and what the command did. */
export function compare(c, got, fill = (s) => s) {
  const problems = [];
  if (got.status !== c.exit) problems.push(`exit ${got.status}, expected ${c.exit}`);
  if (c.stdout !== undefined && got.stdout !== fill(c.stdout)) problems.push(`stdout:\n${got.stdout}\nexpected:\n${fill(c.stdout)}`);
  for (const s of c.stdout_has ?? []) if (!got.stdout.includes(fill(s))) problems.push(`stdout lacks ${JSON.stringify(fill(s))}:\n${got.stdout}`);
  if (c.stderr !== undefined && got.stderr !== fill(c.stderr)) problems.push(`stderr:\n${got.stderr}\nexpected:\n${fill(c.stderr)}`);
  for (const s of c.stderr_has ?? []) if (!got.stderr.includes(fill(s))) problems.push(`stderr lacks ${JSON.stringify(fill(s))}:\n${got.stderr}`);
  // Every usage or input error: exit 2 and one line naming the problem, never a stack trace.
  if (c.exit === 2 && !/^robots-eval: [^\n]+\n$/.test(got.stderr)) problems.push(`a usage error must be one line "robots-eval: ...", got:\n${got.stderr}`);
  if (c.exit !== 2 && got.stderr.split('\n').some((l) => l !== '' && !l.startsWith('robots-eval: fetched '))) problems.push(`unexpected stderr:\n${got.stderr}`);
  return problems;
}
