// (Issue 9) The /security page's "Active scans" panel: a user starts an API check of their own
// local fixture service as a background task, sees the progress bar and then the findings (OWASP
// category, CWE, the replay curl command); starts an OWASP scan of a slow site, reloads the page
// (the running task is picked up again) and cancels it; a bad option is a 422 shown next to its
// field, a site that is not theirs a clear 403.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  launchBrowser, withPage, Api, loginViaForm, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, uniqueName,
} from './lib.mjs';

let browser;
let admin;
let user;
let apiSite;
let slowSite;

// An OpenAPI document whose one operation declares bearer auth yet answers without it.
const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'E2E shop API', version: '1.0' },
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearerAuth: [] }],
  paths: { '/api/orders': { get: { summary: 'Orders', responses: { 200: { description: 'orders' } } } } },
});

// Each site can also serve proof-of-control files (docs/scan.md "Proof of control"): path → body.
async function serve(handler) {
  const proofs = new Map();
  const server = createServer((req, res) => {
    const proof = proofs.get((req.url || '/').split('?')[0]);
    if (proof === undefined) { handler(req, res); return; }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(proof);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    proofs,
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

function startApiSite() {
  return serve((req, res) => {
    const path = (req.url || '/').split('?')[0];
    if (path === '/openapi.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(OPENAPI);
    } else if (path === '/api/orders') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('[{"id":1,"item":"book"},{"id":2,"item":"pen"}]');
    } else if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>E2E API site</title><a href="/openapi.json">API</a>');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
}

/** Forty pages linking to each other, each answered after 700 ms: an OWASP scan runs for long. */
function startSlowSite() {
  const links = Array.from({ length: 40 }, (_, i) => `<a href="/p${i}?q=${i}">p${i}</a>`).join('');
  return serve((req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>slow</title><body>${links}</body>`);
    }, 700);
  });
}

before(async () => {
  browser = await launchBrowser();
  apiSite = await startApiSite();
  slowSite = await startSlowSite();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  user = await admin.createUser();
  // Active scans reach only the sites of the user's own services that they proved to control.
  const own = await admin.as(user.username, user.password);
  await own.mustOk('POST', '/api/v1/services', { name: uniqueName('api'), url: apiSite.url });
  for (const site of [apiSite, slowSite]) {
    const v = await own.mustOk('POST', '/api/v1/scan-verifications', { url: site.url });
    site.proofs.set(new URL(v.http.url).pathname, v.http.body);
    const done = await own.mustOk('POST', `/api/v1/scan-verifications/${v.id}/verify`, { method: 'http' });
    if (!done.verified) throw new Error(`verifying ${site.url}: ${done.last_error}`);
  }
});

after(async () => {
  if (user) await admin.deleteUser(user.id);
  await browser?.close();
  await apiSite?.close();
  await slowSite?.close();
  await admin?.dispose();
});

async function openTarget(page, url) {
  await page.goto(`/security?target=${encodeURIComponent(url)}`);
  await waitLoaded(page);
  await page.locator('#audit-panels [data-section="active"] #active-form').waitFor();
}

test('active scans: API check with progress and findings, cancel after a reload, 422 and 403', { timeout: 90_000 }, async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await loginViaForm(page, user.username, user.password, { next: `/security?target=${encodeURIComponent(apiSite.url)}` });
    await page.waitForURL((u) => u.pathname === '/security');
    await waitLoaded(page);
    const panel = page.locator('[data-section="active"]');
    await panel.locator('#active-form').waitFor();
    await panel.locator('#active-recent .empty', { hasText: 'No scans yet.' }).waitFor();

    // API check: queued through the page, the progress bar and phase, then the findings.
    await page.getByLabel('Scan', { exact: true }).selectOption('api-check');
    await page.getByRole('button', { name: 'Start scan' }).click();
    const view = panel.locator('.task-view');
    await view.waitFor();
    const bar = view.getByRole('progressbar');
    assert.match(await bar.getAttribute('aria-valuenow'), /^\d{1,3}$/);
    assert.match(await view.locator('#active-phase').textContent(), /^(Queued|Running|Finished)\b.*\d+%$/);
    assert.equal(await view.locator('#active-phase').getAttribute('aria-live'), 'polite');
    const result = view.locator('[data-result="active-api-check"]');
    await result.waitFor({ timeout: 60_000 });
    assert.equal(await view.getAttribute('data-state'), 'succeeded');
    assert.equal(await bar.getAttribute('aria-valuenow'), '100');
    const missing = result.locator('li[data-check="api-missing-auth"]');
    assert.equal(await missing.count(), 1, 'the unauthenticated operation is a finding');
    assert.equal(await missing.getAttribute('data-severity'), 'high');
    await missing.locator('summary').first().click();
    const body = await missing.locator('.finding-body').first().textContent();
    assert.match(body, /A01:2021/);
    assert.match(body, /CWE-306/);
    const replay = missing.locator('details.replay').first();
    await replay.locator('summary').click();
    assert.match(await replay.locator('pre').textContent(), /^curl .*\/api\/orders/s, 'the replay curl command');
    await panel.locator('#active-recent tr', { hasText: 'API check' }).locator('[data-state="succeeded"]').waitFor();

    // OWASP scan of the slow site: still running after a reload (picked up from the task list), then cancelled.
    await openTarget(page, slowSite.url);
    await page.getByLabel('Scan', { exact: true }).selectOption('owasp');
    await page.getByLabel('Pages at most').fill('30');
    await page.getByRole('button', { name: 'Start scan' }).click();
    const slowView = panel.locator('.task-view');
    await slowView.waitFor();
    const taskId = await slowView.getAttribute('data-task-id');
    await page.reload();
    await waitLoaded(page);
    await panel.locator(`.task-view[data-task-id="${taskId}"]`).waitFor();
    assert.match(await slowView.getAttribute('data-state'), /^(queued|running)$/);
    await page.getByRole('button', { name: 'Cancel scan' }).click();
    await panel.locator('.task-view[data-state="cancelled"]').waitFor({ timeout: 30_000 });
    assert.equal(await slowView.locator('.notice').textContent(), 'The scan was cancelled.');
    await panel.locator('#active-recent [data-state="cancelled"]').waitFor();

    // 422: an option out of bounds is named next to its field; a username without a password too.
    await page.getByLabel('Scan', { exact: true }).selectOption('endpoints');
    await page.getByLabel('Time limit, seconds').fill('99');
    await page.getByRole('button', { name: 'Start scan' }).click();
    const timeoutError = panel.locator('.field-error[data-for="timeout"]');
    await timeoutError.waitFor();
    assert.match(await timeoutError.textContent(), /60/);
    assert.match(await panel.locator('#active-form .form-alert').textContent(), /Check the scan options/);
    await page.getByLabel('Scan', { exact: true }).selectOption('auth-scan');
    await page.getByLabel('Username (optional)').fill('alice');
    await page.getByRole('button', { name: 'Start scan' }).click();
    await panel.locator('.field-error[data-for="password"]').waitFor();
    assert.match(await panel.locator('.field-error[data-for="password"]').textContent(), /^Password is required/, "the server's reason, without pydantic's \"Value error, \" prefix");
    // With the password the scan starts, and the password leaves the page once sent.
    const secret = 'E2e-secret-pw-7731';
    await page.getByLabel('Password (optional)').fill(secret);
    await page.getByRole('button', { name: 'Start scan' }).click();
    // The earlier scans' views are on the page already: wait for this start to clear the field
    // (up to 10 s) instead of taking any task view as the sign that it was sent.
    const password = page.getByLabel('Password (optional)');
    for (let i = 0; i < 100 && (await password.inputValue()) !== ''; i++) await page.waitForTimeout(100);
    assert.equal(await password.inputValue(), '', 'the password field is cleared');
    await panel.locator('.task-view').first().waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the password is nowhere in the page');
    // It may finish first (no login form on the slow site): then there is nothing to cancel.
    await page.getByRole('button', { name: 'Cancel scan' }).click({ timeout: 3_000 }).catch(() => {});
    await panel.locator('.task-view[data-state="cancelled"], .task-view[data-state="succeeded"]').waitFor({ timeout: 30_000 });
    assert.ok(!(await page.content()).includes(secret), 'nor in the finished task');

    // 403: a host that is none of the user's services.
    await openTarget(page, 'http://127.0.0.2:9/');
    await page.getByLabel('Scan', { exact: true }).selectOption('endpoints');
    await page.getByRole('button', { name: 'Start scan' }).click();
    const alert = panel.locator('#active-form .form-alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), /only the sites of your own services/);
    assert.equal(await panel.locator('.task-view').count(), 0, 'nothing was queued');

    // The browser logs each refused request (the two 422s and the 403 asked for above); nothing else.
    const refused = /^\[error\] Failed to load resource: the server responded with a status of (422|403) \(\)$/;
    assert.deepEqual(log.errors.filter((e) => !refused.test(e)), [], 'no page errors');
    assert.equal(log.errors.length, 3, 'exactly the three refusals');
  });
});

test('active scans in Russian: the panel speaks Russian', { timeout: 30_000 }, async (t) => {
  const token = await admin.login(user.username, user.password);
  await withPage(t, browser, async (page) => {
    await openTarget(page, apiSite.url);
    await page.getByRole('heading', { name: 'Активные проверки' }).waitFor();
    await page.getByRole('button', { name: 'Запустить проверку' }).waitFor();
    assert.equal(await page.locator('#active-kind option[value="owasp"]').textContent(), 'Проверка OWASP Top 10');
  }, { token, lang: 'ru' });
});
