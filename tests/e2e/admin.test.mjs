// (2) The admin creates a user in the admin panel and logs out; the new user signs in, sees an empty
// dashboard without the Admin link, and is refused on /admin.
// (6) The admin edits a user (validation error, deactivate + new password, reactivate) and deletes it.
// (Issue 10) Vault access: the admin grants, changes, denies and revokes a rule in the panel and the
// user's vault access follows each step; form errors (no user, bad path, a user gone meanwhile) in
// English and Russian; the audit log names who did what, where, with what outcome and from where,
// newest first, and pages to older entries.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, uniqueName, loginViaForm, waitLoaded, vaultSession, openVaultFolder, ADMIN_USER, ADMIN_PASSWORD,
  TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let api;

before(async () => {
  browser = await launchBrowser();
  api = await Api.create();
  api.token = await api.login(ADMIN_USER, ADMIN_PASSWORD);
});

after(async () => {
  await browser?.close();
  await api?.dispose();
});

async function findUser(username) {
  const users = await api.mustOk('GET', '/api/admin/users');
  return users.find((u) => u.username === username) || null;
}

test('admin creates a user who signs in to an empty dashboard without admin rights', { timeout: TEST_TIMEOUT }, async (t) => {
  const username = uniqueName('user');
  const password = `Secret-${Date.now()}`;
  try {
    await withPage(t, browser, async (page) => {
      await loginViaForm(page, ADMIN_USER, ADMIN_PASSWORD, { next: '/admin' });
      await page.waitForURL('**/admin');
      await waitLoaded(page);
      await page.getByRole('heading', { name: 'Administration', exact: true }).waitFor();

      const form = page.locator('#create-user');
      await form.getByLabel('Username').fill(username);
      await form.getByLabel('E-mail').fill(`${username}@example.test`);
      await form.getByLabel('Password').fill(password);
      assert.equal(await form.getByLabel('Administrator').isChecked(), false);
      await form.getByRole('button', { name: 'Create user' }).click();

      const row = page.locator(`#users-body tr[data-username="${username}"]`);
      await row.waitFor();
      assert.match(await row.textContent(), /User/);
      assert.match(await row.textContent(), /Active/);
      assert.equal(await form.getByLabel('Username').inputValue(), '', 'form is reset after creation');

      // The same username again: the 409 is shown on the form.
      await form.getByLabel('Username').fill(username);
      await form.getByLabel('E-mail').fill(`${username}.2@example.test`);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Create user' }).click();
      const alert = form.locator('.form-alert');
      await alert.waitFor({ state: 'visible' });
      assert.notEqual((await alert.textContent()).trim(), '');
      assert.equal(await page.locator(`#users-body tr[data-username="${username}"]`).count(), 1);

      // Log out, sign in as the new user.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL('**/login');
      assert.equal(await page.evaluate(() => localStorage.getItem('dozor.token')), null, 'logout drops the token');

      await loginViaForm(page, username, password);
      await page.waitForURL('**/dashboard');
      await waitLoaded(page);
      await page.locator('#current-user').filter({ hasText: username }).waitFor();
      await page.locator('#services-empty').waitFor({ state: 'visible' });
      assert.equal(await page.locator('#services-body tr').count(), 0);
      assert.equal(await page.locator('#stat-total').textContent(), '0');
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      for (const link of ['Dashboard', 'Security', 'Kiosk']) {
        assert.equal(await nav.getByRole('link', { name: link, exact: true }).count(), 1, `${link} link present`);
      }
      assert.equal(await nav.getByRole('link', { name: 'Admin', exact: true }).count(), 0, 'no Admin link');

      // /admin refuses a non-admin and shows no user data.
      await page.goto('/admin');
      await waitLoaded(page);
      const denied = page.getByRole('alert').filter({ hasText: 'Admin privileges required' });
      await denied.waitFor({ state: 'visible' });
      assert.equal(await page.locator('#admin-content').isVisible(), false);
      assert.equal(await page.locator('#users-body tr').count(), 0);
    });
  } finally {
    const u = await findUser(username);
    if (u) await api.deleteUser(u.id);
  }
});

