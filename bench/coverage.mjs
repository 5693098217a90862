#!/usr/bin/env node
// Coverage of a large sitemap, as a site owner runs it: `robots-eval coverage robots.txt --sitemap
// sitemap.xml.gz -a Googlebot -a Bingbot --json`, with the npm command (pkg/cli.mjs) and the
// native one (target/release/robots-eval), over gzipped sitemaps of 12,500, 25,000 and 50,000
// URLs (the protocol's most per sitemap), and over sitemap indexes of two and four such sitemaps
// (100,000 and 200,000 URLs), to see the cost grow past the start of the process. Prints the CPU time (user + system, the median of
// --runs: on a shared machine it moves far less than the wall time, also printed), the peak
// resident memory (GNU time's %M, the largest of the runs) and the CPU time each 1,000 more URLs
// add over the size before (the start of the process, Node's and the WebAssembly's, is paid
// once): constant when the cost is linear in the URLs.
//
//   npm run build && cargo build --release --features cli && node bench/coverage.mjs [--runs N]
//
// The inputs are made here (deterministically): a robots.txt of 3 groups and 24 rules as an
// online shop writes it, and sitemaps whose URLs fall under every kind of rule.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const SIZES = [12500, 25000, 50000, 100000, 200000];
const PER_SITEMAP = 50000;
const TIME = '/usr/bin/time';

const ROBOTS = `# An online shop
User-agent: *
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Allow: /account/login
Disallow: /search
Disallow: /*?sort=
Disallow: /*?filter=
Disallow: /*.pdf$
Disallow: /tmp/
Disallow: /old-catalogue/
Allow: /search/help

User-agent: Googlebot
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /*?sort=
Allow: /products/
Disallow: /internal/
Disallow: /*.pdf$

User-agent: Bingbot
Crawl-delay: 5
Disallow: /search
Disallow: /account/
Disallow: /*?filter=
Disallow: /private/

Sitemap: https://shop.example/sitemap.xml
`;

/** URL i of the shop: products (some sorted or filtered), categories, blog, search, accounts, PDFs. */
function url(i) {
  const k = i % 20;
  if (k < 8) return `https://shop.example/products/${i}/item-${i % 997}${k === 3 ? '?sort=price' : k === 5 ? '?filter=red' : ''}`;
  if (k < 11) return `https://shop.example/category/${i % 211}/page/${i % 13}`;
  if (k < 14) return `https://shop.example/blog/${2020 + (i % 6)}/${i}-a-post-about-${i % 89}`;
  if (k === 14) return `https://shop.example/search?q=term${i}`;
  if (k === 15) return `https://shop.example/account/orders/${i}`;
  if (k === 16) return `https://shop.example/docs/manual-${i}.pdf`;
  if (k === 17) return `https://shop.example/account/login?next=${i}`;
  if (k === 18) return `https://shop.example/cart?item=${i}`;
  return `https://shop.example/help/${i % 50}`;
}

function sitemap(n, from = 0) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (let i = from; i < from + n; i++) parts.push(`  <url><loc>${url(i).replace(/&/g, '&amp;')}</loc><lastmod>2026-11-01</lastmod></url>\n`);
  parts.push('</urlset>\n');
  return gzipSync(parts.join(''));
}

/** One run: { wall, cpu } seconds, peak KB, stdout. */
function measure(cmd, args, cwd) {
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, kb, out: r.stdout };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(TIME)) {
  console.error('bench/coverage.mjs: needs GNU time at /usr/bin/time (apt-get install time) for the peak memory');
  process.exit(1);
}
const clis = [
  ['npm (pkg/cli.mjs)', process.execPath, [join(ROOT, 'pkg', 'cli.mjs')]],
  ['native', join(ROOT, 'target', 'release', 'robots-eval'), []],
].filter(([, cmd, pre]) => existsSync(pre[0] ?? cmd));
if (clis.length < 2) console.error('bench/coverage.mjs: build both CLIs first (npm run build; cargo build --release --features cli)');

const dir = mkdtempSync(join(tmpdir(), 'robots-eval-coverage-bench-'));
try {
  writeFileSync(join(dir, 'robots.txt'), ROBOTS);
  console.log(`coverage --sitemap (gzipped) -a Googlebot -a Bingbot --json, median of ${runs} runs, ${process.version}, ${execFileSync('uname', ['-m']).toString().trim()}`);
  console.log(`load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (${availableParallelism()} cores)`);
  console.log('| command | URLs | answers | CPU time | each 1,000 more URLs | wall time | peak memory |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const answers = new Map(); // URLs -> the answer, the same for both commands
  for (const [name, cmd, pre] of clis) {
    let before = null; // [URLs, seconds] of the size before
    for (const n of SIZES) {
      let file = `sitemap-${n}.xml.gz`;
      if (n <= PER_SITEMAP) {
        writeFileSync(join(dir, file), sitemap(n));
      } else {
        // A sitemap index (of files here: the command reads a <loc> that is not a URL as a path).
        const parts = Array.from({ length: n / PER_SITEMAP }, (_, k) => `sitemap-${n}-${k}.xml.gz`);
        parts.forEach((p, k) => writeFileSync(join(dir, p), sitemap(PER_SITEMAP, k * PER_SITEMAP)));
        file = `sitemap-${n}-index.xml`;
        writeFileSync(join(dir, file), `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.map((p) => `  <sitemap><loc>${p}</loc></sitemap>\n`).join('')}</sitemapindex>\n`);
      }
      const args = [...pre, 'coverage', 'robots.txt', '--sitemap', file, '-a', 'Googlebot', '-a', 'Bingbot', '--json'];
      const all = Array.from({ length: runs }, () => measure(cmd, args, dir));
      const s = median(all.map((x) => x.cpu));
      const wall = median(all.map((x) => x.wall));
      const kb = Math.max(...all.map((x) => x.kb));
      const c = JSON.parse(all[0].out);
      if (c.urls !== n) throw new Error(`${name}: ${c.urls} URLs read, ${n} written`);
      const key = JSON.stringify(c);
      if (answers.has(n) && answers.get(n) !== key) throw new Error(`${name}: another answer than the other command's for ${n} URLs`);
      answers.set(n, key);
      const more = before ? `${(((s - before[1]) * 1000 * 1000) / (n - before[0])).toFixed(1)} ms` : '';
      before = [n, s];
      console.log(`| ${name} | ${n.toLocaleString('en-US')} | ${c.answers.toLocaleString('en-US')} | ${s.toFixed(2)} s | ${more} | ${wall.toFixed(2)} s | ${(kb / 1024).toFixed(0)} MB |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
