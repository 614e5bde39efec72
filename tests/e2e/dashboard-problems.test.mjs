// Issue 7 §5/§6: the dashboard puts problems first (down, slow, certificate warnings, the rest),
// searches and filters by state and group, groups and collapses, shows "down since", keeps the
// last data under a banner with its age when the API cannot be reached, edits and pauses a
// service, runs "Check all" two at a time honouring Retry-After, shows per-service charts
// (uPlot) and incidents, and stays quick with 1,000 services.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

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

/** A fresh user with its own services (and check slots); deleted with everything it owns. */
async function withUser(fn) {
  const user = await admin.createUser();
  try {
    await fn(await admin.as(user.username, user.password));
  } finally {
    await admin.deleteUser(user.id);
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function service(id, name, fields) {
  return {
    id, name, url: `https://${name.toLowerCase().replace(/\s+/g, '-')}.example/`, check_interval: 60, is_active: true,
    last_status: 'up', last_response_time: 50, last_checked_at: new Date(Date.now() - 60_000).toISOString(),
    group_id: null, state: 'up', down_since: null, last_error: null, cert_expires_at: null,
    method: 'GET', expected_status: null, keyword: null, keyword_absent: false, slow_ms: null,
    ...fields,
  };
}

test('problems first: down, slow, certificate warnings, then the rest; filters, groups, stale banner', { timeout: TEST_TIMEOUT }, async (t) => {
  const now = Date.now();
  const list = [
    service(9001, 'Alpha ok', { group_id: 1 }),
    service(9002, 'Bravo over threshold', { last_response_time: 900, slow_ms: 500, group_id: 2 }),
    service(9003, 'Charlie over p95', { last_response_time: 300, group_id: 2 }),
    service(9004, 'Delta down', {
      state: 'down', last_status: 'down', last_response_time: null, down_since: new Date(now - 2 * HOUR - 5 * 60_000).toISOString(),
      last_error: "Couldn't connect to server", group_id: 1,
    }),
    service(9005, 'Echo certificate', { cert_expires_at: new Date(now + 5.5 * DAY).toISOString() }),
    service(9006, 'Foxtrot paused', { is_active: false, group_id: 1 }),
    service(9007, 'Golf down longer', { state: 'down', last_status: 'down', down_since: new Date(now - DAY - HOUR).toISOString(), group_id: 2 }),
    service(9008, 'Hotel unknown', { state: 'unknown', last_status: null, last_response_time: null, last_checked_at: null }),
  ];
  const summary = { services: list.map((s) => ({ id: s.id, p95_response_ms_24h: s.id === 9003 ? 120 : 1000 })) };
  const groups = [{ id: 1, name: 'Web', description: null, color: '#3b82f6', services_count: 3 },
    { id: 2, name: 'API', description: null, color: '#10b981', services_count: 3 }];
  await withPage(t, browser, async (page) => {
    let listDown = false;
    await page.route('**/api/v1/services', (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      if (listDown) return route.abort('connectionrefused');
      return route.fulfill({ json: list });
    });
    await page.route('**/api/v1/analytics/summary', (route) => route.fulfill({ json: summary }));
    await page.route('**/api/v1/groups', (route) => route.fulfill({ json: groups }));
    await page.goto('/dashboard');
    await waitLoaded(page);

    const order = async () => page.$$eval('#services-body tr[data-service-id]', (rows) => rows.map((r) => [r.querySelector('.svc-name').textContent, r.dataset.status]));
    assert.deepEqual(await order(), [
      ['Golf down longer', 'down'], ['Delta down', 'down'],
      ['Charlie over p95', 'slow'], ['Bravo over threshold', 'slow'],
      ['Echo certificate', 'up'],
      ['Alpha ok', 'up'], ['Hotel unknown', 'unknown'],
      ['Foxtrot paused', 'paused'],
    ]);
    const row = (id) => page.locator(`#services-body tr[data-service-id="${id}"]`);
    assert.match(await row(9004).locator('[data-field="down-since"]').textContent(), /down for 2 h 5 min/);
    assert.match(await row(9004).textContent(), /connection refused/);
    assert.match(await row(9002).locator('[data-field="response"]').getAttribute('class'), /response-slow/);
    assert.match(await row(9002).locator('.badge').textContent(), /Slow/);
    assert.match(await row(9005).locator('[data-field="cert"]').textContent(), /certificate expires in 5 d/);
    for (const id of [9001, 9004, 9008]) assert.ok(await row(id).locator('[data-field="checked"]').count(), 'last check on every row');
    assert.equal(await page.locator('#stat-down').textContent(), '2');
    assert.equal(await page.locator('#stat-slow').textContent(), '2');
    assert.equal(await page.locator('#stat-cert').textContent(), '1');

    // Search by name and by URL; filter by state and by group.
    const search = page.getByLabel('Search');
    await search.fill('charl');
    assert.deepEqual((await order()).map(([n]) => n), ['Charlie over p95']);
    await search.fill('echo-certificate.example');
    assert.deepEqual((await order()).map(([n]) => n), ['Echo certificate']);
    await search.fill('');
    await page.getByLabel('State', { exact: true }).selectOption('down');
    assert.deepEqual((await order()).map(([n]) => n), ['Golf down longer', 'Delta down']);
    await page.getByLabel('State', { exact: true }).selectOption('problems');
    assert.equal((await order()).length, 5);
    await page.getByLabel('State', { exact: true }).selectOption('all');
    await page.locator('#flt-group').selectOption({ label: 'Web' });
    assert.deepEqual((await order()).map(([n]) => n), ['Delta down', 'Alpha ok', 'Foxtrot paused']);
    await page.locator('#flt-group').selectOption('all');

    // Grouped: a header per group, problems first inside; a header collapses its group.
    await page.getByLabel('Group the list').check();
    const headers = page.locator('#services-body tr[data-group-header]');
    assert.deepEqual(await headers.evaluateAll((h) => h.map((x) => x.dataset.groupHeader)), ['2', '1', 'none']);
    const api = headers.filter({ hasText: 'API' }).getByRole('button');
    assert.equal(await api.getAttribute('aria-expanded'), 'true');
    await api.click();
    assert.equal(await headers.filter({ hasText: 'API' }).getByRole('button').getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('#services-body tr[data-group="2"]').count(), 0, 'collapsed group hides its services');
    assert.equal(await page.locator('#services-body tr[data-group="1"]').count(), 3);
    await page.getByLabel('Group the list').uncheck();

    // The API goes away: the rows stay, a banner says so and how old the data is.
    listDown = true;
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const banner = page.locator('#services-error');
    await banner.waitFor({ state: 'visible' });
    assert.match(await banner.textContent(), /Cannot reach the server/);
    assert.match(await banner.textContent(), /Showing data from (just now|\d+ seconds? ago)/);
    assert.equal((await order()).length, 8, 'the last data stays on screen');
    listDown = false;
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await banner.waitFor({ state: 'hidden' });
  }, { token: admin.token });
});

test('edit in a dialog (422 next to the field, new group), pause and resume', { timeout: TEST_TIMEOUT }, async (t) => {
  await withUser(async (user) => {
    const name = uniqueName('edit');
    const s = await user.mustOk('POST', '/api/v1/services', { name, url: target.url, check_interval: 60 });
    await withPage(t, browser, async (page) => {
      await page.goto('/dashboard');
      await waitLoaded(page);
      await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
      await dialog.waitFor();
      await dialog.getByLabel('Check interval, seconds').fill('5');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const err = dialog.locator('.field-error[data-for="check_interval"]');
      await err.waitFor({ state: 'visible' });
      assert.match(await err.textContent(), /10/);

      const renamed = `${name}-renamed`;
      await dialog.getByLabel('Name').fill(renamed);
      await dialog.getByLabel('Check interval, seconds').fill('120');
      await dialog.getByLabel('Or a new group').fill(`grp-${name}`);
      await dialog.getByLabel('Slow above, ms').fill('250');
      await dialog.getByLabel('Expected HTTP status').fill('200-299');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.locator(`#services-body tr[data-service-id="${s.id}"]`);
      assert.equal(await row.locator('.svc-name').textContent(), renamed);
      assert.match(await row.textContent(), /every 120 s/);
      const stored = (await user.mustOk('GET', '/api/v1/services')).find((x) => x.id === s.id);
      assert.equal(stored.name, renamed);
      assert.equal(stored.check_interval, 120);
      assert.equal(stored.slow_ms, 250);
      assert.equal(stored.expected_status, '200-299');
      const group = (await user.mustOk('GET', '/api/v1/groups')).find((g) => g.name === `grp-${name}`);
      assert.ok(group, 'the new group was created');
      assert.equal(stored.group_id, group.id);

      await page.getByRole('button', { name: `Pause ${renamed}`, exact: true }).click();
      await page.getByRole('button', { name: `Resume ${renamed}`, exact: true }).waitFor();
      assert.equal(await row.getAttribute('data-status'), 'paused');
      assert.equal((await user.mustOk('GET', '/api/v1/services')).find((x) => x.id === s.id).is_active, false);
      await page.getByRole('button', { name: `Resume ${renamed}`, exact: true }).click();
      await page.getByRole('button', { name: `Pause ${renamed}`, exact: true }).waitFor();
      assert.equal((await user.mustOk('GET', '/api/v1/services')).find((x) => x.id === s.id).is_active, true);
    }, { token: user.token });
  });
});

test('"Check all" runs two at a time, waits out a 429 and shows progress', { timeout: TEST_TIMEOUT }, async (t) => {
  await withUser(async (user) => {
    const made = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(await user.mustOk('POST', '/api/v1/services', {
        name: `${uniqueName('all')}-${i}`, url: `${target.url}slow/700?all=${i}`, check_interval: 3600,
      }));
    }
    await withPage(t, browser, async (page) => {
      let inFlight = 0;
      let maxInFlight = 0;
      const isCheck = (r) => r.method() === 'POST' && /\/api\/v1\/services\/\d+\/check$/.test(r.url());
      page.on('request', (r) => { if (isCheck(r)) { inFlight += 1; maxInFlight = Math.max(maxInFlight, inFlight); } });
      const done = (r) => { if (isCheck(r)) inFlight -= 1; };
      page.on('requestfinished', done);
      page.on('requestfailed', done);
      let refused = 0;
      await page.route(/\/api\/v1\/services\/\d+\/check$/, (route) => {
        if (refused === 0) {
          refused += 1;
          return route.fulfill({ status: 429, headers: { 'Retry-After': '1' }, json: { detail: 'Too many checks in progress; try again shortly' } });
        }
        return route.fallback();
      });
      await page.goto('/dashboard');
      await waitLoaded(page);
      const started = Date.now();
      await page.getByRole('button', { name: 'Check all', exact: true }).click();
      const progress = page.locator('#check-all-progress');
      await progress.waitFor({ state: 'visible' });
      await page.locator('#check-all-text', { hasText: /server busy, next try in 1 s/ }).waitFor();
      await page.locator('#check-all-text', { hasText: 'Checked 5 of 5' }).waitFor({ timeout: 20_000 });
      assert.equal(refused, 1);
      assert.ok(maxInFlight <= 2, `at most 2 checks at once (saw ${maxInFlight})`);
      assert.ok(maxInFlight === 2, 'two at a time, not one by one');
      assert.ok(Date.now() - started >= 1000, 'the Retry-After second was waited out');
      for (const s of made) {
        const row = page.locator(`#services-body tr[data-service-id="${s.id}"]`);
        assert.match(await row.locator('[data-testid="check-result"]').textContent(), /Available/);
        assert.ok(target.hits.some((h) => h.url === `/slow/700?all=${made.indexOf(s)}`), `${s.name} reached the target`);
      }
      assert.equal(await page.locator('#check-all-bar').evaluate((b) => [b.value, b.max].join('/')), '5/5');
    }, { token: user.token });
  });
});

test('the dashboard shows a chart: response time, uptime bars and the incident list', { timeout: TEST_TIMEOUT }, async (t) => {
  await withUser(async (user) => {
    const name = uniqueName('chart');
    const s = await user.mustOk('POST', '/api/v1/services', { name, url: target.url, check_interval: 3600 });
    for (let i = 0; i < 3; i += 1) await user.mustOk('POST', `/api/v1/services/${s.id}/check`);
    await withPage(t, browser, async (page, { log }) => {
      await page.goto('/dashboard');
      await waitLoaded(page);
      const toggle = page.getByRole('button', { name: `Charts and incidents of ${name}`, exact: true });
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      const details = page.locator(`#svc-${s.id}-details`);
      for (const kind of ['response', 'uptime']) {
        const canvas = details.locator(`.chart[data-chart="${kind}"] canvas`);
        await canvas.waitFor();
        const box = await canvas.boundingBox();
        assert.ok(box.width > 150 && box.height > 100, `${kind} chart drawn (${box.width}×${box.height})`);
        assert.match(await details.locator(`.chart[data-chart="${kind}"] .chart-plot`).getAttribute('aria-label'), /24 h/);
      }
      // uPlot comes from this site (www/vendor), never a CDN.
      assert.ok(await page.evaluate(() => performance.getEntriesByType('resource')
        .some((e) => new URL(e.name).pathname === '/vendor/uplot/uPlot.iife.min.js' && e.name.startsWith(location.origin))));
      await details.getByText('No incidents recorded.').waitFor();
      await details.getByRole('button', { name: '7 days' }).click();
      assert.equal(await details.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed'), 'true');
      await page.waitForFunction((id) => {
        const d = document.getElementById(`svc-${id}-details`);
        return d && d.querySelector('.chart-status').textContent !== 'Loading…';
      }, s.id);
      assert.deepEqual(log.csp, [], 'uPlot runs under the CSP');
      assert.deepEqual(await page.evaluate(() => window.__dozorCsp), []);
      assert.deepEqual(log.errors, []);
    }, { token: user.token });
  });
});

test('1,000 services: quick first draw, a bounded number of rows, search and pages', { timeout: 300_000 }, async (t) => {
  await withUser(async (user) => {
    const n = 1000;
    const names = Array.from({ length: n }, (_, i) => `bulk-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < n; i += 25) {
      await Promise.all(names.slice(i, i + 25).map((name) => user.mustOk('POST', '/api/v1/services', {
        name, url: `${target.url}${name}`, check_interval: 3600, is_active: false,
      })));
    }
    // The page's data call: p95 over 20 calls.
    const times = [];
    for (let i = 0; i < 20; i += 1) {
      const t0 = performance.now();
      const r = await user.call('GET', '/api/v1/services');
      times.push(performance.now() - t0);
      assert.equal(r.json.length, n);
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.ceil(times.length * 0.95) - 1];
    t.diagnostic(`GET /api/v1/services with ${n} services: p95 ${p95.toFixed(0)} ms, median ${times[10].toFixed(0)} ms`);

    await withPage(t, browser, async (page) => {
      const t0 = Date.now();
      await page.goto('/dashboard');
      await waitLoaded(page);
      const firstDraw = Date.now() - t0;
      t.diagnostic(`dashboard with ${n} services: drawn ${firstDraw} ms after navigation`);
      assert.ok(firstDraw < 5000, `drawn in ${firstDraw} ms`);
      const rows = await page.locator('#services-body tr').count();
      assert.ok(rows > 0 && rows <= 60, `${rows} rows in the DOM`);
      assert.equal(await page.locator('#stat-total').textContent(), String(n));
      assert.match(await page.locator('#list-count').textContent(), /Showing 1–50 of 1000/);
      await page.getByRole('button', { name: 'Next page' }).click();
      assert.match(await page.locator('#list-count').textContent(), /Showing 51–100 of 1000/);
      const t1 = Date.now();
      await page.getByLabel('Search').fill('bulk-0777');
      await page.locator('#services-body tr[data-service-id]').first().waitFor();
      assert.equal(await page.locator('#services-body tr[data-service-id]').count(), 1);
      const searchMs = Date.now() - t1;
      t.diagnostic(`search among ${n}: ${searchMs} ms`);
      assert.ok(searchMs < 1000);
    }, { token: user.token });
  });
});
