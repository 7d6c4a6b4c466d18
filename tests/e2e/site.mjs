// End-to-end browser test of a site built by portolan from tests/fixtures/portal.toml.
//
//   node tests/e2e/site.mjs <built-site-folder>
//
// Serves the folder with a tiny static HTTP server on 127.0.0.1 (random port)
// under the path prefix /atlas/ (the fixture's base_url), the way GitHub Pages
// serves a project site, and drives Debian's headless Chromium through
// playwright-core to check what a person sees and can click.
//
// Environment: PORTOLAN_CHROMIUM overrides the browser (default /usr/bin/chromium).
// Writes a screenshot of the widget-operator dataflow page to
// /tmp/portolan-e2e-dataflow.png (PORTOLAN_E2E_SCREENSHOT overrides the path).
// Prints one line per check and a closing line `N passed, M failed`; exits
// non-zero if any check failed.

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';

const PREFIX = '/atlas/';
const CHROMIUM = process.env.PORTOLAN_CHROMIUM || '/usr/bin/chromium';
const SCREENSHOT = process.env.PORTOLAN_E2E_SCREENSHOT || '/tmp/portolan-e2e-dataflow.png';
const OVERALL_TIMEOUT_MS = 240_000; // the whole run; normally takes a few seconds
const STEP_TIMEOUT_MS = 15_000; // any single Playwright wait
const MAX_CRAWL = 200; // pages/files the link crawl visits at most

// ---------------------------------------------------------------- arguments

const siteArg = process.argv[2];
if (!siteArg) {
  console.error('usage: node tests/e2e/site.mjs <built-site-folder>');
  process.exit(2);
}
const SITE = fs.realpathSync(path.resolve(siteArg));
if (!fs.existsSync(path.join(SITE, 'index.html'))) {
  console.error(`site.mjs: ${SITE} has no index.html; build the site first`);
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) {
  console.error(`site.mjs: no browser at ${CHROMIUM}; install Debian's chromium (apt-get install chromium)`);
  process.exit(2);
}

const watchdog = setTimeout(() => {
  console.error(`site.mjs: gave up after ${OVERALL_TIMEOUT_MS / 1000}s`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

// ------------------------------------------------------ tiny static server

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Every request the server answered: { method, path, status, type }. */
const served = [];

/** Resolves a URL path below PREFIX to a real path inside SITE, or null. */
function resolveInside(rest) {
  let decoded;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const candidate = path.resolve(SITE, '.' + path.posix.sep + decoded);
  if (candidate !== SITE && !candidate.startsWith(SITE + path.sep)) return null;
  let real;
  try {
    real = fs.realpathSync(candidate); // follows symlinks: they must stay inside too
  } catch {
    return null;
  }
  if (real !== SITE && !real.startsWith(SITE + path.sep)) return null;
  return real;
}

function send(req, res, status, type, body, extra = {}) {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  served.push({ method: req.method, path: req.url, status, type });
}

function notFound(req, res, inside) {
  // Like GitHub Pages: a miss under the site is answered with its 404.html.
  const page = path.join(SITE, '404.html');
  if (inside && fs.existsSync(page)) {
    send(req, res, 404, CONTENT_TYPES['.html'], fs.readFileSync(page));
  } else {
    send(req, res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }
}

function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(req, res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { Allow: 'GET, HEAD' });
    return;
  }
  let pathname;
  try {
    pathname = new URL(req.url, 'http://127.0.0.1').pathname;
  } catch {
    notFound(req, res, false);
    return;
  }
  // The URL parser removes dot segments; a raw '..' that survives it is refused.
  if (req.url.split('?')[0].split('/').includes('..')) {
    notFound(req, res, false);
    return;
  }
  if (pathname === PREFIX.slice(0, -1)) {
    send(req, res, 301, 'text/plain; charset=utf-8', 'moved\n', { Location: PREFIX });
    return;
  }
  if (!pathname.startsWith(PREFIX)) {
    notFound(req, res, false);
    return;
  }
  let file = resolveInside(pathname.slice(PREFIX.length));
  if (file === null) {
    notFound(req, res, true);
    return;
  }
  let stat = fs.statSync(file);
  if (stat.isDirectory()) {
    if (!pathname.endsWith('/')) {
      send(req, res, 301, 'text/plain; charset=utf-8', 'moved\n', { Location: pathname + '/' });
      return;
    }
    file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) {
      notFound(req, res, true);
      return;
    }
    stat = fs.statSync(file);
  }
  if (!stat.isFile()) {
    notFound(req, res, true);
    return;
  }
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
  send(req, res, 200, type, fs.readFileSync(file));
}

const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (e) {
    send(req, res, 500, 'text/plain; charset=utf-8', `server error: ${e.message}\n`);
  }
});
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const ORIGIN = `http://127.0.0.1:${server.address().port}`;
const ROOT = ORIGIN + PREFIX;

