// (Issues 10 and 11 §2) The vault's file browser in a real browser: sign in on /vault/login, the
// user's home folder listed with folders first, files uploaded through the page's picker and by
// drag and drop (an infected one refused by the malware check with its signature shown), and a
// file checked for personal data by the analyzer — the dialog names the risk and the categories,
// never a value; a clean file says nothing was found. A file renamed, deleted to the trash and
// restored from it through the page's own dialogs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, vaultSession, openVaultFolder, ADMIN_USER, ADMIN_PASSWORD,
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
    const toast = page.getByRole('status').filter({ hasText: 'eicar.com' });
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

    await page.getByRole('button', { name: 'Rename draft.txt', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'New name (or path):' });
    await ask.waitFor();
    await ask.getByRole('textbox').fill('final.txt');
    await ask.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByRole('link', { name: 'final.txt', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'draft.txt', exact: true }).count(), 0, 'the old name is gone');

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
