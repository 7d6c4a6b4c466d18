// End-to-end browser test of a site built by portolan from tests/fixtures/portal.toml.
//
//   node tests/e2e/site.mjs <built-site-folder>
//
// Serves the folder with a tiny static HTTP server on 127.0.0.1 (random port)
// under the path prefix /atlas/ (the fixture's base_url), the way GitHub Pages
// serves a project site, and drives Debian's headless Chromium through
// playwright-core to check what a person sees and can click: every page loads
// cleanly, every internal link and anchor (SVG diagram links too) resolves,
// diagrams are visible and clickable, every generated .mmd file passes the real
// mermaid parser, dark mode toggles and persists, and narrow phones get no
// horizontal page scroll.
//
// The mermaid parser is npm's `mermaid` package (a devDependency): its browser
// bundle is served from the test server under /__e2e__/, outside the site, so no
// site page can load it by accident.
//
// Environment: PORTOLAN_CHROMIUM overrides the browser (default /usr/bin/chromium);
// PORTOLAN_E2E_SCREENSHOTS the folder the screenshots go to (default
// target/e2e-screenshots/ in the repository, which git ignores; CI keeps it as an
// artifact). Prints one line per check and a closing line `N passed, M failed`;
// exits non-zero if any check failed.

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';

const PREFIX = '/atlas/';
const CHROMIUM = process.env.PORTOLAN_CHROMIUM || '/usr/bin/chromium';
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const SHOTS = path.resolve(process.env.PORTOLAN_E2E_SCREENSHOTS || path.join(REPO, 'target', 'e2e-screenshots'));
const MERMAID_JS = path.join(REPO, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js');
const AXE_JS = path.join(REPO, 'node_modules', 'axe-core', 'axe.min.js');
const OVERALL_TIMEOUT_MS = 240_000; // the whole run; normally takes well under a minute
const STEP_TIMEOUT_MS = 15_000; // any single Playwright wait
const MAX_CRAWL = 2_000; // pages/files the link crawl visits at most
const PHONE_WIDTH = 375; // CSS pixels: a small phone held upright
// Test-only files, served outside the site's prefix.
const TEST_ONLY = '/__e2e__/';
const TEST_FILES = {
  [TEST_ONLY + 'mermaid.min.js']: () => ({ type: 'text/javascript; charset=utf-8', body: fs.readFileSync(MERMAID_JS) }),
  [TEST_ONLY + 'parser.html']: () => ({
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mermaid parser</title><link rel="icon" href="data:,">' +
      `<script src="${TEST_ONLY}mermaid.min.js"></script></head><body></body></html>`,
  }),
};

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
if (!fs.existsSync(MERMAID_JS)) {
  console.error(`site.mjs: ${MERMAID_JS} is missing; run \`npm ci\` in ${REPO}`);
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) {
  console.error(`site.mjs: no browser at ${CHROMIUM}; install Debian's chromium (apt-get install chromium)`);
  process.exit(2);
}

fs.mkdirSync(SHOTS, { recursive: true });

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
  '.mmd': 'text/plain; charset=utf-8',
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
  if (Object.hasOwn(TEST_FILES, pathname)) {
    const { type, body } = TEST_FILES[pathname]();
    send(req, res, 200, type, body);
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

/** Pages whose console errors go to their own list instead (the mermaid parser's). */
const ownConsole = new Map();

function watchPage(page) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url || '';
    if (expected404.has(where)) return;
    const text = `console error on ${page.url()}: ${msg.text()}`;
    (ownConsole.get(page) ?? problems).push(text);
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

/** Every file below `dir`, as '/'-separated paths relative to it, sorted. */
function listFiles(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out.sort();
}

/** The URL a file of the site is served at: folders' index.html as the folder. */
function urlOf(rel) {
  return ROOT + (rel === 'index.html' ? '' : rel.replace(/\/index\.html$/, '/'));
}

const SHOT_PAGES = [
  ['home', ''],
  ['dataflow-widget-operator', 'projects/widget-operator/dataflow/'],
  ['kind-widget', 'kinds/widgets.example.io/Widget/'],
];

/** Full-page screenshots of SHOT_PAGES in `p`'s viewport, named `<name><suffix>.png`. */
async function screenshots(p, suffix) {
  for (const [name, rel] of SHOT_PAGES) {
    await p.goto(ROOT + rel);
    await p.mouse.move(0, 0); // no hover highlight in the picture
    const file = path.join(SHOTS, `${name}${suffix}.png`);
    await p.screenshot({ path: file, fullPage: true });
    const size = fs.statSync(file).size;
    assert(size > 10_000, `screenshot ${file} is only ${size} bytes`);
  }
}

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
    await page.locator('main a.page-card', { hasText: 'Dataflow' }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/dataflow/');
    eq((await page.locator('h1').innerText()).trim(), 'Widget Operator: Dataflow', 'dataflow page h1');
    // The breadcrumbs lead back: Home › Widget Operator › Dataflow.
    const crumbs = (await page.locator('nav.breadcrumbs li').allInnerTexts()).map((t) => t.trim());
    eq(JSON.stringify(crumbs), JSON.stringify(['Home', 'Widget Operator', 'Dataflow']), 'breadcrumbs');

    // Breadcrumb back home, then the card's own "Dataflow →" link.
    await page.locator('nav.breadcrumbs').getByRole('link', { name: 'Home', exact: true }).click();
    await waitForPath(PREFIX);
    await page.locator('article#project-widget-operator').getByRole('link', { name: 'Dataflow →' }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/dataflow/');
    eq((await page.locator('h1').innerText()).trim(), 'Widget Operator: Dataflow', 'dataflow page h1');
  });

  await check('dataflow page: sections; a controller page: watch row, row anchor, mermaid source', async () => {
    if (!samePath(page.url(), PREFIX + 'projects/widget-operator/dataflow/')) {
      await page.goto(ROOT + 'projects/widget-operator/dataflow/');
    }
    const h2 = (await page.locator('main h2').allInnerTexts()).map((t) => t.replace('¶', '').trim());
    const wanted = [
      'Controllers',
      'Reconciliation Flow',
      'Exposed Services',
      'Defined CRDs',
      'Webhooks',
      'HTTP and gRPC Endpoints',
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
    // The main controller comes first and opens its own page.
    const first = page.locator('table.controllers tbody tr').first();
    assert((await first.innerText()).includes('main'), 'the first controller is not marked main');
    await first.getByRole('link', { name: 'widget', exact: true }).click();
    await waitForPath(PREFIX + 'projects/widget-operator/controllers/widget/');
    const controllerH2 = (await page.locator('main h2').allInnerTexts()).map((t) => t.replace('¶', '').trim());
    for (const w of ['Watches', 'Writes', 'Reads', 'Sequence diagram', 'RBAC versus code']) {
      assert(controllerH2.includes(w), `controller page: no h2 "${w}" among ${JSON.stringify(controllerH2)}`);
    }
    // How complete the picture is: the client calls line, and the note above the rules.
    const facts = await page.locator('dl.facts').innerText();
    assert(/Client calls\s+\d+ of \d+ client calls? resolved|Client calls\s+No client calls/.test(facts), `controller page: no client calls line in ${JSON.stringify(facts)}`);
    const note = (await page.locator('p.completeness').first().innerText()).trim();
    assert(/^(Complete|Lower bound): /.test(note), `least-privilege note ${JSON.stringify(note)}`);

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
    eq(new URL(page.url()).pathname, PREFIX + 'projects/widget-operator/controllers/widget/', 'path after ¶ click');
    eq(await page.evaluate(() => document.querySelector(':target')?.id), id, ':target after ¶ click');
    const inView = await row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      // A pixel of slack: the header's height may be fractional.
      return r.top >= -1 && r.bottom <= window.innerHeight + 1;
    });
    assert(inView, 'the targeted row is not scrolled into view');

    const details = page.locator('#sequence ~ details.mermaid-source');
    eq(await details.count(), 1, 'mermaid <details> after #sequence');
    const code = details.locator('pre code');
    eq(await details.evaluate((d) => d.open), false, 'details open before click');
    assert(!(await code.isVisible()), 'mermaid source visible before opening');
    await details.locator('summary', { hasText: 'mermaid source' }).click();
    await code.waitFor({ state: 'visible' });
    eq(await details.evaluate((d) => d.open), true, 'details open after click');
    const text = await code.innerText();
    assert(text.startsWith('sequenceDiagram'), `mermaid source starts ${JSON.stringify(text.slice(0, 40))}`);
    assert(text.includes('widget controller'), 'mermaid source does not mention the widget controller');

  });

  // What the crawl learns, for the checks after it.
  const site = {
    pages: new Map(), // HTML page URL (no hash) → { ids: Set, diagrams: [...] }
    files: new Set(), // every other URL the site links to (CSS, JS, JSON, .mmd, images)
  };

  await check('crawl: every page loads cleanly, every internal link and anchor resolves', async () => {
    const queue = [ROOT];
    const seen = new Set(queue);
    const fragmentLinks = []; // [from page, absolute URL with #fragment]
    let external = 0;
    let svgLinks = 0;
    while (queue.length) {
      const url = queue.shift();
      assert(seen.size <= MAX_CRAWL, `crawl passed ${MAX_CRAWL} URLs; is something generating links?`);
      const res = await fetch(url, { redirect: 'manual' });
      eq(res.status, 200, `status of ${url}`);
      const type = res.headers.get('content-type') || '';
      const body = await res.text();
      if (type.startsWith('application/json')) JSON.parse(body);
      if (!type.startsWith('text/html')) {
        site.files.add(url);
        continue;
      }

      const before = problems.length;
      const nav = await page.goto(url, { waitUntil: 'load' });
      eq(nav.status(), 200, `browser status of ${url}`);
      assert(problems.length === before, `${url} did not load cleanly:\n    ${problems.slice(before).join('\n    ')}`);
      const found = await page.evaluate(() => {
        const links = [];
        for (const e of document.querySelectorAll('a, link[href], img[src], script[src]')) {
          // An SVG <a>'s href property is an SVGAnimatedString; baseVal reflects
          // `href` or, failing that, `xlink:href`.
          const svg = e instanceof SVGElement;
          const raw = svg ? e.href.baseVal || null : (e.getAttribute('href') ?? e.getAttribute('src'));
          if (raw === null) continue; // an <a> without href (the sanitizer strips unsafe ones)
          links.push({ raw, abs: new URL(raw, document.baseURI).href, svg });
        }
        const ids = Array.from(document.querySelectorAll('[id]'), (e) => e.id);
        const diagrams = Array.from(document.querySelectorAll('svg.diagram'), (s) => {
          const r = s.getBoundingClientRect();
          return {
            label: s.getAttribute('aria-label'),
            width: r.width,
            height: r.height,
            folded: s.closest('details:not([open])') !== null,
          };
        });
        return {
          links,
          ids,
          diagrams,
          wide: document.scrollingElement.scrollWidth > window.innerWidth,
          scripts: Array.from(document.scripts, (s) => s.textContent),
        };
      });
      assert(!found.wide, `${url} scrolls sideways at the desktop width`);
      const ids = new Set(found.ids);
      const dupes = found.ids.filter((id, i) => found.ids.indexOf(id) !== i);
      assert(dupes.length === 0, `${url} repeats ids ${JSON.stringify([...new Set(dupes)])}`);
      site.pages.set(url, { ids, diagrams: found.diagrams });
      assert(!found.scripts.some((s) => s.includes('alert(1)')), `${url} carries a live alert(1) script`);
      for (const { raw, abs, svg } of found.links) {
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
        if (svg) svgLinks += 1;
        if (u.hash) fragmentLinks.push([url, abs]);
        u.hash = '';
        const key = u.href;
        if (!seen.has(key)) {
          seen.add(key);
          queue.push(key);
        }
      }
    }

    // Every page and diagram file on disk is reachable from home (404.html is
    // reached by a miss, checked below).
    const onDisk = listFiles(SITE)
      .filter((f) => (f.endsWith('.html') && f !== '404.html') || f.endsWith('.mmd'))
      .map(urlOf);
    const orphans = onDisk.filter((u) => !seen.has(u));
    assert(orphans.length === 0, `pages or .mmd files no link reaches from home:\n    ${orphans.join('\n    ')}`);
    assert(
      site.pages.size === onDisk.filter((u) => !u.endsWith('.mmd')).length,
      `crawled ${site.pages.size} pages, the site has ${onDisk.length} pages and .mmd files; crawled but not on disk: ${[...site.pages.keys()].filter((u) => !onDisk.includes(u)).join(' ')}`,
    );

    let acrossPages = 0;
    for (const [from, abs] of fragmentLinks) {
      const u = new URL(abs);
      const id = decodeURIComponent(u.hash.slice(1));
      u.hash = '';
      const target = site.pages.get(u.href);
      assert(target, `${from} links to ${abs}, which is not an HTML page`);
      assert(target.ids.has(id), `${from} links to #${id}, but ${u.pathname} has no element with that id`);
      if (u.href !== from) acrossPages += 1;
    }
    // The crawl did see each kind of link it claims to check.
    assert(svgLinks > 0, 'no link inside an SVG diagram was found');
    assert(acrossPages > 0, 'no link to an anchor on another page was found');
    console.log(
      `    crawled ${site.pages.size} pages and ${site.files.size} other files; checked ` +
        `${fragmentLinks.length} anchor links (${acrossPages} to other pages), ${svgLinks} SVG links; ` +
        `${external} external links`,
    );
  });

  await check('diagrams: every SVG diagram has a non-zero size on its page', async () => {
    const drawn = listFiles(SITE)
      .filter((f) => f.endsWith('.html') && f !== '404.html')
      .reduce((n, f) => n + (fs.readFileSync(path.join(SITE, f), 'utf8').match(/<svg [^>]*class="diagram /g) || []).length, 0);
    let measured = 0;
    for (const [url, { diagrams }] of site.pages) {
      for (const d of diagrams) {
        measured += 1;
        if (d.folded) continue; // inside a closed <details>: no box until opened
        assert(d.width > 0 && d.height > 0, `${url}: diagram "${d.label}" is ${d.width}×${d.height}`);
      }
    }
    assert(drawn > 0, 'the site has no SVG diagram');
    eq(measured, drawn, 'diagrams the browser saw versus <svg class="diagram …"> in the files');
    for (const p of ['', 'projects/widget-operator/dataflow/', 'projects/gadget-scheduler/dataflow/']) {
      const shown = (site.pages.get(ROOT + p)?.diagrams || []).filter((d) => !d.folded);
      assert(shown.length > 0, `${PREFIX}${p} shows no diagram`);
    }
    console.log(`    ${measured} diagrams`);
  });

  await check('CRD reference: a tree of the first levels; a field opens from the all-fields page; deep link, filter, expand and collapse all', async () => {
    const kindPage = ROOT + 'projects/kube-operator/api/leash.example.io/Leash/';
    await page.goto(kindPage);
    const routes = page.locator('li[data-path="spec.routes[]"]');
    eq(await routes.getAttribute('aria-expanded'), 'false', 'spec.routes[] before opening');
    eq(await page.locator('#field-spec-routes-street').count(), 0, 'a third-level field drawn before opening');
    await routes.locator('> .field-row button.toggle').click();
    await page.locator('#field-spec-routes-street').waitFor({ state: 'visible' });
    eq(await routes.getAttribute('aria-expanded'), 'true', 'spec.routes[] after opening');
    // What the opened field shows was read from its all-fields row.
    const drawnField = await page.locator('#field-spec-routes-street > .field-row').evaluate((r) => ({
      name: r.querySelector('code.name').textContent,
      type: r.querySelector('code.type').textContent,
      desc: (r.querySelector('p.desc') || { textContent: '' }).textContent,
    }));
    await routes.locator('> .field-row button.toggle').press('ArrowLeft');
    eq(await routes.getAttribute('aria-expanded'), 'false', 'spec.routes[] after ArrowLeft');
    assert(!(await page.locator('#field-spec-routes-street').isVisible()), 'street still shown after closing');
    // A deep link opens the path to its field and scrolls it into view.
    await page.goto(kindPage + '#field-spec-routes-minutes');
    const minutes = page.locator('#field-spec-routes-minutes');
    await minutes.waitFor({ state: 'visible' });
    const inView = await minutes.evaluate((e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; });
    assert(inView, 'the deep-linked field is not in view');
    // Expand all, collapse all.
    await page.goto(kindPage);
    await page.locator('.schema .expand-all').first().click();
    await page.locator('#field-spec-routes-street').waitFor({ state: 'visible' });
    await page.locator('.schema .collapse-all').first().click();
    assert(!(await page.locator('#field-spec-routes-street').isVisible()), 'street shown after collapse all');
    // The filter lists matching fields; a click opens one.
    await page.locator('.schema-filter').first().fill('minutes');
    const match = page.locator('.schema-matches a', { hasText: 'spec.routes[].minutes' });
    await match.waitFor({ state: 'visible' });
    await match.click();
    await page.locator('#field-spec-routes-minutes').waitFor({ state: 'visible' });
    // The all-fields page lists every field for readers without script.
    await page.goto(kindPage + 'all-fields/');
    assert(await page.locator('tr#field-spec-routes-street').count() === 1, 'the all-fields page lacks spec.routes[].street');
    const row = await page.locator('tr#field-spec-routes-street').evaluate((r) => ({
      name: r.querySelector('td:first-child a code').textContent,
      type: r.querySelector('td:nth-child(2) code').textContent,
      desc: r.cells[3].firstChild && r.cells[3].firstChild.nodeType === 3 ? r.cells[3].firstChild.nodeValue : '',
    }));
    eq(JSON.stringify(drawnField), JSON.stringify(row), 'the opened field versus its all-fields row');
    assert(row.name === 'street' && row.type !== '', `street's row: ${JSON.stringify(row)}`);
    // The name's link to its own row is made by nav.js (the page's HTML has only the id).
    eq(await page.locator('tr#field-spec-routes-street td:first-child a').getAttribute('href'), '#field-spec-routes-street', "street's name link");
  });

  await check('CRD reference: an example manifest per served version with a Copy button; the changes between versions', async () => {
    await page.goto(ROOT + 'projects/widget-operator/api/widgets.example.io/Gizmo/');
    const examples = page.locator('details.copy-source.example');
    eq(await examples.count(), 2, 'example manifests (v1beta1 and v1alpha1)');
    const first = examples.first();
    const yaml = await first.locator('pre code.language-yaml').innerText();
    eq(yaml, 'apiVersion: widgets.example.io/v1beta1\nkind: Gizmo\nmetadata:\n  name: example\nspec: {}', 'the storage version\'s example');
    const copy = page.locator('#version-v1beta1-example + button.copy');
    eq(await copy.innerText(), 'Copy', 'the Copy button before the example');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
    await copy.click();
    await page.waitForFunction(() => document.querySelector('#version-v1beta1-example + button.copy').textContent !== 'Copy');
    eq(await copy.innerText(), 'Copied', 'the Copy button after a click');
    eq(await page.evaluate(() => navigator.clipboard.readText()), yaml, 'what the Copy button copied');
    const rows = await page.locator('table.changes tbody tr').allInnerTexts();
    eq(
      rows.map((r) => r.split('\t').join(' | ')).join('\n'),
      'spec.secretName | added | string\nstatus | added | object, 1 field under it',
      'changes from v1alpha1 to v1beta1',
    );
  });

  await check('diagrams: zoom in and out, fit the width, 100 %; fitted on a phone with a cue', async () => {
    await page.goto(ROOT + 'projects/widget-operator/controllers/widget/');
    const svg = page.locator('#sequence ~ figure.diagram-wrap svg.diagram').first();
    const tools = page.locator('#sequence ~ .diagram-tools').first();
    const width = async () => Number(await svg.getAttribute('width'));
    const w0 = await width();
    await tools.getByRole('button', { name: 'Zoom in' }).click();
    eq(await width(), Math.round(w0 * 1.25), 'width after zooming in');
    await tools.getByRole('button', { name: 'Zoom out' }).click();
    eq(await width(), w0, 'width after zooming out');
    await tools.getByRole('button', { name: '100 %', exact: true }).click();
    eq(await width(), w0, 'width at 100 %');
    await tools.getByRole('button', { name: 'Fit width', exact: true }).click();
    const frame = await page.locator('#sequence ~ figure.diagram-wrap').first().evaluate((e) => e.clientWidth);
    assert(await width() <= frame, `fitted width ${await width()} is wider than its frame ${frame}`);

    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: PHONE_WIDTH, height: 800 });
      await phone.goto(ROOT + 'projects/widget-operator/controllers/widget/');
      const fig = phone.locator('#sequence ~ figure.diagram-wrap').first();
      const drawn = Number(await fig.locator('svg.diagram').getAttribute('width'));
      const room = await fig.evaluate((e) => e.clientWidth);
      assert(drawn <= room, `on a phone the diagram starts at ${drawn} px in a ${room} px frame`);
      assert(await phone.locator('#sequence ~ .diagram-tools .diagram-cue').first().isVisible(), 'no cue that the diagram is wider than the page');
    } finally {
      await phone.close();
    }
  });

  await check('diagrams: a grouped arrow of the summary names its kinds and opens their row under the diagram', async () => {
    await page.goto(ROOT + 'projects/widget-operator/dataflow/');
    const arrow = page.locator('#flow-summary ~ figure.diagram-wrap svg.diagram a[href*="#arrow-"]').first();
    const id = new URL(await arrow.getAttribute('href'), page.url()).hash.slice(1);
    eq(await arrow.locator('text').textContent(), 'Watch Deployment, Service, Ingress (owned)', 'grouped arrow label');
    eq(
      await arrow.locator('title').textContent(),
      'Watch (owned), 3 kinds: apps/v1 Deployment, v1 Service, networking.k8s.io/v1 Ingress',
      'grouped arrow tooltip',
    );
    const details = page.locator('details.flow-groups');
    eq(await details.evaluate((d) => d.open), false, 'the grouped arrows table is open before the click');
    await arrow.locator('text').click(); // the label: the group's box has gaps
    await page.waitForURL((u) => u.hash === `#${id}`);
    eq(await details.evaluate((d) => d.open), true, 'the grouped arrows table is closed after the click');
    const row = page.locator(`tr#${id}`);
    const inView = await row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1;
    });
    assert(inView, `row #${id} is not in view after the click`);
    const kinds = await row.locator('td a[href*="/kinds/"]').allInnerTexts();
    eq(kinds.join(', '), 'apps/v1 Deployment, v1 Service, networking.k8s.io/v1 Ingress', 'kinds of the grouped arrow');
  });

  await check('accessibility: axe-core finds no serious or critical violation on the key pages, light and dark', async () => {
    const axe = fs.readFileSync(AXE_JS, 'utf8');
    const pages = [
      '',
      'projects/widget-operator/',
      'projects/widget-operator/dataflow/',
      'projects/widget-operator/controllers/widget/',
      'projects/kube-operator/api/leash.example.io/Leash/',
      'projects/widget-operator/api/widgets.example.io/Gizmo/',
      'projects/widget-operator/security/',
      'platform/rbac/',
      'kinds/widgets.example.io/Widget/',
      'search/?q=widget',
    ];
    const found = [];
    let checked = 0;
    for (const scheme of ['light', 'dark']) {
      const a11y = await context.newPage();
      try {
        await a11y.emulateMedia({ colorScheme: scheme });
        for (const p of pages) {
          await a11y.goto(ROOT + p);
          await a11y.waitForLoadState('load');
          await a11y.addScriptTag({ content: axe });
          const violations = await a11y.evaluate(async () => {
            const r = await window.axe.run(document, { resultTypes: ['violations'] });
            return r.violations
              .filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
          });
          checked += 1;
          for (const v of violations) found.push(`${scheme} ${PREFIX}${p}: ${v}`);
        }
      } finally {
        await a11y.close();
      }
    }
    assert(found.length === 0, `axe-core violations:\n    ${found.join('\n    ')}`);
    console.log(`    ${checked} page views checked with axe-core`);
  });

  await check('sequence diagram: a message opens its kind page, a participant its section', async () => {
    await page.goto(ROOT + 'projects/widget-operator/controllers/widget/');
    const diagram = page.locator('svg.diagram.sequence[aria-label="Reconciliation flow of the widget controller"]');
    eq(await diagram.count(), 1, 'widget controller diagrams');
    const message = diagram.locator('a', { has: page.locator('text.label', { hasText: 'Watch apps/v1 Deployment (owned)' }) });
    eq(await message.count(), 1, 'links around the Deployment watch message');
    await message.scrollIntoViewIfNeeded();
    await message.click();
    await waitForPath(PREFIX + 'kinds/apps/Deployment/');
    const h1 = (await page.locator('h1').innerText()).trim();
    assert(h1.includes('Deployment'), `kind page h1 ${JSON.stringify(h1)}`);

    // In the project summary, a controller opens its page's diagram.
    await page.goto(ROOT + 'projects/widget-operator/dataflow/');
    const summary = page.locator('svg.diagram.sequence').first();
    const participant = summary.locator('a', { has: page.locator('text.name', { hasText: 'widget controller' }) }).first();
    await participant.scrollIntoViewIfNeeded();
    await participant.click();
    await waitForPath(PREFIX + 'projects/widget-operator/controllers/widget/');
    await page.waitForURL((u) => u.hash === '#sequence');
    eq(await page.evaluate(() => document.querySelector(':target')?.id), 'sequence', ':target after clicking the participant');
  });

  await check('home graph: a project node opens the project, a kind opens its kind page', async () => {
    await page.goto(ROOT);
    const graph = page.locator('svg.diagram.graph');
    eq(await graph.count(), 1, 'graphs on the home page');
    await graph.locator('a', { hasText: 'Gadget Scheduler' }).click();
    await waitForPath(PREFIX + 'projects/gadget-scheduler/');
    eq((await page.locator('h1').innerText()).trim(), 'Gadget Scheduler', 'project page h1');
    await page.goBack();
    await waitForPath(PREFIX);
    // Widget is one box (the scheduler and the kube-rs operator watch it); its item links the kind.
    await graph.locator('a', { has: page.locator('text.item', { hasText: 'Widget' }) }).first().click();
    await waitForPath(PREFIX + 'kinds/widgets.example.io/Widget/');
    const h1 = (await page.locator('h1').innerText()).trim();
    assert(h1.includes('Widget'), `kind page h1 ${JSON.stringify(h1)}`);
  });

  await check('mermaid: every .mmd file passes the real mermaid parser; a broken one does not', async () => {
    const files = [...site.files].filter((u) => new URL(u).pathname.endsWith('.mmd')).sort();
    const onDisk = listFiles(SITE).filter((f) => f.endsWith('.mmd'));
    assert(onDisk.length > 0, 'the site has no .mmd file');
    eq(files.length, onDisk.length, '.mmd files linked versus on disk');

    // Each page's "mermaid source" shows exactly the text of the .mmd file it offers.
    let compared = 0;
    for (const url of site.pages.keys()) {
      if (!/\/(dataflow|controllers\/[^/]+)\/$/.test(new URL(url).pathname)) continue;
      await page.goto(url);
      const sources = await page.locator('details.mermaid-source').evaluateAll((all) =>
        all.map((d) => ({
          text: d.querySelector('pre code')?.textContent ?? null,
          file: d.querySelector('a[href$=".mmd"]')?.href ?? null,
        })),
      );
      for (const { text, file } of sources) {
        assert(text !== null && file !== null, `${url}: a mermaid source without code or .mmd link`);
        eq(text, await (await fetch(file)).text(), `${url}: source shown for ${file}`);
        compared += 1;
      }
    }
    eq(compared, files.length, 'mermaid sources on pages versus .mmd files');

    const parser = await context.newPage();
    const parserConsole = [];
    ownConsole.set(parser, parserConsole);
    try {
      await parser.goto(ORIGIN + TEST_ONLY + 'parser.html');
      await parser.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
      const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(MERMAID_JS), '..', 'package.json'), 'utf8'));
      const parse = (text) =>
        parser.evaluate(async (t) => {
          try {
            const r = await window.mermaid.parse(t);
            return { ok: r !== false, type: r?.diagramType ?? null };
          } catch (e) {
            return { ok: false, error: String(e?.message || e).split('\n').slice(0, 4).join(' | ') };
          }
        }, text);
      let widget = null;
      for (const url of files) {
        const text = await (await fetch(url)).text();
        if (url.endsWith('/widget-operator/dataflow/widget.mmd')) widget = text;
        const r = await parse(text);
        assert(r.ok, `mermaid rejects ${new URL(url).pathname}: ${r.error}`);
        eq(r.type, 'sequence', `diagram type of ${new URL(url).pathname}`);
      }
      assert(parserConsole.length === 0, `the parser complained:\n    ${parserConsole.join('\n    ')}`);
      // The check can fail: the same diagram with a message that lacks its target is refused.
      assert(widget, 'no widget.mmd among the files');
      const broken = widget.replace(/^(\s*)api->>c0:/m, '$1api->>:');
      assert(broken !== widget, 'could not break widget.mmd (its first message line changed?)');
      const r = await parse(broken);
      assert(!r.ok, 'mermaid accepted a diagram with a message that has no target');
      console.log(`    mermaid ${version}: ${files.length} .mmd files parsed; broken diagram refused: ${r.error}`);
    } finally {
      await parser.close();
    }
  });

  await check('dark mode: the toggle switches theme and background, and the choice persists', async () => {
    await page.goto(ROOT);
    await page.evaluate(() => localStorage.removeItem('portolan-theme'));
    await page.reload();
    const state = () =>
      page.evaluate(() => {
        const toggle = document.getElementById('theme-toggle');
        const text = document.querySelector('svg.diagram text');
        return {
          theme: document.documentElement.dataset.theme ?? null,
          background: getComputedStyle(document.body).backgroundColor,
          diagramText: text ? getComputedStyle(text).fill : null,
          stored: localStorage.getItem('portolan-theme'),
          pressed: toggle?.getAttribute('aria-pressed') ?? null,
        };
      });
    const toggle = page.locator('#theme-toggle');
    assert(await toggle.isVisible(), 'the theme toggle is not visible');
    const light = await state();
    eq(light.theme, null, 'data-theme before any choice (the system is light)');
    eq(light.pressed, 'false', 'aria-pressed in light mode');

    await toggle.click();
    const dark = await state();
    eq(dark.theme, 'dark', 'data-theme after one click');
    eq(dark.stored, 'dark', 'stored choice after one click');
    eq(dark.pressed, 'true', 'aria-pressed in dark mode');
    assert(dark.background !== light.background, `background stayed ${light.background}`);
    assert(dark.diagramText !== light.diagramText, `diagram text fill stayed ${light.diagramText}`);

    await page.reload();
    const again = await state();
    eq(again.theme, 'dark', 'data-theme after reload');
    eq(again.background, dark.background, 'background after reload');
    await page.goto(ROOT + 'projects/widget-operator/dataflow/');
    eq((await state()).background, dark.background, 'background on another page');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'dataflow-dark.png'), fullPage: true });

    await page.locator('#theme-toggle').click();
    const back = await state();
    eq(back.theme, 'light', 'data-theme after the second click');
    eq(back.background, light.background, 'background after the second click');
    await page.reload();
    eq((await state()).theme, 'light', 'data-theme after reload in light mode');
    await page.evaluate(() => localStorage.removeItem('portolan-theme'));
  });

  await check('navigation: sidebar with the project opened, "On this page" with scroll-spy, drawer on a phone', async () => {
    await page.goto(ROOT + 'projects/widget-operator/controllers/widget/');
    const sidebar = page.locator('aside#sidebar');
    assert(await sidebar.isVisible(), 'no sidebar at desktop width');
    const current = sidebar.locator('[aria-current="page"]');
    eq((await current.innerText()).trim(), 'widget', 'the current page in the sidebar');
    // Only the current project lists its pages.
    eq(await sidebar.locator('nav.projects > ul > li.open').count(), 1, 'opened projects');
    const toc = sidebar.locator('nav.toc');
    assert(await toc.isVisible(), 'no "On this page" in the sidebar');
    const entries = (await toc.locator('li.toc-h2 > a').allInnerTexts()).map((t) => t.trim());
    for (const w of ['Watches', 'Writes', 'Reads', 'Sequence diagram']) {
      assert(entries.includes(w), `"On this page" lacks ${w}: ${JSON.stringify(entries)}`);
    }
    // Scroll-spy: reading the Reads section marks it.
    await page.evaluate(() => document.getElementById('reads').scrollIntoView());
    await page.waitForFunction(() => document.querySelector('nav.toc a.active')?.getAttribute('href') === '#reads');
    // A click on an entry lands on its section.
    await toc.getByRole('link', { name: 'Writes', exact: true }).click();
    await page.waitForURL((u) => u.hash === '#writes');

    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: PHONE_WIDTH, height: 800 });
      await phone.goto(ROOT + 'projects/widget-operator/controllers/widget/');
      const drawer = phone.locator('aside#sidebar');
      const menu = phone.locator('#menu-button');
      assert(await menu.isVisible(), 'no menu button on a phone');
      const shown = async () => drawer.evaluate((e) => { const r = e.getBoundingClientRect(); return r.right > 0 && r.left < window.innerWidth; });
      assert(!(await shown()), 'the drawer is open before the menu button is pressed');
      await menu.click();
      await phone.waitForFunction(() => document.getElementById('sidebar').getBoundingClientRect().left >= 0);
      eq(await menu.getAttribute('aria-expanded'), 'true', 'menu button aria-expanded');
      await phone.keyboard.press('Escape');
      await phone.waitForFunction(() => document.getElementById('sidebar').getBoundingClientRect().right <= 0);
      // A table of three or more columns reads as one card per row, each cell labelled.
      const label = await phone.locator('table.stack td[data-label="Kind"]').first().evaluate((td) => getComputedStyle(td, '::before').content);
      eq(label, '"Kind"', 'a card cell shows its column');
    } finally {
      await phone.close();
    }
  });

  for (const WIDTH of [PHONE_WIDTH, 1280]) await check(`${WIDTH} px: no page scrolls sideways; what does not fit scrolls inside its frame`, async () => {
    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: WIDTH, height: 800 });
      const wide = [];
      const squeezedPaths = [];
      let pathsSeen = 0;
      for (const url of site.pages.keys()) {
        await phone.goto(url);
        const m = await phone.evaluate(() => {
          const w = document.scrollingElement.scrollWidth;
          // What sticks out, for the message: elements wider than the viewport whose
          // parent does not clip or scroll them.
          const out = [];
          if (w > window.innerWidth) {
            for (const e of document.querySelectorAll('body *')) {
              const r = e.getBoundingClientRect();
              const parent = e.parentElement && getComputedStyle(e.parentElement).overflowX;
              if (r.right > window.innerWidth + 0.5 && parent === 'visible') {
                out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''} right=${Math.round(r.right)}`);
              }
              if (out.length >= 3) break;
            }
          }
          // A source path wraps only where it may (after a slash, a hyphen or a space):
          // broken anywhere, a column of them was squeezed to a letter per line.
          const squeezed = [];
          let paths = 0;
          for (const c of document.querySelectorAll('td code')) {
            const text = c.textContent;
            if (!text.includes('/')) continue;
            paths += 1;
            const pieces = text.split(/(?<=[\/\-\s])/).length;
            // One rect per piece of text between <wbr>s: count the distinct line tops.
            const lines = new Set([...c.getClientRects()].map((r) => Math.round(r.top))).size;
            if (lines > pieces && squeezed.length < 3) squeezed.push(`"${text}" on ${lines} lines`);
          }
          return { w, out, squeezed, paths };
        });
        if (m.w > WIDTH) wide.push(`${new URL(url).pathname}: scrollWidth ${m.w} (${m.out.join(', ')})`);
        if (m.squeezed.length) squeezedPaths.push(`${new URL(url).pathname}: ${m.squeezed.join(', ')}`);
        pathsSeen += m.paths;
      }
      assert(wide.length === 0, `pages wider than ${WIDTH} px:\n    ${wide.join('\n    ')}`);
      assert(squeezedPaths.length === 0, `paths broken inside a segment:\n    ${squeezedPaths.join('\n    ')}`);
      assert(pathsSeen > 0, 'no path in a table cell was measured');
      for (const p of ['', 'projects/widget-operator/dataflow/', 'kinds/widgets.example.io/Widget/']) {
        assert(site.pages.has(ROOT + p), `${PREFIX}${p} was not among the pages checked`);
      }
      console.log(`    ${site.pages.size} pages checked at ${WIDTH} px (${pathsSeen} paths in table cells)`);
      if (WIDTH === PHONE_WIDTH) await screenshots(phone, '-375');
    } finally {
      await phone.close();
    }
  });

  await check('screenshots: home, a Dataflow page and a kind page (desktop)', async () => {
    await screenshots(page, '');
    console.log(`    saved in ${SHOTS}`);
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

  // ---- search (issue 6): the browser script against tantivy's ranking
  const searchExpect = process.env.PORTOLAN_E2E_SEARCH
    ? JSON.parse(fs.readFileSync(process.env.PORTOLAN_E2E_SEARCH, 'utf8'))
    : null;
  const sitePath = (url) => url.replace(/^https?:\/\/[^/]+/, '').replace(PREFIX, '');

  await check('search: the browser tokenizer gives the shared test vectors', async () => {
    const vectors = JSON.parse(fs.readFileSync(path.join(REPO, 'tests', 'search-tokens.json'), 'utf8'));
    assert(vectors.length >= 10, 'the vector file lost its cases');
    await page.goto(ROOT);
    await page.waitForFunction(() => window.portolanSearch);
    const got = await page.evaluate((vs) => vs.map(([input]) => window.portolanSearch.tokenize(input)), vectors);
    vectors.forEach(([input, expected], i) => eq(JSON.stringify(got[i]), JSON.stringify(expected), `tokens of ${JSON.stringify(input)}`));
  });

  await check('search: the browser ranks like `portolan search` (top results of each query)', async () => {
    assert(searchExpect, 'PORTOLAN_E2E_SEARCH names no expectations file (tests/browser.rs writes it)');
    await page.goto(ROOT + 'search/');
    await page.waitForFunction(() => window.portolanSearch);
    for (const [query, cliUrls] of Object.entries(searchExpect)) {
      const res = await page.evaluate((q) => window.portolanSearch.search(q, 5), query);
      const browser = res.results.map((r) => sitePath(r.url));
      const cli = cliUrls.slice(0, 5).map(sitePath);
      assert(cli.length > 0, `the CLI found nothing for ${JSON.stringify(query)}`);
      eq(browser[0], cli[0], `first result of ${JSON.stringify(query)}`);
      eq(JSON.stringify(browser.slice(0, 3)), JSON.stringify(cli.slice(0, 3)), `top 3 of ${JSON.stringify(query)}`);
    }
  });

  await check('search box: `/` focuses it, results come as you type, arrows and Enter open the row', async () => {
    await page.goto(ROOT + 'projects/widget-operator/');
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    const focused = await page.evaluate(() => document.activeElement?.id);
    eq(focused, 'site-search-q', 'element focused by /');
    await page.keyboard.type('healthz');
    const first = page.locator('ul.search-dropdown li.result').first();
    await first.waitFor({ state: 'visible' });
    const title = await first.locator('a').innerText();
    assert(/healthz/i.test(title), `first result: ${title}`);
    const marked = await first.locator('mark').count();
    assert(marked > 0, 'the match is not highlighted');
    await page.keyboard.press('ArrowDown');
    eq(await first.getAttribute('aria-selected'), 'true', 'first result selected by ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.length > 1);
    const landed = await page.evaluate(() => {
      const row = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      return { path: location.pathname, found: !!row, text: row ? row.textContent : '' };
    });
    eq(landed.path, PREFIX + 'projects/widget-operator/dataflow/', 'page opened by Enter');
    assert(landed.found && /healthz/.test(landed.text), `row ${JSON.stringify(landed)}`);
  });

  await check('search page: results with facets, kept in the URL, and a phrase', async () => {
    await page.goto(ROOT + 'search/?q=Widget');
    await page.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    const all = await page.locator('#search-results li.result').count();
    assert(all > 3, `only ${all} results for Widget`);
    // No filter chosen: no facet is pressed (the portal's own pages, which have no
    // project, once looked chosen).
    eq(await page.locator('#search-facets [aria-pressed="true"]').count(), 0, 'facets pressed before any click');
    const facet = page.locator('#search-facets button.facet-value', { hasText: 'gadget-scheduler' });
    await facet.click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('project') === 'gadget-scheduler');
    // Each group of results (one page) names its project in its heading's line.
    const groupsAllIn = (project) => {
      const metas = [...document.querySelectorAll('#search-results li.result-group')]
        .map((g) => g.querySelector('li .result-meta')?.textContent || '');
      return metas.length > 0 && metas.every((t) => t.includes(project));
    };
    await page.waitForFunction(groupsAllIn, 'gadget-scheduler');
    eq(await facet.getAttribute('aria-pressed'), 'true', 'facet pressed');
    await page.reload();
    await page.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    eq(await page.inputValue('#search-query'), 'Widget', 'query after reload');
    assert(await page.evaluate(groupsAllIn, 'gadget-scheduler'), 'facet lost on reload');
    await page.goto(ROOT + 'search/');
    await page.fill('#search-query', 'kind:');
    await page.waitForFunction(() => /needs a value/.test(document.getElementById('search-status').textContent));
    await page.fill('#search-query', '"leader elect"');
    await page.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    const top = await page.locator('#search-results li.result a').first().getAttribute('href');
    assert(top.endsWith('#flag-cmd-leader-elect'), `phrase top result: ${top}`);
    await page.screenshot({ path: path.join(SHOTS, 'search.png'), fullPage: true });
  });

  await check('search page: results grouped by page, under the page\'s title; labelled facets; no breadcrumb in snippets', async () => {
    await page.goto(ROOT + 'search/?q=Gizmo');
    await page.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    const groups = await page.evaluate(() => [...document.querySelectorAll('#search-results li.result-group')].map((g) => ({
      head: g.querySelector('li.result-page, li.group-title').className,
      headText: g.querySelector('li.result-page a, li.group-title a').textContent,
      pages: [...g.querySelectorAll('li.result a, li.group-title a')].map((a) => new URL(a.href).pathname),
      rows: g.querySelectorAll('li.result-row').length,
    })));
    assert(groups.length > 1, `groups: ${JSON.stringify(groups)}`);
    // The kind's page first, then the page of the controller named after it.
    eq(groups[0].pages[0], PREFIX + 'kinds/widgets.example.io/Gizmo/', 'first group');
    eq(groups[0].head, 'result result-page', 'the kind page leads its group as a result');
    const pages = groups.map((g) => g.pages[0]);
    eq(new Set(pages).size, pages.length, `one group per page: ${pages}`);
    for (const g of groups) assert(g.pages.every((p) => p === g.pages[0]), `a group mixes pages: ${JSON.stringify(g)}`);
    const dataflow = groups.find((g) => g.pages[0] === PREFIX + 'projects/widget-operator/dataflow/');
    // The page's own hit and its rows' hits, together under one heading.
    assert(dataflow && dataflow.pages.length >= 2, `the Dataflow page groups its results: ${JSON.stringify(dataflow)}`);
    eq(dataflow.headText, 'Widget Operator: Dataflow', 'the group is headed by the page title');
    const snippets = await page.locator('#search-results .result-snippet').allInnerTexts();
    assert(snippets.length > 0 && snippets.every((t) => !/^Home\b/.test(t)), `snippets: ${snippets}`);
    const facets = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#search-facets .facet')].map((f) =>
      [f.querySelector('.facet-name').textContent, [...f.querySelectorAll('.facet-value')].map((b) => b.textContent)])));
    assert(facets.Category.some((t) => /^Kinds \(\d+\)$/.test(t)), `category labels: ${facets.Category}`);
    assert(facets.Category.every((t) => /^[A-Z]/.test(t) && !/-/.test(t)), `category labels: ${facets.Category}`);
    assert(facets.Project.every((t) => !/^portal/.test(t)), `project facets: ${facets.Project}`);
    await page.goto(ROOT + 'search/?q=rbac');
    await page.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    const categories = await page.locator('#search-facets .facet:last-child .facet-value').allInnerTexts();
    assert(categories.some((t) => /^RBAC versus code \(\d+\)$/.test(t)), `rbac-versus-code's label: ${categories}`);
    await page.screenshot({ path: path.join(SHOTS, 'search-grouped.png'), fullPage: true });
  });

  await check('search box: the type-ahead for a field of many kinds shows results a reader can tell apart', async () => {
    await page.goto(ROOT + 'projects/widget-operator/');
    await page.fill('#site-search-q', 'size');
    await page.locator('ul.search-dropdown li.result').first().waitFor({ state: 'visible' });
    const shown = await page.locator('ul.search-dropdown li.result').allInnerTexts();
    assert(shown.length >= 2, `results: ${shown}`);
    eq(new Set(shown).size, shown.length, `identical results in the type-ahead: ${JSON.stringify(shown)}`);
    const heads = await page.locator('ul.search-dropdown li.group-title, ul.search-dropdown li.result-page').allInnerTexts();
    assert(heads.length >= 1, 'results are grouped under their page');
    await page.screenshot({ path: path.join(SHOTS, 'search-typeahead.png') });
  });

  await check('search page: a loading state while the index downloads, an error state, a no-results state', async () => {
    const fresh = await context.newPage();
    let release;
    const gate = new Promise((r) => { release = r; });
    await fresh.route('**/search/manifest.json', async (route) => { await gate; await route.continue(); });
    await fresh.goto(ROOT + 'search/?q=Widget');
    await fresh.waitForFunction(() => /Loading the search index/.test(document.getElementById('search-status').textContent));
    eq(await fresh.getAttribute('#search-status', 'class'), 'search-loading', 'status class while loading');
    eq(await fresh.getAttribute('#search-results', 'aria-busy'), 'true', 'results busy while loading');
    release();
    await fresh.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    assert(/\d+ results/.test(await fresh.locator('#search-status').innerText()), 'status after loading');
    eq(await fresh.getAttribute('#search-results', 'aria-busy'), 'false', 'results not busy once shown');
    await fresh.fill('#search-query', 'zzqxvw');
    await fresh.locator('#search-results li.no-results').waitFor({ state: 'visible' });
    assert(/No results for “zzqxvw”/.test(await fresh.locator('#search-results li.no-results').innerText()), 'no-results text');
    eq(await fresh.getAttribute('#search-status', 'class'), 'search-empty', 'status class with no results');
    await fresh.close();

    // A broken index (here: a manifest that is not JSON) says so, visibly.
    const broken = await context.newPage();
    await broken.route('**/search/manifest.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{not json' }));
    await broken.goto(ROOT + 'search/?q=Widget');
    await broken.waitForFunction(() => /Search is unavailable/.test(document.getElementById('search-status').textContent));
    eq(await broken.getAttribute('#search-status', 'class'), 'search-error', 'status class on error');
    eq(await broken.locator('#search-results li').count(), 0, 'no stale results on error');
    await broken.screenshot({ path: path.join(SHOTS, 'search-error.png') });
    await broken.close();
  });

  await check('search: the first query transfers under 100 KB (script included); query time is printed', async () => {
    const fresh = await context.newPage();
    watchPage(fresh);
    let bytes = 0;
    const files = [];
    fresh.on('response', async (res) => {
      const u = new URL(res.url());
      if (u.pathname.includes('/search/') && u.pathname.endsWith('.json') || u.pathname.endsWith('/search.js')) {
        const body = await res.body().catch(() => Buffer.alloc(0));
        bytes += body.length;
        files.push(`${u.pathname.replace(PREFIX, '')} ${body.length}`);
      }
    });
    await fresh.goto(ROOT + 'search/?q=Widget');
    await fresh.locator('#search-results li.result').first().waitFor({ state: 'visible' });
    await fresh.waitForLoadState('networkidle');
    const times = await fresh.evaluate(async () => {
      const out = [];
      for (let i = 0; i < 21; i++) {
        const t = performance.now();
        await window.portolanSearch.search('Widget', 10);
        out.push(performance.now() - t);
      }
      return out.sort((a, b) => a - b);
    });
    console.log(`    first query "Widget": ${bytes} bytes in ${files.length} files (${files.join(', ')}); loaded query median ${times[10].toFixed(2)} ms`);
    assert(bytes < 100_000, `first query transferred ${bytes} bytes`);
    await fresh.close();
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

console.log(`screenshots: ${SHOTS}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