test('admin edits a user (validation, deactivate, new password, reactivate) and deletes it', { timeout: TEST_TIMEOUT }, async (t) => {
  const user = await api.createUser();
  const newPassword = `Changed-${Date.now()}`;
  try {
    await withPage(t, browser, async (page) => {
      await page.goto('/admin');
      await waitLoaded(page);
      const row = page.locator(`#users-body tr[data-username="${user.username}"]`);
      await row.waitFor();

      // Too short a password: the 422 is shown next to the field inside the dialog.
      await row.getByRole('button', { name: 'Edit' }).click();
      let dialog = page.getByRole('dialog', { name: `Edit user ${user.username}` });
      await dialog.waitFor();
      await dialog.getByLabel('New password').fill('short');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const pwError = dialog.locator('.field-error[data-for="password"]');
      await pwError.waitFor({ state: 'visible' });
      assert.notEqual((await pwError.textContent()).trim(), '');

      // Deactivate and set a new password.
      await dialog.getByLabel('Active (may sign in)').uncheck();
      await dialog.getByLabel('New password').fill(newPassword);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.locator('.tag', { hasText: 'Disabled' }).waitFor();
      const off = await api.call('POST', '/api/auth/login', { username: user.username, password: newPassword });
      assert.equal(off.status, 401, 'a deactivated user cannot sign in');

      // Reactivate: the new password works, the old one does not.
      await row.getByRole('button', { name: 'Edit' }).click();
      dialog = page.getByRole('dialog', { name: `Edit user ${user.username}` });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Active (may sign in)').isChecked(), false);
      await dialog.getByLabel('Active (may sign in)').check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.locator('.tag', { hasText: 'Active' }).waitFor();
      const on = await api.call('POST', '/api/auth/login', { username: user.username, password: newPassword });
      assert.equal(on.status, 200, 'the reactivated user signs in with the new password');

      // Delete with confirmation.
      await row.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete user?' });
      await confirm.waitFor();
      assert.match(await confirm.textContent(), new RegExp(user.username));
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await row.waitFor({ state: 'detached' });
      assert.equal(await findUser(user.username), null, 'the user is gone on the server');
    }, { token: api.token });
  } finally {
    const u = await findUser(user.username);
    if (u) await api.deleteUser(u.id);
  }
});

/* ---- vault access rules and audit log ------------------------------------------------------- */

async function rulesOf(userId) {
  const rules = await api.mustOk('GET', '/api/admin/vault/rules');
  return rules.filter((r) => r.user_id === userId)
    .map(({ path, read, write, delete: del }) => ({ path, read, write, del }));
}

function ruleRow(page, username, path) {
  return page.locator(`#rules-body tr[data-username="${username}"][data-path="${path}"]`);
}

async function saveRule(form, { username, path, rights }) {
  if (username) await form.getByLabel('User', { exact: true }).selectOption({ label: username });
  if (path !== undefined) await form.getByLabel('Path in the vault').fill(path);
  for (const right of ['Read', 'Write', 'Delete']) {
    await form.getByLabel(right, { exact: true }).setChecked(rights.includes(right));
  }
  await form.getByRole('button', { name: 'Save rule' }).click();
}

