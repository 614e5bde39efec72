// (1) The admin signs in, adds a service pointing at a local target, checks it now, sees it up with
// a response time, and deletes it through the confirmation dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, loginViaForm, waitLoaded,
  ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let target;
let api;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  api = await Api.create();
  api.token = await api.login(ADMIN_USER, ADMIN_PASSWORD);
});

after(async () => {
  await browser?.close();
  await target?.close();
  await api?.dispose();
});

test('admin adds a service, checks it now, sees it up with a response time, deletes it', { timeout: TEST_TIMEOUT }, async (t) => {
  const name = uniqueName('svc');
  let createdId = null;
  try {
    await withPage(t, browser, async (page) => {
      await loginViaForm(page, ADMIN_USER, ADMIN_PASSWORD);
      await page.waitForURL('**/dashboard');
      await waitLoaded(page);
      await page.locator('#current-user').filter({ hasText: ADMIN_USER }).waitFor();
      assert.equal(await page.locator('nav a[data-nav="admin"]').count(), 1, 'admin sees the Admin link');

      const form = page.locator('#add-service');
      // Server-side validation: every invalid field is shown next to its input.
      await form.getByLabel('Name').fill('');
      await form.getByLabel('URL').fill('ftp://example.com/');
      await form.getByRole('button', { name: 'Add service' }).click();
      const urlError = form.locator('.field-error[data-for="url"]');
      await urlError.waitFor({ state: 'visible' });
      assert.notEqual((await urlError.textContent()).trim(), '');
      assert.equal(await form.getByLabel('URL').getAttribute('aria-invalid'), 'true');
      await form.locator('.field-error[data-for="name"]').waitFor({ state: 'visible' });

      // Valid service: it is checked at once (issue 28 §5), not at the first slot of its schedule.
      const hitsBeforeAdd = target.hits.length;
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('URL').fill(target.url);
      await form.getByLabel('Check interval, seconds').fill('30');
      await form.getByRole('button', { name: 'Add service' }).click();

      const row = page.locator('#services-body tr', { has: page.locator('.svc-name', { hasText: name }) });
      await row.waitFor();
      assert.equal(await urlError.isVisible(), false, 'errors cleared after success');
      createdId = Number(await row.getAttribute('data-service-id'));
      assert.ok(createdId > 0);
      assert.match(await row.textContent(), /every 30 s/);
      const result = row.locator('[data-testid="check-result"]');
      await result.waitFor();
      assert.ok(target.hits.length > hitsBeforeAdd, 'the new service was checked without asking');
      await row.locator('.badge[data-status="up"]').waitFor();

      // Check now: the backend really requests the target and the row shows the result.
      await row.locator('[data-action="check"]:not([aria-busy="true"])').waitFor();
      const hitsBefore = target.hits.length;
      await row.getByRole('button', { name: `Check ${name} now`, exact: true }).click();
      await page.waitForFunction(() => document.querySelector('[data-action="check"][aria-busy="true"]') === null);
      await result.waitFor();
      const resultText = await result.textContent();
      assert.match(resultText, /Available/);
      assert.match(resultText, /HTTP 200/);
      assert.match(resultText, /\d+ ms/);
      assert.ok(target.hits.length > hitsBefore, 'the check reached the local target');
      assert.equal(await row.locator('.badge').getAttribute('data-status'), 'up');
      assert.match(await row.locator('.badge').textContent(), /Up/);
      assert.match(await row.locator('td[data-field="response"]').textContent(), /^\d+ ms$/);
      assert.notEqual(await page.locator('#stat-up').textContent(), '0');

      // The result is stored: after a reload the list still says up, with a response time.
      await page.reload();
      await waitLoaded(page);
      const again = page.locator(`#services-body tr[data-service-id="${createdId}"]`);
      assert.equal(await again.locator('.badge').getAttribute('data-status'), 'up');
      assert.match(await again.locator('td[data-field="response"]').textContent(), /^\d+ ms$/);
      assert.doesNotMatch(await again.locator('time').textContent(), /never/);

      // Delete: cancelling keeps it; confirming removes it.
      await again.getByRole('button', { name: 'Delete' }).click();
      let dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.match(await dialog.textContent(), new RegExp(name));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await again.count(), 1, 'cancel keeps the service');

      await again.getByRole('button', { name: 'Delete' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await again.waitFor({ state: 'detached' });

      const list = await api.mustOk('GET', '/api/v1/services');
      assert.equal(list.some((s) => s.id === createdId), false, 'the service is gone on the server');
      createdId = null;
    });
  } finally {
    if (createdId) await api.call('DELETE', `/api/v1/services/${createdId}`);
  }
});
