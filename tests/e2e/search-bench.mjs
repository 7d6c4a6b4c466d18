// Search benchmark in headless Chromium: portolan's static search against Pagefind's,
// side by side on the same built site.
//
//   node tests/e2e/search-bench.mjs <site-folder> <pagefind-bundle-folder> QUERY...
//
// <site-folder> is a portal built by portolan (with a base_url of "/"), and
// <pagefind-bundle-folder> the output of `pagefind --site <site-folder> --output-path
// DIR`. Both are served from one local HTTP server (the bundle at /pagefind/). For each
// query and engine, in a fresh browser context (empty cache): the bytes the first query
// transfers (script, index files and the metadata of the first 10 results; raw and as
// gzip would send them), then the median time of 21 repeated queries once loaded.
// Prints one JSON line per (engine, query). Not a test: numbers go to BENCHMARKS.md.

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import process from 'node:process';
import { chromium } from 'playwright-core';

const [siteArg, pagefindArg, ...queries] = process.argv.slice(2);
if (!siteArg || !pagefindArg || !queries.length) {
  console.error('usage: node tests/e2e/search-bench.mjs <site> <pagefind-bundle> QUERY...');
  process.exit(2);
}
const SITE = fs.realpathSync(siteArg);
const BUNDLE = fs.realpathSync(pagefindArg);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = p.startsWith('/pagefind/') ? path.join(BUNDLE, p.slice('/pagefind/'.length)) : path.join(SITE, p);
  if (!file.startsWith(SITE) && !file.startsWith(BUNDLE)) { res.writeHead(404); res.end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  res.end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const ROOT = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.PORTOLAN_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

// Runs `first` (the first query) and `again` (a loaded query) in a fresh context on a page
// that has loaded no search file yet; counts what the network carried.
async function measure(engine, query) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = [];
  page.on('response', async (res) => {
    const u = new URL(res.url());
    const mine = engine === 'portolan'
      ? u.pathname.startsWith('/search/') && u.pathname.endsWith('.json') || u.pathname.endsWith('/static/search.js')
      : u.pathname.startsWith('/pagefind/');
    if (!mine) return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    seen.push({ path: u.pathname, raw: body.length, gzip: zlib.gzipSync(body).length });
  });
  // A page of the site with portolan's script: portolan's own search loads nothing
  // before the first query; Pagefind's script is imported for the query.
  await page.goto(ROOT + 'kinds/');
  await page.waitForLoadState('networkidle');
  const loadedScript = seen.filter((s) => s.path.endsWith('search.js'));
  seen.length = 0;
  seen.push(...loadedScript);
  const run = engine === 'portolan'
    ? (q) => page.evaluate(async (q) => {
      const t = performance.now();
      const r = await window.portolanSearch.search(q, 10);
      return { ms: performance.now() - t, top: r.results.map((x) => x.url), total: r.total };
    }, q)
    : (q) => page.evaluate(async (q) => {
      window.pf = window.pf || await import('/pagefind/pagefind.js');
      const t = performance.now();
      const r = await window.pf.search(q);
      const data = await Promise.all(r.results.slice(0, 10).map((x) => x.data()));
      return { ms: performance.now() - t, top: data.map((d) => d.url), total: r.results.length };
    }, q);
  const first = await run(query);
  await page.waitForLoadState('networkidle');
  const bytes = seen.reduce((a, s) => a + s.raw, 0);
  const gz = seen.reduce((a, s) => a + s.gzip, 0);
  const times = [];
  for (let i = 0; i < 21; i++) times.push((await run(query)).ms);
  times.sort((a, b) => a - b);
  await context.close();
  return {
    engine, query, files: seen.length, first_query_bytes: bytes, first_query_gzip_bytes: gz,
    first_query_ms: +first.ms.toFixed(1), loaded_query_median_ms: +times[10].toFixed(2),
    results: first.total, top3: first.top.slice(0, 3),
  };
}

for (const q of queries) {
  for (const engine of ['portolan', 'pagefind']) {
    console.log(JSON.stringify(await measure(engine, q)));
  }
}
await browser.close();
server.close();
