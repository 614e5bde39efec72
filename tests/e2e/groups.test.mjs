// Issue 28 §1: groups and public status pages from the dashboard, walked as a new user would —
// in English and Russian, on a laptop (1366×768) and a phone (390×844): create a group, rename
// it and move a service into it, publish it (address, title, announcement) with Save in view,
// see the public link and a preview, open the page signed out, unpublish it (the page then says
// it does not exist, with no stray footer), and delete the group (its service stays, ungrouped).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, newContext, Api, startTarget, uniqueName, waitLoaded, keepScreenshot, VIEWPORTS,
  BASE_URL, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { STRINGS, format } from '../../www/js/strings.js';

let browser;
let admin;
let target;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
});

after(async () => {
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

async function insideViewport(locator, page) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  assert.ok(box, 'the element is rendered');
  assert.ok(box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width,
    `inside the ${vp.width}×${vp.height} viewport without scrolling: ${JSON.stringify(box)}`);
}

/** Reloads the public page until it shows `text` (the server keeps built pages for 10 s). */
async function reloadUntil(page, predicate, what) {
  const deadline = Date.now() + 25_000;
  for (;;) {
    await page.reload();
    await page.waitForSelector('#main[aria-busy="false"]');
    if (await predicate()) return;
    assert.ok(Date.now() < deadline, `the public page never showed ${what}`);
    await page.waitForTimeout(1500);
  }
}

for (const lang of ['en', 'ru']) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    const S = (key, params) => format(STRINGS[lang][key], params);
    const locale = lang === 'ru' ? 'ru-RU' : 'en-US';
    const label = `${lang}, ${viewport.width}×${viewport.height}`;

    test(`a group becomes a public status page and goes back (${label})`, { timeout: TEST_TIMEOUT * 2 }, async (t) => {
      const user = await admin.createUser();
      const api = await admin.as(user.username, user.password);
      const slug = uniqueName(`st-${lang}-${size}`).toLowerCase().replace(/[^a-z0-9]+/g, '-');
      try {
        const svc = await api.mustOk('POST', '/api/v1/services', { name: 'Storefront', url: `${target.url}shop`, check_interval: 60 });
        await api.mustOk('POST', `/api/v1/services/${svc.id}/check`);
        await withPage(t, browser, async (page) => {
          await page.goto('/dashboard');
          await waitLoaded(page);
          const panel = page.locator('#groups-panel');
          await panel.scrollIntoViewIfNeeded();

          // Create.
          await panel.getByLabel(S('grp.newName')).fill('Shop internal');
          await panel.getByRole('button', { name: S('grp.create') }).click();
          const item = panel.locator('.group-item', { hasText: 'Shop internal' });
          await item.waitFor();
          assert.match(await item.locator('[data-field="published"]').textContent(), new RegExp(S('grp.private')));

          // Rename, move the service in, publish with an address, a title and an announcement.
          await item.getByRole('button', { name: S('grp.editNamed', { name: 'Shop internal' }) }).click();
          const dialog = page.locator('#group-dialog');
          await dialog.waitFor({ state: 'visible' });
          await dialog.getByLabel(S('grp.name'), { exact: true }).fill('Shop');
          await dialog.getByLabel('Storefront').check();
          await dialog.getByLabel(S('grp.publish')).check();
          assert.notEqual(await dialog.getByLabel(S('grp.slug'), { exact: true }).inputValue(), '', 'publishing suggests an address');
          await dialog.getByLabel(S('grp.slug'), { exact: true }).fill(slug);
          assert.match(await dialog.locator('#gd-slug-hint').textContent(), new RegExp(`/status/${slug}`));
          await dialog.getByLabel(S('grp.title')).fill('Acme status');
          await dialog.getByLabel(S('grp.announcement')).fill('Maintenance on Sunday');
          const save = dialog.getByRole('button', { name: S('common.save'), exact: true });
          await insideViewport(save, page);
          await keepScreenshot(page, `group-dialog-${lang}-${viewport.width}`, { fullPage: false });
          await save.click();
          await dialog.waitFor({ state: 'hidden' });

          // The list: renamed, public, with its link and a preview of what visitors see.
          const shop = panel.locator('.group-item', { has: page.locator('.group-item-name', { hasText: /^Shop$/ }) });
          await shop.waitFor();
          const group = (await api.mustOk('GET', '/api/v1/groups')).find((g) => g.name === 'Shop');
          assert.equal(group.status_public, true);
          assert.equal(group.status_slug, slug);
          assert.equal(group.status_title, 'Acme status');
          assert.equal((await api.mustOk('GET', '/api/v1/services')).find((s) => s.id === svc.id).group_id, group.id,
            'the service moved into the group');
          assert.match(await shop.locator('[data-field="published"]').textContent(), new RegExp(S('grp.published')));
          const link = shop.locator('[data-field="public-link"]');
          assert.equal(await link.getAttribute('href'), `${BASE_URL}/status/${slug}`);
          const preview = shop.locator('[data-preview][data-ready="true"]');
          await preview.waitFor({ timeout: 30_000 });
          assert.match(await preview.textContent(), /Acme status/);
          assert.match(await preview.textContent(), /Maintenance on Sunday/);
          assert.match(await preview.textContent(), /Storefront/);
          await shop.scrollIntoViewIfNeeded();
          await keepScreenshot(page, `groups-panel-${lang}-${viewport.width}`);

          // Signed out, in the visitor's language.
          const visitorContext = await newContext(browser, { viewport, locale });
          const visitor = await visitorContext.newPage();
          try {
            await visitor.goto(`/status/${slug}`);
            await visitor.waitForSelector('#main[aria-busy="false"] .status-service');
            assert.equal(await visitor.locator('#status-title').textContent(), 'Acme status');
            assert.equal(await visitor.locator('#status-announcement').textContent(), 'Maintenance on Sunday');
            assert.match(await visitor.locator('.status-service').textContent(), /Storefront/);
            await keepScreenshot(visitor, `status-page-${lang}-${viewport.width}`);

            // Unpublish: the page goes (after the server's 10 s cache), leaving one sentence.
            await shop.getByRole('button', { name: S('grp.unpublishNamed', { name: 'Shop' }) }).click();
            await shop.locator('[data-field="published"]', { hasText: S('grp.private') }).waitFor();
            assert.equal(await shop.locator('[data-field="public-link"]').count(), 0);
            const notFound = lang === 'ru' ? 'Страница статуса не найдена.' : 'This status page does not exist.';
            await reloadUntil(visitor, async () => (await visitor.locator('#status-title').textContent()) === notFound, 'not found');
            assert.equal(await visitor.locator('footer').isVisible(), false, 'no stray footer on a missing page');
            assert.equal(await visitor.locator('#status-incidents-heading').isVisible(), false);
            assert.equal(await visitor.locator('#status-overall').isVisible(), false);
            await keepScreenshot(visitor, `status-404-${lang}-${viewport.width}`);
          } finally {
            await visitorContext.close();
          }

          // Delete: the service stays, without a group.
          await shop.getByRole('button', { name: S('grp.deleteNamed', { name: 'Shop' }) }).click();
          const confirm = page.getByRole('dialog', { name: S('grp.confirmTitle') });
          await confirm.getByRole('button', { name: S('svc.delete') }).click();
          await shop.waitFor({ state: 'detached' });
          assert.equal((await api.mustOk('GET', '/api/v1/groups')).length, 0);
          assert.equal((await api.mustOk('GET', '/api/v1/services')).find((s) => s.id === svc.id).group_id, null);
          await page.locator(`#services-body tr[data-service-id="${svc.id}"]`).waitFor();
        }, { token: api.token, lang, contextOptions: { viewport, locale } });
      } finally {
        await admin.deleteUser(user.id);
      }
    });
  }
}
