// Issue 28 §7: phone and wallboard. The kiosk fits 1366×768 and 1920×1080 without scrolling and
// its rotation starts with the site that is down; the edit dialog's Save is in view at 768 px
// height; the Russian phone service card has no overlapping labels and no cut-off filter; an
// empty dashboard on a phone puts "add your first site" first; the admin user list has search
// and pages; the security page uses a wide screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, keepScreenshot, VIEWPORTS,
  ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { STRINGS } from '../../www/js/strings.js';

let browser;
let admin;
let target;
let owner;
let ownerApi;
let downSvc;
const services = [];

async function until(what, fn, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await fn();
    if (got) return got;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => { setTimeout(r, 500); });
  }
}

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
  // Eight sites with long Russian names; the last one created is unreachable.
  const names = ['Интернет-магазин «Ромашка»', 'Личный кабинет клиента', 'Платёжный шлюз', 'Мобильное приложение API',
    'Служба поддержки', 'Корпоративный портал', 'Статические файлы CDN'];
  for (const name of names) {
    const s = await ownerApi.mustOk('POST', '/api/v1/services', { name, url: `${target.url}${services.length}`, check_interval: 600 });
    await ownerApi.mustOk('POST', `/api/v1/services/${s.id}/check`);
    services.push(s);
  }
  downSvc = await ownerApi.mustOk('POST', '/api/v1/services', {
    name: 'Резервный сайт (недоступен)', url: 'http://127.0.0.1:9/', check_interval: 10,
  });
  services.push(downSvc);
  await until('dozord to confirm the outage', async () => (await ownerApi.mustOk('GET', '/api/v1/services'))
    .find((s) => s.id === downSvc.id)?.state === 'down');
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

const noScroll = (page) => page.evaluate(() => ({
  x: document.documentElement.scrollWidth - window.innerWidth,
  y: document.documentElement.scrollHeight - window.innerHeight,
}));

for (const lang of ['en', 'ru']) {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
    test(`the kiosk fits ${viewport.width}×${viewport.height} and starts with the outage (${lang})`, { timeout: TEST_TIMEOUT }, async (t) => {
      await ownerApi.mustOk('POST', '/api/v1/kiosk/stop');
      await withPage(t, browser, async (page) => {
        await page.goto('/kiosk?interval=3600');
        await waitLoaded(page);
        await page.locator('[data-metric="sparkline"]').waitFor();
        const overflow = await noScroll(page);
        assert.ok(overflow.x <= 0 && overflow.y <= 0, `no scrollbars: ${JSON.stringify(overflow)}`);
        // Every control, the spotlight's figures and the tiles are on the screen.
        for (const selector of ['#kiosk-next', '#kiosk-pause', '.spot-name', '[data-metric="uptime"]', '[data-metric="grade"]',
          '#kiosk-tiles .tile']) {
          const box = await page.locator(selector).first().boundingBox();
          assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width,
            `${selector} is on screen: ${JSON.stringify(box)}`);
        }
        // The rotation starts with the problem: the down site is shown first and its tile leads.
        assert.equal(await page.locator('#kiosk-stage .spot').getAttribute('data-service-id'), String(downSvc.id));
        assert.equal(await page.locator('#kiosk-tiles .tile').first().getAttribute('data-service-id'), String(downSvc.id));
        assert.equal(await page.locator('#kiosk-tiles .tile').count(), services.length);
        await keepScreenshot(page, `kiosk-${lang}-${viewport.width}x${viewport.height}`, { fullPage: false });
      }, { token: ownerApi.token, lang, contextOptions: { viewport, locale: lang === 'ru' ? 'ru-RU' : 'en-US' } });
    });
  }
}