test('admin grants, changes, denies and revokes a vault rule; the user\'s access follows', { timeout: TEST_TIMEOUT }, async (t) => {
  const user = await api.createUser();
  const shared = `/${uniqueName('shared')}`;
  const root = await vaultSession(ADMIN_USER, ADMIN_PASSWORD);
  const own = await vaultSession(user.username, user.password);
  try {
    assert.equal(await root.mkdir(shared), 200);
    assert.equal(await root.mkdir(`${shared}/reports`), 200);
    assert.equal((await own.browse(shared)).status, 404, 'without a rule the folder is invisible');

    await withPage(t, browser, async (page, { log }) => {
      await page.goto('/admin');
      await waitLoaded(page);
      await page.getByRole('heading', { name: 'Vault access', exact: true }).waitFor();
      const form = page.locator('#grant-rule');

      // Grant read.
      await saveRule(form, { username: user.username, path: shared, rights: ['Read'] });
      const row = ruleRow(page, user.username, shared);
      await row.waitFor();
      assert.deepEqual(await row.locator('.tag').allTextContents(), ['Read']);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'change', 'focus goes to the saved rule');
      assert.equal(await form.getByLabel('Path in the vault').inputValue(), '', 'the form is cleared');
      assert.deepEqual(await rulesOf(user.id), [{ path: shared, read: true, write: false, del: false }]);
      const seen = await own.browse(shared);
      assert.equal(seen.status, 200, 'read granted: the user browses the folder');
      assert.deepEqual(seen.json.entries.map((e) => e.name), ['reports']);
      assert.equal(await own.mkdir(`${shared}/mine`), 403, 'read only: no write');

      // Change through the row's button: the form is filled with the rule; add write and delete.
      const change = row.getByRole('button', { name: `Change the rule of ${user.username} on ${shared}`, exact: true });
      await change.click();
      assert.equal(await form.getByLabel('User', { exact: true }).inputValue(), String(user.id));
      assert.equal(await form.getByLabel('Path in the vault').inputValue(), shared);
      assert.equal(await form.getByLabel('Read', { exact: true }).isChecked(), true);
      assert.equal(await form.getByLabel('Write', { exact: true }).isChecked(), false);
      await saveRule(form, { rights: ['Read', 'Write', 'Delete'] });
      await row.locator('.tag', { hasText: 'Write' }).waitFor();
      assert.deepEqual(await row.locator('.tag').allTextContents(), ['Read', 'Write', 'Delete']);
      assert.equal(await page.locator(`#rules-body tr[data-username="${user.username}"]`).count(), 1, 'changed in place');
      assert.deepEqual(await rulesOf(user.id), [{ path: shared, read: true, write: true, del: true }]);
      assert.equal(await own.mkdir(`${shared}/mine`), 200, 'write granted: the user creates a folder');

      // No rights at all: a deny rule; the folder is invisible again.
      await change.click();
      await saveRule(form, { rights: [] });
      await row.locator('.tag', { hasText: 'No access (deny)' }).waitFor();
      assert.deepEqual(await rulesOf(user.id), [{ path: shared, read: false, write: false, del: false }]);
      assert.equal((await own.browse(shared)).status, 404, 'denied: invisible');

      // Revoke asks first; Cancel keeps the rule, Revoke removes it.
      const revoke = row.getByRole('button', { name: `Revoke the rule of ${user.username} on ${shared}`, exact: true });
      await revoke.click();
      let confirm = page.getByRole('dialog', { name: 'Revoke this rule?' });
      await confirm.waitFor();
      assert.match(await confirm.textContent(), new RegExp(`${user.username}.*${shared}`));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      assert.equal((await rulesOf(user.id)).length, 1, 'Cancel keeps the rule');
      await revoke.click();
      confirm = page.getByRole('dialog', { name: 'Revoke this rule?' });
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      assert.deepEqual(await rulesOf(user.id), []);
      assert.equal((await own.browse(shared)).status, 404, 'revoked: invisible');

      // The page's audit log (reloaded after each change) has the revoke: who, action, path, outcome, from where.
      const entry = page.locator('#audit-body tr[data-action="revoke"]').filter({ hasText: shared }).first();
      await entry.waitFor();
      const [when, who, action, where, outcome, from] = await entry.locator('td').allInnerTexts();
      assert.notEqual(when.trim(), '');
      assert.equal(await entry.locator('time').getAttribute('datetime') !== null, true);
      assert.equal(who.trim(), ADMIN_USER);
      assert.equal(action.trim(), 'Rule revoked');
      assert.match(where, new RegExp(`${shared}[\\s\\S]*user ${user.id}`));
      assert.equal(outcome.trim(), 'Done');
      assert.match(from.trim(), /^(127\.0\.0\.1|::1)$/);
      assert.equal(await page.locator('#audit-body tr[data-action="grant"]').filter({ hasText: shared }).count(), 3,
        'three grants (read, all, deny)');
      assert.deepEqual(log.errors, []);
    }, { token: api.token });
  } finally {
    await own.dispose();
    await root.remove(shared);
    await root.dispose();
    await api.deleteUser(user.id);
  }
});

