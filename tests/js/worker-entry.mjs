// A Cloudflare Worker that imports the package by name (bundled by runtimes.test.mjs the way
// wrangler does: conditions workerd/worker/browser, the .wasm left as a module of its own).
import { Robots, RobotRules, metaRobots, xRobotsTag } from 'robots-eval/rich';
import * as verdict from 'robots-eval/verdict';
import { smoke, smokeVerdict } from './smoke.mjs';

export default {
  fetch() {
    const robots = Robots.parse('User-agent: *\nDisallow: /private\n');
    const sample = robots.explain('https://example.com/private/x', 'EdgeBot');
    robots.free();
    // RobotRules from the workerd entry: bound to the same instance as its Robots.
    const rules = new RobotRules('EdgeBot');
    rules.parse('https://example.com/robots.txt', 'User-agent: *\nDisallow: /private\n');
    const ruled = [rules.allowed('https://example.com/private/x'), rules.allowed('https://example.com/public'), rules.allowed('https://other.example/')];
    rules.clear();
    const meta = [metaRobots('<meta name="EdgeBot" content="noindex">', 'EdgeBot').index, xRobotsTag('edgebot: nofollow', 'EdgeBot').follow];
    return Response.json({ failures: [...smoke({ Robots, RobotRules, metaRobots, xRobotsTag }), ...smokeVerdict(verdict)], sample, ruled, meta });
  },
};
