// End-to-end check of live reload in `portolan serve`, in headless Chromium.
//
//   node tests/e2e/reload.mjs <served-base-url> <content-file> <template-file>
//
// The server is already running (tests/browser.rs starts it on a free port). Opens the
// About page, edits the content file and waits for the page to reload by itself (a flag
// set in the old page is gone, the new text is there), then finds the new word with the
// search box (answered by the server's /api/search once it has indexed); breaks the template and expects
// the error overlay over the last good page; fixes it and expects a reload without the
// overlay. Prints one line per check and `N passed, M failed`; exits non-zero on failure.

import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';

const [base, contentFile, templateFile] = process.argv.slice(2);
if (!base || !contentFile || !templateFile) {
  console.error('usage: node tests/e2e/reload.mjs <served-base-url> <content-file> <template-file>');
  process.exit(2);
}
const CHROMIUM = process.env.PORTOLAN_CHROMIUM || '/usr/bin/chromium';
const WAIT_MS = 20_000;
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ': ' + detail : ''}`);
  if (ok) passed++; else failed++;
}
function replaceIn(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
  fs.writeFileSync(file, text.replace(from, to));
}

const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'portolan-e2e-reload-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  timeout: 60_000,
});
context.setDefaultTimeout(WAIT_MS);
const errors = [];
try {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  // The event stream is open once the server has answered it.
  const streamOpen = page.waitForResponse((r) => r.url().endsWith('/__portolan/events'));
  await page.goto(new URL('about/', base).href);
  await streamOpen;
  await page.evaluate(() => { window.portolanNotReloaded = true; });

  let started = Date.now();
  let reloaded = page.waitForEvent('load');
  replaceIn(contentFile, 'Written for the tests.', 'Reloaded by itself.');
  await reloaded;
  const fresh = await page.evaluate(() => window.portolanNotReloaded === undefined);
  const text = await page.textContent('main');
  check('the page reloads by itself after a content edit', fresh && text.includes('Reloaded by itself.'),
    `${Date.now() - started} ms`);

  // The index follows the reload: ask until the new word is found (the static shards,
  // written before the edit, could not know it).
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('/api/search')) asked.push(r.url()); });
  let found = '';
  for (let i = 0; i < 40 && !found; i++) {
    await page.fill('#site-search-q', '');
    await page.fill('#site-search-q', 'itself');
    const first = page.locator('ul.search-dropdown li.result a').first();
    try {
      await first.waitFor({ state: 'visible', timeout: 1000 });
      const href = await first.getAttribute('href');
      if (href && href.includes('/about/')) found = href;
    } catch { /* not indexed yet */ }
    if (!found) await page.waitForTimeout(250);
  }
  check('the search box finds the edited text through /api/search', found !== '' && asked.length > 0,
    `${found} after ${asked.length} API requests`);

  const good = fs.readFileSync(templateFile, 'utf8');
  fs.writeFileSync(templateFile, good.replace('{% endblock main %}', '{% if %}'));
  const overlay = await page.waitForSelector('#portolan-build-error');
  const message = (await overlay.textContent()) || '';
  check('a failed rebuild shows its error over the page', message.includes('content.html'),
    JSON.stringify(message.slice(0, 160)));
  check('the error is text, not markup', (await overlay.evaluate((e) => e.children.length)) === 0);
  check('the last good page stays underneath', (await page.textContent('main')).includes('Reloaded by itself.'));

  started = Date.now();
  reloaded = page.waitForEvent('load');
  fs.writeFileSync(templateFile, good);
  await reloaded;
  check('the next good rebuild reloads and clears the overlay',
    (await page.$('#portolan-build-error')) === null, `${Date.now() - started} ms`);
} catch (e) {
  check('live reload scenario', false, String(e));
} finally {
  await context.close();
  await fsp.rm(userDataDir, { recursive: true, force: true });
}
check('no script errors', errors.length === 0, errors.join('; '));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