test('a user granted read browses the folder on the vault page', { timeout: TEST_TIMEOUT }, async (t) => {
  const user = await api.createUser();
  const shared = `/${uniqueName('shared')}`;
  const root = await vaultSession(ADMIN_USER, ADMIN_PASSWORD);
  try {
    assert.equal(await root.mkdir(shared), 200);
    assert.equal(await root.mkdir(`${shared}/reports`), 200);
    await withPage(t, browser, async (page) => {
      await page.goto('/admin');
      await waitLoaded(page);
      await saveRule(page.locator('#grant-rule'), { username: user.username, path: shared, rights: ['Read'] });
      await ruleRow(page, user.username, shared).waitFor();
    }, { token: api.token });
    await withPage(t, browser, async (page) => {
      await openVaultFolder(page, user, shared);
      await page.getByRole('link', { name: 'reports', exact: true }).waitFor();
    });
  } finally {
    await root.remove(shared);
    await root.dispose();
    await api.deleteUser(user.id);
  }
});

test('the grant form: no user caught on the page, the API\'s reasons shown (English and Russian)', { timeout: TEST_TIMEOUT }, async (t) => {
  const user = await api.createUser();
  const gone = await api.createUser();
  try {
    await withPage(t, browser, async (page) => {
      await page.goto('/admin');
      await waitLoaded(page);
      const form = page.locator('#grant-rule');
      const userField = form.getByLabel('User', { exact: true });
      const pathField = form.getByLabel('Path in the vault');

      // No user chosen: said next to the picker, which gets the focus; nothing is sent.
      await saveRule(form, { path: '/Shared', rights: ['Read'] });
      const userError = form.locator('.field-error[data-for="user_id"]');
      await userError.waitFor({ state: 'visible' });
      assert.equal(await userError.textContent(), 'Choose a user.');
      assert.equal(await userField.getAttribute('aria-invalid'), 'true');
      assert.equal(await userField.evaluate((e) => e === document.activeElement), true);

      // A path the vault refuses: the 422's reason next to the path, which is described by it.
      await saveRule(form, { username: user.username, path: '/Shared/../etc', rights: ['Read'] });
      const pathError = form.locator('.field-error[data-for="path"]');
      await pathError.waitFor({ state: 'visible' });
      assert.match(await pathError.textContent(), /'\.' and '\.\.' are not allowed in a path/);
      assert.equal(await userError.isVisible(), false, 'the earlier error is gone');
      assert.equal(await pathField.getAttribute('aria-invalid'), 'true');
      assert.equal(await pathField.evaluate((e) => e === document.activeElement), true);
      const describedBy = (await pathField.getAttribute('aria-describedby')).split(' ');
      assert.ok(describedBy.includes(await pathError.getAttribute('id')), 'the error describes the field');
      assert.deepEqual(await rulesOf(user.id), [], 'nothing was granted');
    }, { token: api.token });

    await withPage(t, browser, async (page) => {
      await page.goto('/admin');
      await waitLoaded(page);
      const form = page.locator('#grant-rule');
      await form.getByLabel('Пользователь', { exact: true }).selectOption({ label: user.username });
      await form.getByLabel('Путь в хранилище').fill('/a//b');
      await form.getByRole('button', { name: 'Сохранить правило' }).click();
      const pathError = form.locator('.field-error[data-for="path"]');
      await pathError.waitFor({ state: 'visible' });
      assert.equal(await pathError.textContent(), 'В пути не должно быть пустых имён (двух «/» подряд).');

      // The chosen user is deleted meanwhile: the 404 is said on the form, in Russian.
      await api.deleteUser(gone.id);
      await form.getByLabel('Пользователь', { exact: true }).selectOption({ label: gone.username });
      await form.getByLabel('Путь в хранилище').fill('/Shared');
      await form.getByRole('button', { name: 'Сохранить правило' }).click();
      const alert = form.locator('.form-alert');
      await alert.waitFor({ state: 'visible' });
      assert.equal(await alert.textContent(), 'Такого пользователя нет: возможно, его уже удалили.');
      assert.equal(await form.locator('.field-error[data-for="path"]').isVisible(), false);
    }, { token: api.token, lang: 'ru' });
  } finally {
    await api.deleteUser(user.id);
    await api.deleteUser(gone.id);
  }
});

