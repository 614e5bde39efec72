// (3) A wrong password shows an error and stays on the login page; the right one signs in and
// honours ?next= (same-site paths only). Pages without a session lead to the login page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, loginViaForm, waitLoaded, BASE_URL, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let api;
let user;

before(async () => {
  browser = await launchBrowser();
  api = await Api.create();
  api.token = await api.login(ADMIN_USER, ADMIN_PASSWORD);
  // A throwaway account: failed logins count against the account, never against admin.
  user = await api.createUser();
});

after(async () => {
  if (user) await api.deleteUser(user.id);
  await browser?.close();
  await api?.dispose();
});

test('wrong password shows an error and stays on the login page', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await loginViaForm(page, user.username, `${user.password}-wrong`);
    const alert = page.locator('#login-form .form-alert');
    await alert.waitFor({ state: 'visible' });
    assert.match(await alert.textContent(), /Incorrect username or password/);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('dozor.token')), null, 'no token stored');
    assert.equal(await page.getByLabel('Password').inputValue(), '', 'the password field is cleared');
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).isEnabled(), true);

    // Empty fields are caught before any request.
    await page.getByLabel('Username').fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.field-error[data-for="username"]').waitFor({ state: 'visible' });
    assert.equal(new URL(page.url()).pathname, '/login');

    // The right password signs in and goes where ?next= says.
    await loginViaForm(page, user.username, user.password, { next: '/security?target=example.com' });
    await page.waitForURL('**/security?target=*');
    await waitLoaded(page);
    assert.ok(await page.evaluate(() => localStorage.getItem('dozor.token')), 'token stored');
  });
});

test('a throttled account sees how long to wait (429 with Retry-After)', { timeout: TEST_TIMEOUT }, async (t) => {
  const victim = await api.createUser();
  try {
    // Fail until the backend throttles the account (auth.max_failures, 5 by default).
    let throttled = null;
    for (let i = 0; i < 20 && !throttled; i += 1) {
      const r = await api.call('POST', '/api/auth/login', { username: victim.username, password: 'wrong-password' });
      if (r.status === 429) throttled = r;
      else assert.equal(r.status, 401);
    }
    assert.ok(throttled, 'the account is throttled after repeated failures');
    const retryAfter = Number(throttled.headers['retry-after']);
    assert.ok(retryAfter > 0, 'Retry-After is given in seconds');

    await withPage(t, browser, async (page) => {
      await loginViaForm(page, victim.username, victim.password);
      const alert = page.locator('#login-form .form-alert');
      await alert.waitFor({ state: 'visible' });
      assert.match(await alert.textContent(), /Too many failed attempts\. Try again in \d+ s\./);
      assert.equal(await page.getByRole('button', { name: 'Sign in' }).isDisabled(), true, 'submit waits out the lock');
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await page.evaluate(() => localStorage.getItem('dozor.token')), null);
    });
  } finally {
    await api.deleteUser(victim.id);
  }
});

test('signed-out visitors are sent to the login page; ?next= stays on this site', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    // The landing page (spec §4.8: 200 text/html) leads to the login page.
    const landing = await page.goto('/');
    assert.equal(landing.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByRole('heading', { name: 'Welcome to Dozor' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login*');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.goto('/dashboard');
    await page.waitForURL('**/login?next=*');
    assert.equal(new URL(page.url()).searchParams.get('next'), '/dashboard');

    // An off-site ?next= is ignored: the dashboard opens instead.
    await loginViaForm(page, user.username, user.password, { next: '//evil.example/' });
    await page.waitForURL('**/dashboard');
    assert.equal(new URL(page.url()).origin, new URL(BASE_URL).origin);
    await waitLoaded(page);

    // A revoked token (garbage) on a page: back to the login page with a notice.
    await page.evaluate(() => localStorage.setItem('dozor.token', 'not-a-valid-token'));
    await page.goto('/kiosk');
    await page.waitForURL('**/login?*');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('next'), '/kiosk');
    await page.getByText('Your session has ended').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('dozor.token')), null);
  });
});
