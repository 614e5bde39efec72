// (4) Every page loads under the site's CSP without console errors, uncaught exceptions, CSP
// violations, failed requests or missing strings — signed out, as admin, as a plain user, in both
// languages — and the signed-in pages have no horizontal scrolling on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let api;
let target;
let plain;
let plainToken;
const created = [];

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  api = await Api.create();
  api.token = await api.login(ADMIN_USER, ADMIN_PASSWORD);
  // Give the admin a checked service so tables and tiles have rows to draw.
  const svc = await api.mustOk('POST', '/api/v1/services', { name: uniqueName('pages'), url: target.url, check_interval: 60 });
  created.push(svc.id);
  await api.mustOk('POST', `/api/v1/services/${svc.id}/check`);
  plain = await api.createUser();
  plainToken = await api.login(plain.username, plain.password);
});

after(async () => {
  for (const id of created) await api.call('DELETE', `/api/v1/services/${id}`);
  if (plain) await api.deleteUser(plain.id);
  await browser?.close();
  await target?.close();
  await api?.dispose();
});

async function assertCleanPage(page, log, path, expectPath = null) {
  const response = await page.goto(path);
  assert.ok(response, `${path}: navigation answered`);
  assert.equal(response.status(), 200, `${path}: HTTP status`);
  if (expectPath) assert.equal(new URL(page.url()).pathname, expectPath, `${path}: landed on ${expectPath}`);
  const csp = response.headers()['content-security-policy'] || '';
  assert.match(csp, /script-src 'self'/, `${path}: CSP header with script-src 'self'`);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, `${path}: CSP without unsafe-*`);
  assert.match(response.headers()['content-type'] || '', /text\/html/, `${path}: served as HTML`);

  await waitLoaded(page);
  await page.waitForTimeout(300); // late errors from async work

  const violations = await page.evaluate(() => window.__dozorCsp || []);
  assert.deepEqual(violations, [], `${path}: CSP violations`);
  assert.deepEqual(log.csp, [], `${path}: CSP console messages`);
  assert.deepEqual(log.errors, [], `${path}: console errors / page errors`);
  assert.deepEqual(log.failedRequests, [], `${path}: failed requests`);
  assert.deepEqual(log.badResponses, [], `${path}: static files answering ≥ 400`);

  const untranslated = await page.evaluate(() => [...document.querySelectorAll('[data-i18n]')]
    .filter((n) => !n.textContent.trim()).map((n) => n.dataset.i18n));
  assert.deepEqual(untranslated, [], `${path}: elements left without text`);
  const title = await page.title();
  assert.match(title, /Dozor|Дозор/, `${path}: document title`);
  const h1 = await page.locator('h1').count();
  assert.ok(h1 >= 1, `${path}: has a level-1 heading`);
}

function clear(log) {
  for (const key of Object.keys(log)) log[key].length = 0;
}

test('pages load cleanly when signed out', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await assertCleanPage(page, log, '/login', '/login');
    clear(log);
    await assertCleanPage(page, log, '/', '/');  // the landing page (spec §4.8), not a redirect
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `/login: ${overflow}px of horizontal overflow at 390px`);
  });
});

for (const lang of ['en', 'ru']) {
  test(`every page loads cleanly for the admin (${lang})`, { timeout: TEST_TIMEOUT }, async (t) => {
    await withPage(t, browser, async (page, { log }) => {
      for (const path of ['/dashboard', '/admin', '/security', '/security?target=example.com', '/notifications', '/kiosk', '/kiosk.html']) {
        clear(log);
        await assertCleanPage(page, log, path);
      }
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
      // Rows were drawn (the admin has at least the service made in before()).
      await page.goto('/dashboard');
      await waitLoaded(page);
      assert.ok(await page.locator('#services-body tr').count() >= 1);
    }, { token: api.token, lang });
  });
}

test('pages load cleanly for a plain user, /admin included', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    for (const path of ['/dashboard', '/security', '/notifications', '/kiosk', '/admin']) {
      clear(log);
      await assertCleanPage(page, log, path);
    }
    await page.locator('#denied').waitFor({ state: 'visible' });
  }, { token: plainToken });
});

test('signed-in pages fit a phone screen without horizontal scrolling', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    for (const path of ['/dashboard', '/admin', '/security?target=example.com', '/notifications', '/kiosk']) {
      await page.goto(path);
      await waitLoaded(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${path}: ${overflow}px of horizontal overflow at 390px`);
    }
  }, {
    token: api.token,
    contextOptions: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  });
});
