// (Issues 10 and 11 §2) The vault's file browser in a real browser: sign in on /vault/login, the
// user's home folder listed with folders first, files uploaded through the page's picker and by
// drag and drop (an infected one refused by the malware check with its signature shown), and a
// file checked for personal data by the analyzer — the dialog names the risk and the categories,
// never a value; a clean file says nothing was found. A file renamed, deleted to the trash and
// restored from it through the page's own dialogs. The listing keeps folders first under every
// sort (name, size, modified, either order), the filter box hides what does not match, and the
// breadcrumbs lead back up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as pwRequest } from 'playwright-core';
import {
  launchBrowser, withPage, waitLoaded, Api, vaultSession, openVaultFolder, ADMIN_USER, ADMIN_PASSWORD, BASE_URL,
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

before(async () => {
  browser = await launchBrowser();
  const api = await Api.create();
  admin = await api.as(ADMIN_USER, ADMIN_PASSWORD);
  user = await admin.createUser();
  const root = await vaultSession(ADMIN_USER, ADMIN_PASSWORD);
  assert.ok([200, 409].includes(await root.mkdir('/home')));
  await root.dispose();
  const own = await vaultSession(user.username, user.password);
  assert.ok([200, 409].includes(await own.mkdir(`/home/${user.username}`)));
  await own.dispose();
});

after(async () => {
  await admin?.deleteUser(user?.id);
  await browser?.close();
});

/** Signs in on /vault/login and opens `folder` (under the user's home; created first unless it is the home). */
async function openFolder(page, folder) {
  if (folder !== `/home/${user.username}`) {
    const session = await vaultSession(user.username, user.password);
    assert.ok([200, 409].includes(await session.mkdir(folder)), `mkdir ${folder}`);
    await session.dispose();
  }
  await openVaultFolder(page, user, folder);
}

test('a signed-in user uploads files and checks one for personal data', async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await openFolder(page, `/home/${user.username}`);
    assert.match(await page.locator('main').innerText(), /This folder is empty/);

    await page.setInputFiles('#vault-upload', [
      { name: 'staff.txt', mimeType: 'text/plain', buffer: Buffer.from(STAFF) },
      { name: 'price.txt', mimeType: 'text/plain', buffer: Buffer.from(CLEAN) },
    ]);
    await page.getByRole('link', { name: 'staff.txt', exact: true }).waitFor();
    await page.getByRole('link', { name: 'price.txt', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Actions for staff.txt' }).click();
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

    await page.getByRole('button', { name: 'Actions for price.txt' }).click();
    await page.getByRole('button', { name: 'Check price.txt for personal data' }).click();
    const clean = page.getByRole('dialog', { name: 'Personal data in price.txt' });
    await clean.waitFor();
    assert.match(await clean.innerText(), /No personal data was found/);
    await clean.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(log.errors, []);
  });
});

/** Drops `files` ({name, text}) on the page's main area as a browser's drag and drop does. */
async function drop(page, files) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent('main', 'dragover', { dataTransfer: transfer });
  assert.equal(await page.locator('main.vault-drop').count(), 1, 'the page shows where to drop');
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
}

const EICAR = String.raw`X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*`;

test('files dropped on the page are uploaded; an infected one is refused with its signature', async (t) => {
  await withPage(t, browser, async (page) => {
    await openFolder(page, `/home/${user.username}/dropped`);
    await drop(page, [{ name: 'notes.txt', text: 'dropped notes\n' }, { name: 'minutes.txt', text: 'meeting at ten\n' }]);
    await page.getByRole('link', { name: 'notes.txt', exact: true }).waitFor();
    await page.getByRole('link', { name: 'minutes.txt', exact: true }).waitFor();
    assert.equal(await page.locator('main.vault-drop').count(), 0, 'the drop zone is gone after the drop');
    const res = await page.request.get(`/vault/download?path=${encodeURIComponent(`/home/${user.username}/dropped/notes.txt`)}`);
    assert.equal(await res.text(), 'dropped notes\n');

    // The malware check (vault.clamav, on in test stacks with EICAR among its signatures).
    await drop(page, [{ name: 'eicar.com', text: EICAR }]);
    // The toast (the upload's progress line is a status region too, and names the file).
    const toast = page.locator('#toast[role="status"]').filter({ hasText: 'was refused' });
    await toast.waitFor();
    assert.match(await toast.innerText(), /'eicar\.com' was refused: the malware check found Eicar-Test-Signature/);
    assert.equal(await page.getByRole('link', { name: 'eicar.com', exact: true }).count(), 0, 'nothing was stored');
  });
});

test('a file is renamed, deleted to the trash and restored from it', async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await openFolder(page, `/home/${user.username}/drafts`);
    await page.setInputFiles('#vault-upload', [
      { name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('first draft\n') },
    ]);
    await page.getByRole('link', { name: 'draft.txt', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Actions for draft.txt' }).click();
    await page.getByRole('button', { name: 'Rename draft.txt', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'New name (or path):' });
    await ask.waitFor();
    await ask.getByRole('textbox').fill('final.txt');
    await ask.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByRole('link', { name: 'final.txt', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'draft.txt', exact: true }).count(), 0, 'the old name is gone');

    await page.getByRole('button', { name: 'Actions for final.txt' }).click();
    await page.getByRole('button', { name: 'Delete final.txt', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete final.txt?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('This folder is empty').waitFor();

    await page.getByRole('button', { name: 'Trash', exact: true }).click();
    const trash = page.locator('.vault-trash-section');
    await trash.getByText(/drafts\/final\.txt/).waitFor();
    await trash.getByRole('button', { name: 'Restore', exact: true }).first().click();
    await page.getByRole('link', { name: 'final.txt', exact: true }).waitFor();
    const download = await page.request.get(
      `/vault/download?path=${encodeURIComponent(`/home/${user.username}/drafts/final.txt`)}`);
    assert.equal(download.status(), 200);
    assert.equal(await download.text(), 'first draft\n', 'the restored file has its content');
    assert.deepEqual(log.errors, []);
  });
});

