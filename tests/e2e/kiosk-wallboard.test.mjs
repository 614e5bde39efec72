// The kiosk as a wallboard (issue 7 §5): a banner names every site that is down (the monitor's
// debounced state, not one failed check), and the spotlight shows 24 h uptime, the certificate
// and a 24 h response-time sparkline drawn by uPlot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT } from './lib.mjs';

let browser;
let admin;
let target;
let owner;
let ownerApi;
let upSvc;
let downSvc;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
  upSvc = await ownerApi.mustOk('POST', '/api/v1/services', {
    name: `${uniqueName('wall')}-a-up`, url: `${target.url}ok`, check_interval: 10,
  });
  downSvc = await ownerApi.mustOk('POST', '/api/v1/services', {
    name: `${uniqueName('wall')}-b-down`, url: 'http://127.0.0.1:9/', check_interval: 10,
  });
  for (let i = 0; i < 2; i += 1) await ownerApi.mustOk('POST', `/api/v1/services/${upSvc.id}/check`);
  // dozord makes it down after two failures (the second a re-check ≤ 10 s after the first).
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await ownerApi.mustOk('GET', '/api/v1/services');
    if (list.find((s) => s.id === downSvc.id)?.state === 'down') break;
    assert.ok(Date.now() < deadline, 'dozord never marked the unreachable service down');
    await new Promise((r) => setTimeout(r, 1000));
  }
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

test('a banner names the down site; the spotlight has uptime, certificate and a sparkline', { timeout: TEST_TIMEOUT }, async (t) => {
  const { token } = ownerApi;
  await withPage(t, browser, async (page, { log }) => {
    await page.goto('/kiosk?interval=3600');
    await waitLoaded(page);
    const alert = page.locator('#kiosk-alert');
    await alert.waitFor({ state: 'visible' });
    assert.match(await alert.textContent(), new RegExp(`Down now \\(1\\): ${downSvc.name}`));
    assert.doesNotMatch(await alert.textContent(), new RegExp(upSvc.name));
    // Show the up service (first by id) and wait for its sparkline.
    const spot = page.locator('#kiosk-stage .spot');
    if ((await spot.getAttribute('data-service-id')) !== String(upSvc.id)) await page.keyboard.press('ArrowLeft');
    await page.waitForSelector(`#kiosk-stage .spot[data-service-id="${upSvc.id}"]`);
    assert.match(await page.locator('[data-metric="uptime"]').textContent(), /^(\d+\.\d\d %|—)$/);
    assert.equal(await page.locator('[data-metric="cert"]').textContent(), '—', 'http has no certificate');
    await page.waitForSelector('[data-metric="sparkline"] canvas');
    assert.ok(Number(await page.locator('[data-metric="sparkline"]').getAttribute('data-points')) >= 2);
    assert.deepEqual(await page.evaluate(() => window.__dozorCsp), []);
    assert.deepEqual(log.errors, []);
  }, { token });
});