for (const lang of ['en', 'ru']) {
  test(`the edit dialog's Save is in view at 768 px height (${lang})`, { timeout: TEST_TIMEOUT }, async (t) => {
    for (const viewport of [VIEWPORTS.laptop, { width: 1024, height: 768 }, VIEWPORTS.phone]) {
      await withPage(t, browser, async (page) => {
        await page.goto('/dashboard');
        await waitLoaded(page);
        await page.locator(`#services-body tr[data-service-id="${services[0].id}"] [data-action="edit"]`).click();
        const dialog = page.locator('#edit-dialog');
        await dialog.waitFor({ state: 'visible' });
        const save = dialog.getByRole('button', { name: STRINGS[lang]['common.save'], exact: true });
        const box = await save.boundingBox();
        assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `Save in view at ${viewport.width}×${viewport.height}: ${JSON.stringify(box)}`);
        await keepScreenshot(page, `edit-dialog-${lang}-${viewport.width}x${viewport.height}`, { fullPage: false });
        await dialog.getByLabel(STRINGS[lang]['svc.name'], { exact: true }).fill(`${services[0].name} `);
        await save.click(); // it works from there, without scrolling
        await dialog.waitFor({ state: 'hidden' });
      }, { token: ownerApi.token, lang, contextOptions: { viewport } });
    }
  });
}

/**
 * Boxes on a phone service card that overlap: each value element against every other, and each
 * cell's label (the ::before of the card layout, measured with its own font) against its column.
 */
function cardOverlaps(row) {
  return row.evaluate((tr) => {
    const problems = [];
    const rect = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
    const hit = (a, b) => a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
    const boxes = [];
    for (const node of tr.querySelectorAll('.badge, .svc-name, .svc-url, .btn, time, .last-error, .pending-note, .down-since, [data-field="first-check"], .check-result')) {
      if (node.getClientRects().length) boxes.push({ node, box: rect(node.getBoundingClientRect()) });
    }
    for (const td of tr.children) { // bare text in a cell (response time, interval)
      for (const child of td.childNodes) {
        if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) {
          const range = document.createRange();
          range.selectNodeContents(child);
          boxes.push({ node: td, box: rect(range.getBoundingClientRect()) });
        }
      }
    }
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
        if (hit(a.box, b.box)) problems.push(`${a.node.className || a.node.tagName} × ${b.node.className || b.node.tagName}`);
      }
    }
    for (const td of tr.querySelectorAll('td[data-label]')) {
      const before = getComputedStyle(td, '::before');
      if (before.content === 'none' || before.display === 'none') continue;
      const column = parseFloat(getComputedStyle(td).gridTemplateColumns.split(' ')[0]);
      const probe = document.createElement('span');
      for (const p of ['font', 'letterSpacing', 'textTransform']) probe.style[p] = before[p];
      probe.style.whiteSpace = 'nowrap';
      probe.style.position = 'absolute';
      document.body.append(probe);
      const words = before.whiteSpace.includes('nowrap') ? [td.dataset.label] : td.dataset.label.split(/\s+/);
      for (const word of words) {
        probe.textContent = word;
        const width = probe.getBoundingClientRect().width;
        if (width > column + 0.5 && before.overflowWrap !== 'anywhere') problems.push(`label "${word}" ${width}px > ${column}px`);
      }
      probe.remove();
    }
    return problems;
  });
}

