// Issue 12 §6: Russian pages show Russian error texts — never the server's English `detail`, never
// an English check error, never "HTTP 500" twice — and "Check now" beyond the check-slot limit
// (429 + Retry-After) says "busy, try again in N s" in a neutral style, not as an outage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let admin;
let target;
let owner;
let ownerApi;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

/** Fails when text holds Latin words other than the allowed ones (names, URLs, "HTTP"). */
function assertRussian(text, what, allowed = []) {
  let rest = text;
  for (const a of [...allowed, 'HTTP']) rest = rest.split(a).join(' ');
  assert.doesNotMatch(rest, /[A-Za-z]{2,}/, `${what}: English left in "${text}"`);
  assert.match(text, /[А-Яа-яЁё]/, `${what}: no Russian in "${text}"`);
  assert.ok((text.match(/HTTP \d{3}/g) || []).length <= 1, `${what}: a status twice in "${text}"`);
}

test('Russian dashboard: check errors and API errors are in Russian, no doubled status', { timeout: TEST_TIMEOUT }, async (t) => {
  const failing = await ownerApi.mustOk('POST', '/api/v1/services', {
    name: uniqueName('err500'), url: `${target.url}status/500`, check_interval: 60,
  });
  const refused = await ownerApi.mustOk('POST', '/api/v1/services', {
    name: uniqueName('refused'), url: 'http://127.0.0.1:1/', check_interval: 60,
  });
  try {
    await withPage(t, browser, async (page) => {
      await page.goto('/dashboard');
      await waitLoaded(page);
      for (const s of [failing, refused]) {
        const row = page.locator(`#services-body tr[data-service-id="${s.id}"]`);
        await row.locator('[data-action="check"]').click();
        const result = row.locator('[data-testid="check-result"]');
        await result.waitFor();
        const text = (await result.textContent()).trim();
        assertRussian(text, `check of ${s.url}`);
        assert.match(text, /Недоступен/);
        if (s === failing) assert.match(text, /HTTP 500/);
      }

      // The server's English `detail` never reaches the page; each status has its Russian text.
      const answers = [
        { status: 500, body: { detail: 'Internal Server Error' } },
        { status: 502, body: { detail: 'Backend unavailable' } },
        { status: 503, body: { detail: 'Database unavailable' }, headers: { 'Retry-After': '7' } },
        { status: 400, body: { detail: 'Bad request' } },
      ];
      for (const a of answers) {
        await page.route('**/api/v1/services', (route) => route.fulfill({
          status: a.status, contentType: 'application/json', headers: a.headers || {}, body: JSON.stringify(a.body),
        }), { times: 1 });
        await page.getByRole('button', { name: 'Обновить', exact: true }).click();
        const box = page.locator('#services-error');
        await box.waitFor({ state: 'visible' });
        await page.waitForFunction((st) => document.getElementById('services-error').dataset.status === String(st), a.status);
        assertRussian(await box.textContent(), `list answer ${a.status}`);
        if (a.headers) assert.match(await box.textContent(), /7 с/);
      }

      // Form answers: a 409 and a 422 of a type the page has no text for.
      const form = page.locator('#add-service');
      await page.route('**/api/v1/services', (route) => route.fulfill({
        status: 409, contentType: 'application/json', body: JSON.stringify({ detail: 'Service already exists' }),
      }), { times: 1 });
      await form.getByLabel('Название').fill('x');
      await form.getByLabel('Адрес (URL)').fill('https://example.com');
      await form.getByRole('button', { name: 'Добавить сервис' }).click();
      await form.locator('.form-alert').waitFor({ state: 'visible' });
      assertRussian(await form.locator('.form-alert').textContent(), 'form 409');

      await page.route('**/api/v1/services', (route) => route.fulfill({
        status: 422, contentType: 'application/json', body: JSON.stringify({ detail: [
          { type: 'some_future_type', loc: ['body', 'url'], msg: 'Value is not acceptable', input: 'x' },
        ] }),
      }), { times: 1 });
      await form.getByRole('button', { name: 'Добавить сервис' }).click();
      const urlError = form.locator('.field-error[data-for="url"]');
      await urlError.waitFor({ state: 'visible' });
      assertRussian(await urlError.textContent(), 'form 422 (unknown type)');
    }, { token: ownerApi.token, lang: 'ru' });
  } finally {
    await ownerApi.call('DELETE', `/api/v1/services/${failing.id}`);
    await ownerApi.call('DELETE', `/api/v1/services/${refused.id}`);
  }
});

test('"Check now" beyond the slot limit says busy, try again in N s — not an outage', { timeout: TEST_TIMEOUT }, async (t) => {
  const made = [];
  for (const i of [1, 2, 3]) {
    made.push(await ownerApi.mustOk('POST', '/api/v1/services', {
      name: `${uniqueName('slow')}-${i}`, url: `${target.url}slow/3000?n=${i}`, check_interval: 60,
    }));
  }
  try {
    for (const [lang, busyText] of [['en', /Busy — try again in \d+ s/], ['ru', /Занято — повторите через \d+ с/]]) {
      await withPage(t, browser, async (page) => {
        await page.goto('/dashboard');
        await waitLoaded(page);
        // Three at once: the caller's check slots (2 by default) cannot take the third.
        await page.evaluate((ids) => {
          for (const id of ids) document.querySelector(`#services-body tr[data-service-id="${id}"] [data-action="check"]`).click();
        }, made.map((s) => s.id));
        await page.waitForFunction((ids) => ids.every((id) =>
          document.querySelector(`#services-body tr[data-service-id="${id}"] .check-result`)), made.map((s) => s.id), { timeout: 20_000 });
        let busy = 0;
        for (const s of made) {
          const row = page.locator(`#services-body tr[data-service-id="${s.id}"]`);
          const result = row.locator('.check-result');
          const text = await result.textContent();
          if (busyText.test(text)) {
            busy += 1;
            assert.match(await result.getAttribute('class'), /check-result-busy/);
            assert.doesNotMatch(await result.getAttribute('class'), /check-result-error/);
            assert.notEqual(await row.locator('.badge').first().getAttribute('data-status'), 'down', 'a busy answer is no outage');
            assert.equal(await row.locator('[role="alert"]').count(), 0);
          } else {
            assert.equal(await result.getAttribute('data-testid'), 'check-result', `${s.name}: ${text}`);
          }
        }
        assert.ok(busy >= 1, 'at least one of three concurrent checks was refused as busy');
      }, { token: ownerApi.token, lang });
      await new Promise((r) => setTimeout(r, 3500)); // let the slots drain before the next language
    }
  } finally {
    for (const s of made) await ownerApi.call('DELETE', `/api/v1/services/${s.id}`);
  }
});