const probed = new Set(); // paths rawGet asked for on purpose, expecting an error

/** Raw GET that does not normalise the path (to probe the server itself). */
function rawGet(rawPath) {
  probed.add(rawPath);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.address().port, path: rawPath, method: 'GET' },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

// ------------------------------------------------------------------ browser

const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'portolan-e2e-profile-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
  viewport: { width: 1280, height: 900 },
  colorScheme: 'light',
  timeout: 60_000,
});
context.setDefaultTimeout(STEP_TIMEOUT_MS);
context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);

/** URLs a check asked for on purpose and expects a 404 for. */
const expected404 = new Set();
/** Everything that went wrong in the browser: console errors, page errors,
 *  failed requests, unexpected error responses, dialogs. */
const problems = [];
let dialogs = 0;
// The theme declares an empty <link rel="icon" href="data:,">, so Chromium never asks
// for /favicon.ico at the origin root, outside the site; if it does, that is a failure.

function watchPage(page) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url || '';
    if (expected404.has(where)) return;
    problems.push(`console error on ${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught exception on ${page.url()}: ${err.message}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400 && !expected404.has(res.url())) {
      problems.push(`HTTP ${res.status()} for ${res.url()}`);
    }
  });
  page.on('dialog', async (dialog) => {
    dialogs += 1;
    problems.push(`a ${dialog.type()} dialog fired on ${page.url()}: ${JSON.stringify(dialog.message())}`);
    await dialog.dismiss().catch(() => {});
  });
}
context.on('page', watchPage);
for (const p of context.pages()) watchPage(p);
const page = context.pages()[0] ?? (await context.newPage());

// ------------------------------------------------------------------ harness

let passed = 0;
let failed = 0;

async function check(name, fn) {
  const before = problems.length;
  try {
    await fn();
    const fresh = problems.slice(before);
    if (fresh.length) throw new Error(`browser reported:\n    ${fresh.join('\n    ')}`);
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`not ok - ${name}\n    ${String(e?.stack || e).split('\n').join('\n    ')}`);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function eq(actual, expected, what) {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const samePath = (url, p) => new URL(url).pathname === p;

async function waitForPath(p) {
  await page.waitForURL((u) => u.pathname === p);
}

// ------------------------------------------------------------------- checks

try {
  await check('server: base path, content types, 404s and no escape from the folder', async () => {
    const types = {
      [PREFIX]: 'text/html',
      [PREFIX + 'static/style.css']: 'text/css',
      [PREFIX + 'data/portal.json']: 'application/json',
      [PREFIX + 'data/widget-operator.json']: 'application/json',
    };
    for (const [p, type] of Object.entries(types)) {
      const res = await fetch(ORIGIN + p);
      eq(res.status, 200, `status of ${p}`);
      const got = res.headers.get('content-type') || '';
      assert(got.startsWith(type), `content type of ${p}: expected ${type}, got ${got}`);
      if (type === 'application/json') JSON.parse(await res.text());
    }
    const redirect = await fetch(ORIGIN + '/atlas', { redirect: 'manual' });
    eq(redirect.status, 301, 'status of /atlas');
    eq(redirect.headers.get('location'), PREFIX, 'redirect of /atlas');
    for (const p of ['/', '/index.html', '/static/style.css', '/atlasx/', '/other/atlas/']) {
      const res = await rawGet(p);
      eq(res.status, 404, `status of ${p} (outside ${PREFIX})`);
    }
    // Enough '..' to reach / from any folder, so a broken guard would serve /etc/passwd.
    const up = (sep) => Array(40).fill('..').join(sep);
    for (const p of [
      `/atlas/${up('/')}/etc/passwd`,
      `/atlas/${up('/').replaceAll('..', '%2e%2e')}/etc/passwd`,
      `/atlas/${up('%2f')}%2fetc%2fpasswd`,
      `/atlas/${up('\\')}\\etc\\passwd`,
      '/atlas/%00',
    ]) {
      const res = await rawGet(p);
      eq(res.status, 404, `status of ${p}`);
      assert(!res.body.includes('root:'), `${p} leaked a file from outside the site`);
    }
  });

  await check('home page: loads cleanly, shows both project cards, stylesheet applied', async () => {
    const res = await page.goto(ROOT);
    eq(res.status(), 200, 'home status');
    await page.waitForLoadState('load');
    const title = await page.title();
    assert(title.includes('Fixture Atlas'), `page title ${JSON.stringify(title)} lacks the site title`);
    const h1 = (await page.locator('h1').innerText()).trim();
    eq(h1, 'Fixture Atlas', 'home h1');
    for (const name of ['Widget Operator', 'Gadget Scheduler']) {
      const card = page.locator('article.card', { has: page.getByRole('heading', { name, exact: true }) });
      eq(await card.count(), 1, `cards titled ${name}`);
      assert(await card.isVisible(), `card ${name} is not visible`);
      assert(
        await card.getByRole('link', { name: 'Dataflow →' }).isVisible(),
        `card ${name} has no visible "Dataflow →" link`,
      );
    }
    const css = served.filter((r) => r.path === PREFIX + 'static/style.css');
    assert(css.length > 0, 'the browser never asked for /atlas/static/style.css');
    assert(
      css.every((r) => r.status === 200 && r.type.startsWith('text/css')),
      `stylesheet answers: ${JSON.stringify(css)}`,
    );
    const style = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return { margin: s.marginTop, font: s.fontFamily, sheets: document.styleSheets.length };
    });
    // Browser defaults are an 8px body margin and a serif font.
    eq(style.margin, '0px', 'body margin from style.css');
    assert(style.font.includes('system-ui'), `body font ${style.font} is not the stylesheet's`);
    assert(style.sheets >= 1, 'no stylesheet attached to the document');
  });

  await check('navigation: card title → project page → Dataflow, and card "Dataflow →" link', async () => {
    await page.goto(ROOT);
    const card = page.locator('article#project-widget-operator');
    await card.getByRole('link', { name: 'Widget Operator', exact: true }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/');
    eq((await page.locator('h1').innerText()).trim(), 'Widget Operator', 'project page h1');
    await page.locator('main').getByRole('link', { name: 'Dataflow', exact: true }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/dataflow/');
    eq((await page.locator('h1').innerText()).trim(), 'Widget Operator: Dataflow', 'dataflow page h1');

    // Breadcrumb back home, then the card's own "Dataflow →" link.
    await page.locator('.crumbs').getByRole('link', { name: 'Home', exact: true }).click();
    await waitForPath(PREFIX);
    await page.locator('article#project-widget-operator').getByRole('link', { name: 'Dataflow →' }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/dataflow/');
    eq((await page.locator('h1').innerText()).trim(), 'Widget Operator: Dataflow', 'dataflow page h1');
  });

  await check('dataflow page: sections, watch row, row anchor, mermaid source', async () => {
    if (!samePath(page.url(), PREFIX + 'projects/widget-operator/dataflow/')) {
      await page.goto(ROOT + 'projects/widget-operator/dataflow/');
    }
    const h2 = (await page.locator('main h2').allInnerTexts()).map((t) => t.replace('¶', '').trim());
    const wanted = [
      'Controller Watches',
      'Programmatic Resource Operations',
      'Reconciliation Flow',
      'Exposed Services',
      'Defined CRDs',
      'Webhooks',
      'HTTP Endpoints',
      'Configuration',
    ];
    let last = -1;
    for (const w of wanted) {
      const at = h2.indexOf(w);
      assert(at >= 0, `no h2 "${w}" among ${JSON.stringify(h2)}`);
      assert(at > last, `h2 "${w}" is out of order in ${JSON.stringify(h2)}`);
      last = at;
    }
    for (const w of wanted) {
      assert(await page.getByRole('heading', { level: 2, name: w }).isVisible(), `h2 ${w} not visible`);
    }

    const id = 'watch-widget-owns-apps-deployment';
    const row = page.locator(`tr#${id}`);
    await row.scrollIntoViewIfNeeded();
    assert(await row.isVisible(), `row #${id} is not visible`);
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    assert(cells.includes('apps/v1 Deployment'), `row #${id} cells ${JSON.stringify(cells)}`);
    assert(cells.includes('Owns'), `row #${id} cells ${JSON.stringify(cells)}`);

    // The ¶ only shows on hover, as for a person with a mouse.
    const anchor = row.locator('td.permalink a');
    assert(!(await anchor.isVisible()), 'row ¶ link is visible without hovering (style.css hides it)');
    await row.hover();
    await anchor.waitFor({ state: 'visible' });
    eq((await anchor.innerText()).trim(), '¶', 'row anchor text');
    await anchor.click();
    await page.waitForURL((u) => u.hash === `#${id}`);
    eq(new URL(page.url()).pathname, PREFIX + 'projects/widget-operator/dataflow/', 'path after ¶ click');
    eq(await page.evaluate(() => document.querySelector(':target')?.id), id, ':target after ¶ click');
    const inView = await row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    assert(inView, 'the targeted row is not scrolled into view');

    const details = page.locator('#flow-controller-widget + details.mermaid-source');
    eq(await details.count(), 1, 'mermaid <details> after #flow-controller-widget');
    const code = details.locator('pre code');
    eq(await details.evaluate((d) => d.open), false, 'details open before click');
    assert(!(await code.isVisible()), 'mermaid source visible before opening');
    await details.locator('summary', { hasText: 'mermaid source' }).click();
    await code.waitFor({ state: 'visible' });
    eq(await details.evaluate((d) => d.open), true, 'details open after click');
    const text = await code.innerText();
    assert(text.startsWith('sequenceDiagram'), `mermaid source starts ${JSON.stringify(text.slice(0, 40))}`);
    assert(text.includes('widget controller'), 'mermaid source does not mention the widget controller');

    await page.mouse.move(0, 0); // no hover highlight in the picture
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const size = fs.statSync(SCREENSHOT).size;
    assert(size > 10_000, `screenshot ${SCREENSHOT} is only ${size} bytes`);
  });

  await check('links: every /atlas/ link reachable from home answers 200, anchors exist', async () => {
    const queue = [ROOT];
    const seen = new Set(queue);
    const idsByPage = new Map(); // page URL → Set of ids, for fragment checks
    const fragmentLinks = []; // [from, absolute URL with hash]
    let external = 0;
    while (queue.length) {
      const url = queue.shift();
      assert(seen.size <= MAX_CRAWL, `crawl passed ${MAX_CRAWL} URLs; is something generating links?`);
      const res = await fetch(url, { redirect: 'manual' });
      eq(res.status, 200, `status of ${url}`);
      const type = res.headers.get('content-type') || '';
      const body = await res.text();
      if (type.startsWith('application/json')) JSON.parse(body);
      if (!type.startsWith('text/html')) continue;

      const nav = await page.goto(url);
      eq(nav.status(), 200, `browser status of ${url}`);
      const found = await page.evaluate(() => ({
        ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
        scripts: Array.from(document.scripts, (s) => s.textContent),
        links: Array.from(document.querySelectorAll('a[href], link[href], img[src], script[src]'), (e) => ({
          raw: e.getAttribute('href') ?? e.getAttribute('src'),
          abs: e.href || e.src,
        })),
      }));
      idsByPage.set(url, new Set(found.ids));
      assert(!found.scripts.some((s) => s.includes('alert(1)')), `${url} carries a live alert(1) script`);
      for (const { raw, abs } of found.links) {
        const u = new URL(abs);
        // The theme's empty icon: an inline data: URL, nothing fetched.
        if (raw === 'data:,') continue;
        if (u.origin !== ORIGIN) {
          assert(u.protocol === 'https:', `${url} links outside the site over ${u.protocol}: ${raw}`);
          external += 1;
          continue;
        }
        assert(
          raw.startsWith(PREFIX) || raw.startsWith('#'),
          `${url} has a link that is neither /atlas/… nor #…: ${JSON.stringify(raw)}`,
        );
        assert(u.pathname.startsWith(PREFIX), `${url} links outside ${PREFIX}: ${raw}`);
        if (u.hash) fragmentLinks.push([url, abs]);
        u.hash = '';
        const key = u.href;
        if (!seen.has(key)) {
          seen.add(key);
          queue.push(key);
        }
      }
    }
    for (const p of [
      '',
      'projects/widget-operator/',
      'projects/widget-operator/dataflow/',
      'projects/gadget-scheduler/',
      'projects/gadget-scheduler/dataflow/',
      'static/style.css',
      'data/widget-operator.json',
      'data/gadget-scheduler.json',
    ]) {
      assert(seen.has(ROOT + p), `the crawl from home never reached ${PREFIX}${p}`);
    }
    for (const [from, abs] of fragmentLinks) {
      const u = new URL(abs);
      const id = decodeURIComponent(u.hash.slice(1));
      u.hash = '';
      const ids = idsByPage.get(u.href);
      assert(ids, `${from} links to ${abs}, which is not an HTML page`);
      assert(ids.has(id), `${from} links to #${id}, but ${u.pathname} has no element with that id`);
    }
    console.log(
      `    crawled ${seen.size} URLs, ${fragmentLinks.length} fragment links, ${external} external links`,
    );
  });

  await check('404: a missing page gets 404.html with status 404, and it leads home', async () => {
    const missing = ROOT + 'projects/no-such-project/dataflow/';
    expected404.add(missing);
    const res = await page.goto(missing);
    eq(res.status(), 404, 'status of a missing page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ state: 'visible' });
    assert((await page.title()).startsWith('Not found'), `404 title ${JSON.stringify(await page.title())}`);
    const margin = await page.evaluate(() => getComputedStyle(document.body).marginTop);
    eq(margin, '0px', 'stylesheet applied on the 404 page (absolute /atlas/ link from a deep URL)');
    await page.locator('main').getByRole('link', { name: 'home page' }).click();
    await waitForPath(PREFIX);
    eq((await page.locator('h1').innerText()).trim(), 'Fixture Atlas', 'home h1 after leaving the 404 page');
  });

  await check('no dialog: the README\'s <script>alert(1)</script> never runs', async () => {
    // Visit the project page (where README content would go) and give any
    // script a moment to run; the dialog listener covers every page visited.
    await page.goto(ROOT + 'projects/widget-operator/');
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);
    const live = await page.evaluate(() =>
      Array.from(document.scripts).some((s) => (s.textContent || '').includes('alert(1)')),
    );
    assert(!live, 'the project page carries the README script as a live <script>');
    eq(dialogs, 0, 'dialogs fired during the whole run');
  });

  await check('whole run: no console errors, failed requests or unexpected error responses', async () => {
    assert(problems.length === 0, `browser reported:\n    ${problems.join('\n    ')}`);
    const allowed = new Set([...expected404].map((u) => new URL(u).pathname));
    const left = served.filter(
      (r) => r.status >= 400 && !allowed.has(r.path) && !probed.has(r.path),
    );
    assert(left.length === 0, `unexpected error answers: ${JSON.stringify(left)}`);
  });
} finally {
  await context.close().catch(() => {});
  await new Promise((resolve) => server.close(resolve));
  await fsp.rm(userDataDir, { recursive: true, force: true }).catch(() => {});
}

console.log(`screenshot: ${SCREENSHOT}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