test('the vault audit log: who, action, path, outcome and address, newest first, older pages, refresh', { timeout: TEST_TIMEOUT }, async (t) => {
  const user = await api.createUser();
  const root = await vaultSession(ADMIN_USER, ADMIN_PASSWORD);
  assert.ok([200, 409].includes(await root.mkdir('/home')));
  await root.dispose();
  const own = await vaultSession(user.username, user.password);
  const home = `/home/${user.username}`;
  try {
    // 31 actions of this user, more than a page (25): f-first, f0…f28, then f0 again (a conflict).
    // (The home itself exists from the account's creation: docs/vault.md "Homes".)
    assert.equal(await own.mkdir(home), 409);
    assert.equal(await own.mkdir(`${home}/f-first`), 200);
    for (let i = 0; i < 29; i += 1) assert.equal(await own.mkdir(`${home}/f${i}`), 200);
    assert.equal(await own.mkdir(`${home}/f0`), 409);

    await withPage(t, browser, async (page, { log }) => {
      await page.goto('/admin');
      await waitLoaded(page);
      const rows = page.locator('#audit-body tr');
      assert.equal(await rows.count(), 25, 'one page');
      assert.equal(await page.locator('#audit-count').textContent(), 'Latest 25 entries shown.');
      const newest = rows.first();
      assert.equal(await newest.getAttribute('data-outcome'), 'conflict');
      const [, who, action, where, outcome, from] = await newest.locator('td').allInnerTexts();
      assert.equal(who.trim(), user.username);
      assert.equal(action.trim(), 'New folder');
      assert.equal(where.trim(), `${home}/f0`);
      assert.equal(outcome.trim(), 'Conflict');
      assert.match(from.trim(), /^(127\.0\.0\.1|::1)$/);

      // Older entries come below, without repeats, still newest first.
      const more = page.getByRole('button', { name: 'Show older entries' });
      await more.click();
      await page.waitForFunction(() => document.querySelectorAll('#audit-body tr').length > 25);
      const entries = await rows.evaluateAll((trs) => trs.map((tr) => ({
        id: Number(tr.dataset.auditId), who: tr.cells[1].textContent, path: tr.cells[3].textContent,
      })));
      for (let i = 1; i < entries.length; i += 1) assert.ok(entries[i].id < entries[i - 1].id, 'ids fall strictly');
      const mine = entries.filter((e) => e.who === user.username).map((e) => e.path);
      const expected = [`${home}/f0`, ...Array.from({ length: 29 }, (_, i) => `${home}/f${28 - i}`), `${home}/f-first`, home];
      assert.deepEqual(mine, expected);
      assert.equal(await page.locator('#audit-count').textContent() !== 'Latest 25 entries shown.', true);

      // A new action appears after "Refresh" on the log.
      assert.equal(await own.mkdir(`${home}/late`), 200);
      await page.getByRole('button', { name: 'Refresh the audit log', exact: true }).click();
      await page.locator('#audit-body tr').first().filter({ hasText: `${home}/late` }).waitFor();
      assert.equal(await rows.count(), 25, 'refresh starts from the newest page again');
      assert.deepEqual(log.errors, []);
    }, { token: api.token });
  } finally {
    await own.dispose();
    await api.deleteUser(user.id);
  }
});