test('the Russian phone dashboard: no overlapping labels, no cut-off filter; an empty one starts with "add"', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/dashboard');
    await waitLoaded(page);
    const rows = page.locator('#services-body tr[data-service-id]');
    assert.equal(await rows.count(), services.length);
    for (let i = 0; i < services.length; i += 1) {
      assert.deepEqual(await cardOverlaps(rows.nth(i)), [], `card ${i} has overlapping boxes`);
    }
    // Filters: each select shows its whole chosen option.
    for (const id of ['flt-state', 'flt-group']) {
      const select = page.locator(`#${id}`);
      if (!(await select.isVisible())) continue;
      const fits = await select.evaluate((s) => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(s).font;
        probe.style.position = 'absolute';
        probe.style.whiteSpace = 'nowrap';
        probe.textContent = s.options[s.selectedIndex].text;
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width + 40; // padding and the arrow
        probe.remove();
        return { need, have: s.getBoundingClientRect().width };
      });
      assert.ok(fits.need <= fits.have, `${id} shows its option: ${JSON.stringify(fits)}`);
    }
    assert.ok((await noScroll(page)).x <= 0, 'no horizontal scroll');
    await keepScreenshot(page, 'dashboard-ru-390');
  }, { token: ownerApi.token, lang: 'ru', contextOptions: { viewport: VIEWPORTS.phone, locale: 'ru-RU' } });

  const fresh = await admin.createUser();
  try {
    const freshApi = await admin.as(fresh.username, fresh.password);
    for (const lang of ['ru', 'en']) {
      await withPage(t, browser, async (page) => {
        await page.goto('/dashboard');
        await waitLoaded(page);
        const add = await page.locator('#add-heading').boundingBox();
        const list = await page.locator('#list-heading').boundingBox();
        assert.ok(add.y < list.y, 'the add form comes before the empty list');
        assert.ok(add.y < VIEWPORTS.phone.height, `"add your first site" is on the first screen: ${add.y}`);
        await keepScreenshot(page, `dashboard-empty-${lang}-390`, { fullPage: false });
      }, { token: freshApi.token, lang, contextOptions: { viewport: VIEWPORTS.phone } });
    }
  } finally {
    await admin.deleteUser(fresh.id);
  }
});

test('the admin user list is searched and paged', { timeout: TEST_TIMEOUT * 2 }, async (t) => {
  const prefix = uniqueName('pg');
  const made = [];
  try {
    for (let i = 0; i < 27; i += 1) made.push(await admin.createUser({ username: `${prefix}-${String(i).padStart(2, '0')}` }));
    for (const lang of ['en', 'ru']) {
      await withPage(t, browser, async (page) => {
        await page.goto('/admin');
        await waitLoaded(page);
        assert.ok(await page.locator('#users-body tr').count() <= 25, 'one page at a time');
        await page.getByLabel(STRINGS[lang]['user.search']).fill(prefix);
        const count = page.locator('#users-count');
        await page.waitForFunction(() => /27/.test(document.getElementById('users-count').textContent));
        assert.equal(await page.locator('#users-body tr').count(), 25);
        assert.match(await count.textContent(), /1–25/);
        await page.locator('#users-next').click();
        assert.equal(await page.locator('#users-body tr').count(), 2);
        assert.match(await count.textContent(), /26–27/);
        await page.getByLabel(STRINGS[lang]['user.search']).fill(`${prefix}-13`);
        assert.equal(await page.locator('#users-body tr').count(), 1);
        assert.equal(await page.locator('#users-body tr').getAttribute('data-username'), `${prefix}-13`);
        assert.equal(await page.locator('#users-pager').isVisible(), false);
        await page.getByLabel(STRINGS[lang]['user.search']).fill(`${prefix}-13@example.test`); // by e-mail
        assert.equal(await page.locator('#users-body tr').count(), 1);
        await keepScreenshot(page, `admin-users-${lang}-1366`, { fullPage: false });
      }, { token: admin.token, lang, contextOptions: { viewport: VIEWPORTS.laptop } });
    }
  } finally {
    for (const u of made) await admin.deleteUser(u.id);
  }
});

test('the security page uses a wide screen', { timeout: TEST_TIMEOUT }, async (t) => {
  for (const lang of ['en', 'ru']) {
    await withPage(t, browser, async (page) => {
      await page.goto('/security');
      await waitLoaded(page);
      const main = await page.locator('#main').boundingBox();
      assert.ok(main.width >= 1600, `the page uses the width it has: ${main.width} of 1920`);
      const target = await page.locator('#target-heading').boundingBox();
      assert.ok(target.width < 26 * 16, 'the target form stays a narrow column');
      assert.ok((await noScroll(page)).x <= 0);
      await keepScreenshot(page, `security-${lang}-1920`, { fullPage: false });
    }, { token: ownerApi.token, lang, contextOptions: { viewport: { width: 1920, height: 1080 } } });
  }
});
