// A test entry for workerd around the gate (src/worker.js), never deployed: the gate's own
// fetch and identify() with the `fetch` option of identify()'s contract, which carries requests
// for the test signers' names (https://signer.test/...) to their servers on 127.0.0.1
// (TEST_HOSTS: name -> "127.0.0.1:port"). The SSRF checks still run on the URL the signer named
// (directory.js); only the connection goes to loopback. Routes for the tests:
//   POST /__identify  { url, method, headers, now? } -> identify()'s answer for that request
//   POST /__verify    { request: { url, method, headers }, label, jwk } -> { base, valid } (RFC 9421 alone)
//   POST /__refusal   { urls } -> [reason or null] (directory.js refusal(), WHATWG URL parsing as workerd does it)
//   GET /__gc         a full garbage collection of this isolate (workerd started with --expose-gc)
//   anything else     the gate, as deployed, with that fetch
import gate, { handle } from '../src/worker.js';

export { NonceStore } from '../src/worker.js';
import { identify } from '../src/identity.js';
import { refusal } from '../src/directory.js';
import { signatureBase, signaturesOf, verifySignature } from '../src/http-signatures.js';

function loopback(env) {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const to = env.TEST_HOSTS?.[url.host];
    return fetch(to ? `http://${to}${url.pathname}${url.search}` : url.href, init);
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