/** Writes text files as `user` through /vault/save_file (the session's own cookie and CSRF token). */
async function saveFiles(files) {
  const req = await pwRequest.newContext({ baseURL: BASE_URL, ignoreHTTPSErrors: true });
  try {
    const login = await req.post('/vault/login', { data: { username: user.username, password: user.password }, headers: { Origin: BASE_URL } });
    assert.equal(login.status(), 200);
    const { csrf } = await login.json();
    for (const [i, { path, content }] of files.entries()) {
      // Modified times are whole seconds: each file a second younger than the one before.
      if (i) await new Promise((resolve) => { setTimeout(resolve, 1100); });
      const r = await req.post('/vault/save_file', { data: { path, content }, headers: { Origin: BASE_URL, 'X-CSRF-Token': csrf }, failOnStatusCode: false });
      assert.equal(r.status(), 200, `save ${path}`);
    }
  } finally {
    await req.dispose();
  }
}

test('folders come first under every sort, the filter hides what does not match, breadcrumbs lead up', async (t) => {
  const home = `/home/${user.username}`;
  const folder = `${home}/sorting`;
  const session = await vaultSession(user.username, user.password);
  for (const dir of [folder, `${folder}/zeta-dir`, `${folder}/Alpha-dir`]) {
    assert.ok([200, 409].includes(await session.mkdir(dir)), `mkdir ${dir}`);
  }
  await session.dispose();
  // Three orders that differ: by name a, b, c; by size c, b, a; by modified c, a, b.
  await saveFiles([
    { path: `${folder}/c-small.txt`, content: 'c'.repeat(10) },
    { path: `${folder}/a-large.txt`, content: 'a'.repeat(3000) },
    { path: `${folder}/b-medium.txt`, content: 'b'.repeat(500) },
  ]);

  await withPage(t, browser, async (page, { log }) => {
    await openVaultFolder(page, user, folder);
    const names = () => page.locator('table.vault-table tbody td.vault-name').allInnerTexts();
    const sortBy = page.getByRole('combobox', { name: 'Sort by' });
    const reverse = page.getByRole('button', { name: 'Reverse the order' });

    assert.deepEqual(await names(), ['Alpha-dir', 'zeta-dir', 'a-large.txt', 'b-medium.txt', 'c-small.txt'],
      'by name, folders first');
    await sortBy.selectOption('size');
    let list = await names();
    assert.deepEqual(list.slice(0, 2).sort(), ['Alpha-dir', 'zeta-dir'], 'folders first by size');
    assert.deepEqual(list.slice(2), ['c-small.txt', 'b-medium.txt', 'a-large.txt'], 'smallest first');
    await sortBy.selectOption('modified');
    list = await names();
    assert.deepEqual(list.slice(0, 2).sort(), ['Alpha-dir', 'zeta-dir'], 'folders first by date');
    assert.deepEqual(list.slice(2), ['c-small.txt', 'a-large.txt', 'b-medium.txt'], 'oldest first');
    await reverse.click();
    list = await names();
    assert.deepEqual(list.slice(0, 2).sort(), ['Alpha-dir', 'zeta-dir'], 'folders first, newest first');
    assert.deepEqual(list.slice(2), ['b-medium.txt', 'a-large.txt', 'c-small.txt'], 'newest first');
    await sortBy.selectOption('name');
    assert.deepEqual(await names(), ['zeta-dir', 'Alpha-dir', 'c-small.txt', 'b-medium.txt', 'a-large.txt'],
      'by name, reversed: folders still first');

    const filter = page.getByRole('searchbox', { name: 'Filter by name' });
    await filter.fill('LARGE');
    assert.deepEqual(await names(), ['a-large.txt'], 'the filter ignores case');
    await filter.fill('-dir');
    assert.deepEqual(await names(), ['zeta-dir', 'Alpha-dir']);
    await filter.fill('no-such-name');
    assert.deepEqual(await names(), []);
    assert.match(await page.locator('table.vault-table tbody').innerText(), /No name matches the filter/);
    await filter.fill('');
    assert.equal((await names()).length, 5);

    // Into a subfolder, then up through the breadcrumbs: the folder, then the home above it.
    await page.getByRole('link', { name: 'zeta-dir', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === `${folder}/zeta-dir`);
    await waitLoaded(page);
    const crumbs = page.getByRole('navigation', { name: 'Location' });
    assert.equal((await crumbs.innerText()).replace(/\s+/g, ' ').trim(),
      `Files / home / ${user.username} / sorting / zeta-dir`);
    await crumbs.getByRole('link', { name: 'sorting', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === folder);
    await waitLoaded(page);
    assert.equal((await names()).length, 5, 'the parent folder is listed');
    await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: user.username, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === home);
    await waitLoaded(page);
    assert.ok((await names()).includes('sorting'), 'the home folder is listed');
    assert.deepEqual(log.errors, []);
  });
});
