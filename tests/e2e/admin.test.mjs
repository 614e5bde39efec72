// (2) The admin creates a user in the admin panel and logs out; the new user signs in, sees an empty
// dashboard without the Admin link, and is refused on /admin.
// (6) The admin edits a user (validation error, deactivate + new password, reactivate) and deletes it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, uniqueName, loginViaForm, waitLoaded, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
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
      await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();

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
