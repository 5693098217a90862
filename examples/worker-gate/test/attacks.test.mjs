// The gate under attack, in real workerd (test/harness.mjs, entry test/identity-worker.js for the
// test signers' names): each hole of issue 30 as an attacker would use it, the requests written
// out byte for byte where the bytes are the attack (raw HTTP/1.1 on a socket, so no client
// library normalizes them first). Every test here failed on the gate before the fix it names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { closeServers, serve, startGates } from './harness.mjs';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

// The site's origin, and a server the attacker would like the gate to contact instead: both
// record every request they get (its Host and path).
const seen = { origin: [], evil: [] };
const recorder = (name) => (req, res) => {
  seen[name].push({ host: req.headers.host, path: req.url, ua: req.headers['user-agent'] ?? '' });
  if (req.url === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(name === 'evil' ? 'User-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /private\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': name });
  res.end(`${name} ${req.url}`);
};

let gates;
let evilHost;
before(async () => {
  const site = await serve(recorder('origin'));
  evilHost = new URL(await serve(recorder('evil'))).host;
  gates = await startGates({
    forward: { vars: { ORIGIN: site, IP_LISTS_BUILT_IN: 'off' } },
  }, {}, { entry: 'test/identity-worker.js' });
});

after(() => {
  gates?.stop();
  closeServers();
});

/**
 * Sends `head` (the request line and header lines, CRLF-joined here) as is to the gate `gate`
 * and resolves to `{ status, headers, body }` (the connection is closed after one response).
 */
function raw(gate, lines) {
  const { hostname, port } = new URL(gates.url(gate));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    let data = Buffer.alloc(0);
    const done = () => {
      const text = data.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status: Number(statusLine.split(' ')[1]) || 0, headers, body: text.slice(split + 4) };
    };
    socket.on('data', (c) => {
      data = Buffer.concat([data, c]);
      // One response read whole (by its length or its last chunk): the server may keep the
      // connection open whatever the request said.
      const r = done();
      const length = Number(r.headers['content-length']);
      if (data.indexOf('\r\n\r\n') >= 0 && (r.body.length >= length || (r.headers['transfer-encoding'] === 'chunked' && r.body.endsWith('0\r\n\r\n')))) {
        socket.destroy();
        resolve(r);
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(done()));
  });
}

test('hole 1: no request path moves the gate off ORIGIN (browsers and crawlers, robots.txt too)', async () => {
  const E = evilHost;
  // Request targets an attacker sends: network-path references in every spelling, encoded
  // slashes, dot segments, a full URL as the path, user info, a tab (which URL parsing strips),
  // and the absolute form of the request line.
  const targets = [
    `//${E}/steal`,
    `/\\${E}/steal`,
    `/\\\\${E}/steal`,
    `/%2F%2F${E}/steal`,
    `/%2f%5c${E}/steal`,
    `/..//${E}/steal`,
    `/./..//${E}/steal`,
    `/https://${E}/steal`,
    `/http:/\\${E}/steal`,
    `//user@${E}/steal`,
    `/@${E}/steal`,
    `/\t/${E}/steal`,
    `//${E}%2F..%2F/steal`,
    `http://${E}/steal`,
  ];
  const failures = [];
  for (const target of targets) {
    for (const ua of [CHROME, 'curl/8.5.0']) {
      const before = seen.origin.length;
      const res = await raw('forward', [`GET ${target} HTTP/1.1`, 'Host: gate.example', `User-Agent: ${ua}`]);
      // The server's own parser may refuse a request line (400): then nothing was forwarded.
      if (res.status === 400) continue;
      const reached = seen.origin.slice(before).filter((r) => r.path !== '/robots.txt');
      if (res.headers['x-served-by'] === 'evil') failures.push(`${JSON.stringify(target)} (${ua}): answered by the attacker's server`);
      if (res.status === 200 && reached.length !== 1) failures.push(`${JSON.stringify(target)} (${ua}): ${res.status}, origin saw ${JSON.stringify(reached)}`);
    }
  }
  assert.deepEqual(seen.evil, [], `the attacker's server was contacted: ${JSON.stringify(seen.evil)}`);
  assert.deepEqual(failures, []);
  // The path reaches the origin as sent (after URL parsing), on the origin's host.
  const res = await raw('forward', [`GET //${E}/steal?x=//${E} HTTP/1.1`, 'Host: gate.example', `User-Agent: ${CHROME}`]);
  assert.equal(res.status, 200);
  assert.deepEqual(seen.origin.at(-1).path, `//${E}/steal?x=//${E}`);
  assert.notEqual(seen.origin.at(-1).host, E);
  // robots.txt was only ever fetched from the origin, and still decides there.
  const blocked = await raw('forward', [`GET //${E}/../../private HTTP/1.1`, 'Host: gate.example', 'User-Agent: curl/8.5.0']);
  assert.equal(blocked.status, 403, JSON.stringify(blocked));
  assert.ok(seen.origin.some((r) => r.path === '/robots.txt'));
});

