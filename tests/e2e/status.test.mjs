// Public status pages: a published group renders at /status/{slug} without signing in — its
// services with state and 90 daily bars, the announcement, incidents — in English or Russian,
// with no CSP violations; an unpublished slug says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, withPage, Api, startTarget, uniqueName, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT } from './lib.mjs';

let browser;
let admin;
let target;
let owner;
let ownerApi;
let slug;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
  slug = uniqueName('st').toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const group = await ownerApi.mustOk('POST', '/api/v1/groups', {
    name: 'Shop status', status_slug: slug, status_public: true, status_announcement: 'Maintenance on Sunday',
  });
  for (const name of ['Storefront', 'Checkout']) {
    const s = await ownerApi.mustOk('POST', '/api/v1/services', {
      name, url: `${target.url}${name.toLowerCase()}`, group_id: group.id, is_active: true,
    });
    await ownerApi.mustOk('POST', `/api/v1/services/${s.id}/check`);
  }
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

test('a published group renders without a token, with 90 bars per service', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await page.goto(`/status/${slug}`);
    await page.waitForSelector('#main[aria-busy="false"] .status-service');
    assert.equal(await page.locator('#status-title').textContent(), 'Shop status');
    assert.equal(await page.locator('#status-announcement').textContent(), 'Maintenance on Sunday');
    const services = page.locator('.status-service');
    assert.equal(await services.count(), 2);
    assert.match(await services.nth(0).textContent(), /Checkout/); // sorted by name
    assert.equal(await services.nth(0).locator('.bar').count(), 90);
    assert.equal(await page.locator('.status-service-url').count(), 0, 'URLs are hidden unless the owner shows them');
    assert.match(await page.locator('#status-json').getAttribute('href'), new RegExp(`/api/status/${slug}$`));
    assert.deepEqual(await page.evaluate(() => window.__dozorCsp), []);
    assert.deepEqual(log.errors, []);
  });
});

test('Russian readers get Russian words; an unknown slug is not found', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto(`/status/${slug}`);
    await page.waitForSelector('#main[aria-busy="false"] .status-service');
    assert.match(await page.locator('#status-incidents-heading').textContent(), /Инциденты/);
    await page.goto('/status/no-such-page-here');
    await page.waitForSelector('#main[aria-busy="false"]');
    assert.equal(await page.locator('#status-title').textContent(), 'Страница статуса не найдена.');
  }, { contextOptions: { locale: 'ru-RU' } });
});
