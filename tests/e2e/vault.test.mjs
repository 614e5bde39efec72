// (Issues 10 and 11 §2) The vault's file browser in a real browser: sign in on /vault/login, the
// user's home folder listed with folders first, files uploaded through the page's picker, and a
// file checked for personal data by the analyzer — the dialog names the risk and the categories,
// never a value; a clean file says nothing was found.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as pwRequest } from 'playwright-core';
import {
  launchBrowser, withPage, Api, waitLoaded, BASE_URL, ADMIN_USER, ADMIN_PASSWORD,
} from './lib.mjs';

let browser;
let admin;
let user;

// Planted personal data (valid check digits), as tests/integration/test_analyzer.py's corpus.
const STAFF = [
  'Сотрудник: Смирнова Анна Сергеевна',
  'СНИЛС 112-233-445 95',
  'Паспорт серия 45 10 № 123456, выдан ОВД',
  'Телефон: +7 (916) 123-45-67',
].join('\n');
const CLEAN = 'Отдел снабжения: заявка принята\nЦена 12 500 рублей, срок поставки 5 дней\n';

/** A vault session through the API's own login (cookie kept by the request context). */
async function vaultSession(username, password) {
  const req = await pwRequest.newContext({ baseURL: BASE_URL, ignoreHTTPSErrors: true });
  const res = await req.post('/vault/login', { data: { username, password }, headers: { Origin: BASE_URL } });
  if (res.status() !== 200) throw new Error(`vault login ${username}: ${res.status()} ${await res.text()}`);
  const { csrf } = await res.json();
  return {
    mkdir: async (path) => {
      const r = await req.post('/vault/create_folder', { data: { path }, headers: { Origin: BASE_URL, 'X-CSRF-Token': csrf } });
      if (![200, 409].includes(r.status())) throw new Error(`mkdir ${path}: ${r.status()} ${await r.text()}`);
    },
    dispose: () => req.dispose(),
  };
}

before(async () => {
  browser = await launchBrowser();
  const api = await Api.create();
  admin = await api.as(ADMIN_USER, ADMIN_PASSWORD);
  user = await admin.createUser();
  const root = await vaultSession(ADMIN_USER, ADMIN_PASSWORD);
  await root.mkdir('/home');
  await root.dispose();
  const own = await vaultSession(user.username, user.password);
  await own.mkdir(`/home/${user.username}`);
  await own.dispose();
});

after(async () => {
  await admin?.deleteUser(user?.id);
  await browser?.close();
});

test('a signed-in user uploads files and checks one for personal data', async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await page.goto('/vault/login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/vault\/browse/);
    const home = `/home/${user.username}`;
    await page.goto(`/vault/browse?path=${encodeURIComponent(home)}`);
    await waitLoaded(page);
    assert.match(await page.locator('main').innerText(), /This folder is empty/);

    await page.setInputFiles('#vault-upload', [
      { name: 'staff.txt', mimeType: 'text/plain', buffer: Buffer.from(STAFF) },
      { name: 'price.txt', mimeType: 'text/plain', buffer: Buffer.from(CLEAN) },
    ]);
    await page.getByRole('link', { name: 'staff.txt', exact: true }).waitFor();
    await page.getByRole('link', { name: 'price.txt', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Check staff.txt for personal data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Personal data in staff.txt' });
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, /Risk: high/);
    assert.match(text, /snils: 1/);
    assert.match(text, /passport_rf: 1/);
    assert.doesNotMatch(text, /112-233-445 95|123456/, 'values are never shown');
    const close = dialog.getByRole('button', { name: 'Close' });
    assert.equal(await close.evaluate((b) => b === document.activeElement), true, 'focus moves into the dialog');
    await close.click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Check price.txt for personal data' }).click();
    const clean = page.getByRole('dialog', { name: 'Personal data in price.txt' });
    await clean.waitFor();
    assert.match(await clean.innerText(), /No personal data was found/);
    await clean.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(log.errors, []);
  });
});
