// Run by tests/js/crawlee.test.mjs inside this project, after `npm install` with the override of
// robots-parser: a Crawlee HttpCrawler with respectRobotsTxtFile crawls the start URL, following
// every link (to any site, `strategy: 'all'`), and prints what it fetched and what it skipped, as JSON.
//   node crawl.mjs START_URL [AGENT]    AGENT: respectRobotsTxtFile: { userAgent: AGENT }; none: true (`*`)
import { HttpCrawler } from '@crawlee/http';
import { Configuration } from '@crawlee/core';

const [start, agent] = process.argv.slice(2);
const handled = [];
const skipped = [];
const crawler = new HttpCrawler({
  respectRobotsTxtFile: agent === undefined ? true : { userAgent: agent },
  maxConcurrency: 2,
  maxRequestRetries: 0,
  async requestHandler({ request, body, enqueueLinks }) {
    handled.push(request.url);
    // HttpCrawler parses no HTML: the links of these pages are plain `href="..."`.
    const urls = [...String(body).matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1], request.loadedUrl ?? request.url).href);
    await enqueueLinks({ urls, strategy: 'all' });
  },
  onSkippedRequest({ url, reason }) {
    skipped.push({ url, reason });
  },
}, new Configuration({ persistStorage: false, purgeOnStart: true }));
await crawler.run([start]);
console.log(JSON.stringify({ handled, skipped }));
