// (5) The kiosk shows a tile per service with status and response time, cycles with Next/Previous
// buttons and the arrow keys, pauses, and advances on its own at the chosen interval — all in step
// with the server's kiosk state. The spotlight shows the grade of the site's latest audit and its open
// high and critical findings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let admin;
let target;
let owner;
let ownerApi;
const services = [];

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  // A fresh user, so the kiosk shows exactly the services made here.
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
  for (const suffix of ['alpha', 'beta', 'gamma']) {
    services.push(await ownerApi.mustOk('POST', '/api/v1/services', {
      name: `${uniqueName('kiosk')}-${suffix}`, url: `${target.url}${suffix}`, check_interval: 60,
    }));
  }
  const check = await ownerApi.mustOk('POST', `/api/v1/services/${services[0].id}/check`);
  assert.equal(check.is_available, true, 'the local target is reachable from the backend');
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id); // deletes the user's services too
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

test('kiosk shows the tiles and cycles through the services', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/kiosk');
    await waitLoaded(page);

    const tiles = page.locator('#kiosk-tiles .tile');
    assert.equal(await tiles.count(), 3);
    for (const [i, s] of services.entries()) {
      assert.match(await tiles.nth(i).textContent(), new RegExp(s.name));
    }
    // The checked service is up with a response time, on its tile and in the spotlight.
    assert.equal(await tiles.nth(0).getAttribute('data-status'), 'up');
    assert.match(await tiles.nth(0).locator('.tile-ms').textContent(), /^\d+ ms$/);
    assert.equal(await tiles.nth(1).getAttribute('data-status'), 'unknown');

    const stage = page.locator('#kiosk-stage .spot');
    const position = page.locator('#kiosk-position');
    const interval = page.getByLabel('Interval');
    assert.equal(await interval.inputValue(), '30', 'default interval is 30 s');

    const expectCurrent = async (i) => {
      await page.waitForFunction((id) => document.querySelector('#kiosk-stage .spot')?.dataset.serviceId === String(id), services[i].id);
      assert.equal(await stage.locator('.spot-name').textContent(), services[i].name);
      assert.equal(await position.textContent(), `${i + 1} of 3`);
      assert.equal(await tiles.nth(i).getAttribute('aria-current'), 'true');
      assert.equal(await page.locator('#kiosk-tiles .tile[aria-current="true"]').count(), 1);
    };

    await expectCurrent(0);
    assert.equal(await stage.getAttribute('data-status'), 'up');
    assert.match(await stage.locator('[data-metric="response"]').textContent(), /^\d+ ms$/);
    assert.match(await stage.locator('.badge').textContent(), /Up/);

    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expectCurrent(1);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expectCurrent(2);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expectCurrent(0); // wraps around
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await expectCurrent(2);

    // Keyboard arrows (focus on the page, not on a control).
    await page.locator('#kiosk-stage').focus();
    await page.keyboard.press('ArrowRight');
    await expectCurrent(0);
    await page.keyboard.press('ArrowLeft');
    await expectCurrent(2);

    // A tile jumps to its service.
    await tiles.nth(1).click();
    await expectCurrent(1);

    // Paused: nothing moves even past the interval.
    await interval.selectOption('5');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    // The label says what the button does next.
    const resume = page.getByRole('button', { name: 'Resume', exact: true });
    assert.equal(await resume.getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator('#kiosk-countdown').textContent(), /Paused/);
    await page.waitForTimeout(6000);
    await expectCurrent(1);
    // The server holds the state: another screen of this user sees it paused on the same site.
    const shared = await ownerApi.mustOk('GET', '/api/v1/kiosk/state');
    assert.equal(shared.running, false);
    assert.equal(shared.current_service.id, services[1].id);

    // Resumed: it advances by itself within the 5 s interval.
    await resume.click();
    assert.equal(await page.getByRole('button', { name: 'Pause', exact: true }).getAttribute('aria-pressed'), 'false');
    await page.waitForFunction((id) => document.querySelector('#kiosk-stage .spot')?.dataset.serviceId === String(id),
      services[2].id, { timeout: 8000 });
    await expectCurrent(2);
  }, { token: ownerApi.token });
});

