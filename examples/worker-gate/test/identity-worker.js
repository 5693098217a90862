// A test entry for workerd around the gate (src/worker.js), never deployed: the gate's own
// fetch and identify() with the `fetch` option of identify()'s contract, which carries requests
// for the test signers' names (https://signer.test/...) to their servers on 127.0.0.1
// (TEST_HOSTS: name -> "127.0.0.1:port", `*.name` for every name under it), and every other request
// the gate makes (robots.txt, tdmrep.json, the origin) to where it names. The SSRF checks still run on the URL the signer named
// (directory.js); only the connection goes to loopback. Routes for the tests:
//   POST /__identify  { url, method, headers, now? } -> identify()'s answer for that request
//   POST /__verify    { request: { url, method, headers }, label, jwk } -> { base, valid } (RFC 9421 alone)
//   POST /__refusal   { urls } -> [reason or null] (directory.js refusal(), WHATWG URL parsing as workerd does it)
//   GET /__state      the sizes of every per-host cache of this isolate
//   GET /__gc         a full garbage collection of this isolate (workerd started with --expose-gc)
//   anything else     the gate, as deployed, with that fetch
import gate, { handle } from '../src/worker.js';

export { NonceStore } from '../src/worker.js';
import { identify } from '../src/identity.js';
import { refusal } from '../src/directory.js';
import { signatureBase, signaturesOf, verifySignature } from '../src/http-signatures.js';
import { robotsState } from '../src/robots-cache.js';
import { tdmrepState } from '../src/tdmrep-cache.js';
import { directoryState } from '../src/directory.js';
import { memoryKeys } from '../src/replay.js';
import { listState } from '../src/ip-lists.js';

function loopback(env) {
  const hosts = env.TEST_HOSTS ?? {};
  // `*.name` stands for every host name under `name`.
  const wildcards = Object.entries(hosts).filter(([k]) => k.startsWith('*.')).map(([k, v]) => [k.slice(1), v]);
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const to = hosts[url.host] ?? wildcards.find(([suffix]) => url.host.endsWith(suffix))?.[1];
    const href = to ? `http://${to}${url.pathname}${url.search}` : url.href;
    return typeof input === 'string' ? fetch(href, init) : fetch(new Request(href, input), init);
  };
}

const requestOf = ({ url, method = 'GET', headers = {}, body }) => new Request(url, { method, headers, body: method === 'GET' ? undefined : body });

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    const options = { fetch: loopback(env) };
    if (pathname === '/__identify') {
      const spec = await request.json();
      return Response.json(await identify(requestOf(spec), env, { ...options, ctx, now: spec.now }));
    }
    if (pathname === '/__verify') {
      const { request: spec, label, jwk, alg } = await request.json();
      const req = requestOf(spec);
      const sig = signaturesOf(req.headers).find((s) => s.label === label);
      const base = signatureBase(req, sig);
      const key = await crypto.subtle.importKey('jwk', jwk, alg === 'ed25519' ? { name: 'Ed25519' } : { name: 'RSA-PSS', hash: 'SHA-512' }, false, ['verify']);
      return Response.json({ base, valid: await verifySignature(sig, base, key, alg) });
    }
    if (pathname === '/__state') {
      return Response.json({ robots: robotsState(), tdmrep: tdmrepState(), directories: directoryState(), replayKeys: memoryKeys(), lists: listState() });
    }
    if (pathname === '/__gc') {
      if (typeof globalThis.gc !== 'function') return new Response('workerd was not started with --expose-gc', { status: 501 });
      globalThis.gc();
      return new Response('collected');
    }
    if (pathname === '/__refusal') {
      const { urls } = await request.json();
      return Response.json(urls.map((u) => {
        try {
          return refusal(new URL(u));
        } catch {
          return 'unparsable';
        }
      }));
    }
    return handle(request, env, ctx, options);
  },
  scheduled: gate.scheduled,
};
