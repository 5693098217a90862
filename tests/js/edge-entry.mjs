// A Vercel Edge Function that imports the package by name, run by runtimes.test.mjs in the
// `edge-runtime` package (Vercel's Edge runtime, locally): the same smoke check as the workerd
// Worker (worker-entry.mjs), answered to a fetch event.
import { Robots, RobotRules, metaRobots, xRobotsTag } from 'robots-eval/rich';
import { smoke } from './smoke.mjs';

addEventListener('fetch', (event) => {
  const robots = Robots.parse('User-agent: *\nDisallow: /private\n');
  const sample = robots.explain('https://example.com/private/x', 'EdgeBot');
  robots.free();
  event.respondWith(Response.json({ failures: smoke({ Robots, RobotRules, metaRobots, xRobotsTag }), sample, runtime: typeof EdgeRuntime === 'string' ? EdgeRuntime : null }));
});
