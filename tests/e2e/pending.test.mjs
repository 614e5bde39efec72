// Issue 28 §5: state that is true at every moment. A monitored site that goes down is shown as
// "Pending" (with the error and the re-check) while the monitor confirms the failure, then as
// Down — never a green Up with no error; a new service says when its first check comes. In
// English on a laptop and in Russian on a phone, against a local target the test takes down.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, keepScreenshot, VIEWPORTS,
  ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { STRINGS } from '../../www/js/strings.js';

let browser;
let admin;

before(async () => {
  browser = await launchBrowser();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
});

after(async () => {
  await browser?.close();
  await admin?.dispose();
});

async function until(what, fn, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await fn();
    if (got) return got;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => { setTimeout(r, 250); });
  }
}

for (const [lang, size] of [['en', 'laptop'], ['ru', 'phone']]) {
  const viewport = VIEWPORTS[size];
  const S = STRINGS[lang];
  test(`a site that goes down is Pending before Down (${lang}, ${viewport.width}×${viewport.height})`, { timeout: TEST_TIMEOUT * 2 }, async (t) => {
    const target = await startTarget();
    const user = await admin.createUser();
    const api = await admin.as(user.username, user.password);
    try {
      const svc = await api.mustOk('POST', '/api/v1/services', {
        name: uniqueName('pend'), url: `${target.url}site`, check_interval: 10,
      });
      // Before dozord's first check the row says when it comes, not "never".
      await withPage(t, browser, async (page) => {
        await page.goto('/dashboard');
        await waitLoaded(page);
        const row = page.locator(`#services-body tr[data-service-id="${svc.id}"]`);
        const first = row.locator('[data-field="first-check"]');
        if (await first.count()) {
          const pattern = lang === 'ru' ? /первая проверка (через \d+ с|вот-вот)/ : /first check (in \d+ s|in a moment)/;
          assert.match(await first.textContent(), pattern);
        }

        // dozord makes it up; then the site goes down.
        await until('the first scheduled check', async () => (await api.mustOk('GET', '/api/v1/services'))
          .find((s) => s.id === svc.id)?.state === 'up');
        await row.locator('.badge[data-status="up"]').waitFor({ timeout: 20_000 });
        target.setDown(true);

        // The first failure: the server says pending, the row says so (not Up, not yet Down).
        await until('the pending state', async () => (await api.mustOk('GET', '/api/v1/services'))
          .find((s) => s.id === svc.id)?.pending === true, 30_000);
        await page.locator('#refresh').click();
        const pending = row.locator('.badge[data-status="pending"]');
        await pending.waitFor({ timeout: 5_000 });
        assert.equal(await pending.textContent(), S['status.pending']);
        assert.equal(await row.getAttribute('data-status'), 'pending');
        assert.match(await row.locator('.last-error').textContent(), /503/, 'the error is shown with it');
        assert.equal(await row.locator('[data-field="pending"]').count(), 1, 'and when the re-check comes');
        assert.equal(await page.locator('#stat-pending').textContent(), '1');
        assert.equal(await page.locator('#stat-down').textContent(), '0', 'not counted as down yet');
        await keepScreenshot(page, `pending-${lang}-${viewport.width}`);

        // The re-check confirms it: Down, without reloading by hand (the page follows quickly).
        await row.locator('.badge[data-status="down"]').waitFor({ timeout: 30_000 });
        assert.equal(await row.locator('.badge[data-status="pending"]').count(), 0);
        assert.equal(await page.locator('#stat-down').textContent(), '1');
        await keepScreenshot(page, `down-${lang}-${viewport.width}`);
      }, { token: api.token, lang, contextOptions: { viewport, locale: lang === 'ru' ? 'ru-RU' : 'en-US' } });
    } finally {
      await admin.deleteUser(user.id);
      await target.close();
    }
  });
}
