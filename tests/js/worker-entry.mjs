// A Cloudflare Worker that imports the package by name (bundled by runtimes.test.mjs the way
// wrangler does: conditions workerd/worker/browser, the .wasm left as a module of its own).
import { Robots } from 'robots-eval';
import { smoke } from './smoke.mjs';

export default {
  fetch() {
    const robots = Robots.parse('User-agent: *\nDisallow: /private\n');
    const sample = robots.explain('https://example.com/private/x', 'EdgeBot');
    robots.free();
    return Response.json({ failures: smoke(Robots), sample });
  },
};
