// workerd's own resident memory under the load test/state.test.mjs puts on the gate, with a worker
// that does nothing of the gate's (test/constant-worker.js): a constant answer, or one or three
// outbound fetches per request; each for a host name of its own, or all for one. Prints the RSS (MB) after a
// garbage collection, at the start and after every fifth of the requests. Not a test: it tells
// what of the gate's numbers is workerd's (README.md, "Bounded state").
//   node test/workerd-memory.mjs [requests = 30000]
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { closeServers, serve, startGates } from './harness.mjs';

const TOTAL = Number(process.argv[2]) || 30_000;
const CONCURRENCY = 64; // as test/state.test.mjs
const site = new URL(await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('User-agent: *\nAllow: /\n');
})).host;

async function run(fetches, hosts) {
  const gates = await startGates({ worker: { vars: { TEST_SITE: site } } }, {}, { entry: 'test/constant-worker.js', v8Flags: ['--expose-gc'] });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const { hostname, port } = new URL(gates.url('worker'));
  const get = (host, path = '/page') => new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, agent, headers: { host, 'x-fetch': String(fetches) } }, (res) => {
      res.on('data', () => {});
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
  const memory = async () => {
    await get('gc.test', '/__gc');
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${gates.pid}/status`, 'utf8'))[1]) / 1024);
  };
  for (let i = 0; i < 50; i++) await get(`warm${i}.site.test`);
  const samples = [await memory()];
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < TOTAL) {
      const i = next++;
      await get(hosts === 'distinct' ? `h${i}.site.test` : 'h.site.test');
      if (i % (TOTAL / 5) === TOTAL / 5 - 1) samples.push(await memory());
    }
  }));
  agent.destroy();
  gates.stop();
  console.log(`${fetches} fetches a request, ${hosts.padEnd(8)} host names: ${samples.join(', ')} MB (${TOTAL} requests)`);
}

for (const fetches of [0, 1, 3]) for (const hosts of ['distinct', 'one']) await run(fetches, hosts);
closeServers();
