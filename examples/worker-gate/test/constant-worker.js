// A worker that does nothing of the gate's, for test/workerd-memory.mjs: workerd's own memory
// under load, to set the gate's (test/state.test.mjs) against. `x-fetch: 1` makes one outbound
// fetch per request (to TEST_SITE on 127.0.0.1), as the gate does for robots.txt, `x-fetch: 3`
// three (robots.txt, tdmrep.json, the page); otherwise the answer is a constant. GET /__gc: a full garbage collection (workerd started with --expose-gc).
export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === '/__gc') {
      globalThis.gc();
      return new Response('collected');
    }
    let body = 'ok';
    for (let n = Number(request.headers.get('x-fetch')) || 0; n > 0; n--) body = await (await fetch(`http://${env.TEST_SITE}/robots.txt`)).text();
    return new Response(body);
  },
};