test('kiosk and dashboard show the grade of each site\'s latest audit', { timeout: TEST_TIMEOUT }, async (t) => {
  // A stored audit of the second site (its URL normalised as the dashboard's grades name it).
  const audit = await ownerApi.mustOk('POST', `/api/v1/audit/${encodeURIComponent(services[1].url)}?depth=0`);
  assert.match(audit.grade, /^[A-F][+-]?$/);
  await ownerApi.mustOk('POST', '/api/v1/kiosk/stop'); // the test before left it cycling every 5 s
  await withPage(t, browser, async (page) => {
    await page.goto('/kiosk');
    await waitLoaded(page);
    const tiles = page.locator('#kiosk-tiles .tile');
    await page.waitForFunction(() => document.querySelectorAll('#kiosk-tiles .tile .grade-chip').length === 1);
    assert.equal(await tiles.nth(1).locator('.grade-chip').textContent(), audit.grade);
    assert.equal(await tiles.nth(0).locator('.grade-chip').count(), 0, 'no audit, no grade');
    await tiles.nth(1).click();
    await page.waitForFunction((id) => document.querySelector('#kiosk-stage .spot')?.dataset.serviceId === String(id),
      services[1].id);
    const grade = page.locator('#kiosk-stage [data-metric="grade"] .grade-chip');
    assert.equal(await grade.textContent(), audit.grade);
    assert.match(await grade.getAttribute('title'), new RegExp(`grade ${audit.grade.replace('+', '\\+')} `));
    await tiles.nth(0).click();
    await page.waitForFunction((id) => document.querySelector('#kiosk-stage .spot')?.dataset.serviceId === String(id),
      services[0].id);
    assert.equal(await page.locator('#kiosk-stage [data-metric="grade"]').textContent(), 'Not audited yet');

    await page.goto('/dashboard');
    await waitLoaded(page);
    const row = page.locator(`tr.svc-row[data-service-id="${services[1].id}"]`);
    await row.locator('[data-field="grade"] .grade-chip').waitFor();
    assert.equal(await row.locator('[data-field="grade"] .grade-chip').textContent(), audit.grade);
    assert.equal(await row.locator('[data-field="grade"]').getAttribute('href'),
      `/security?target=${encodeURIComponent(services[1].url)}`);
    assert.equal(await page.locator(`tr.svc-row[data-service-id="${services[0].id}"] .grade-chip`).count(), 0);
  }, { token: ownerApi.token });
});

/** A plain-HTTP site whose audit has open high and critical findings: an exposed .git (high) and .env (critical). */
async function startExposedSite() {
  const files = {
    '/': ['text/html; charset=utf-8', '<!doctype html><html lang="en"><title>Exposed</title><p>hi</p></html>'],
    '/.git/HEAD': ['text/plain', 'ref: refs/heads/main\n'],
    '/.env': ['text/plain', 'APP_ENV=production\nDB_PASSWORD=e2e-not-a-real-secret\n'],
  };
  const server = createServer((req, res) => {
    const file = files[(req.url || '/').split('?')[0]];
    if (!file) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('not found'); return; }
    res.writeHead(200, { 'Content-Type': file[0] });
    res.end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

test('kiosk lists the open high and critical findings of the current site\'s latest audit', { timeout: TEST_TIMEOUT }, async (t) => {
  const site = await startExposedSite();
  const user = await admin.createUser(); // alone, so the kiosk shows just this site
  // Exposure probes ask paths the site never linked: active work, so the user needs the scan
  // permission (docs/scan.md "Who may scan what"); without it the audit finds no exposure.
  await admin.mustOk('PUT', `/api/admin/users/${user.id}/scan-grant`);
  try {
    const userApi = await admin.as(user.username, user.password);
    const service = await userApi.mustOk('POST', '/api/v1/services', {
      name: uniqueName('kiosk-exposed'), url: site.url, check_interval: 60,
    });
    const audit = await userApi.mustOk('POST', `/api/v1/audit/${encodeURIComponent(site.url)}?depth=0`);
    assert.ok(audit.counts.high >= 1 && audit.counts.critical >= 1, `counts: ${JSON.stringify(audit.counts)}`);
    const state = await userApi.mustOk('GET', '/api/v1/kiosk/state');
    assert.equal(state.current_service.id, service.id);
    const serious = state.current_service.audit.serious_findings;
    assert.ok(serious.length >= 2, JSON.stringify(serious));
    const severities = new Set(serious.map((f) => f.severity));
    assert.ok(severities.has('high') && severities.has('critical'), [...severities].join());

    await withPage(t, browser, async (page, { log }) => {
      await page.goto('/kiosk');
      await waitLoaded(page);
      await page.waitForFunction((id) => document.querySelector('#kiosk-stage .spot')?.dataset.serviceId === String(id),
        service.id);
      const box = page.locator('#kiosk-stage [data-metric="serious"]');
      assert.equal(await box.getByRole('heading', { name: 'High and critical findings' }).count(), 1);
      const items = box.locator('li');
      await page.waitForFunction(
        (n) => document.querySelectorAll('#kiosk-stage [data-metric="serious"] li').length === n, serious.length);
      for (const [i, f] of serious.entries()) {
        assert.equal(await items.nth(i).getAttribute('data-severity'), f.severity);
        const label = f.severity === 'critical' ? 'Critical' : 'High';
        assert.equal((await items.nth(i).textContent()).trim(), `${label} ${f.title}`);
      }
      assert.equal(await page.locator('#kiosk-stage [data-metric="grade"] .grade-chip').textContent(), audit.grade);
      assert.deepEqual(log.errors, [], 'no page errors');
    }, { token: userApi.token });
  } finally {
    await admin.deleteUser(user.id);
    await site.close();
  }
});
