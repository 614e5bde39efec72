// 152-FZ (compliance item PD-01, which Dozor's own audit applies to itself): every page with a form
// links the personal-data policy, and /privacy serves it — whole in the markup for crawlers and
// readers without scripts, in the visitor's language first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, withPage, waitLoaded, TEST_TIMEOUT } from './lib.mjs';
import { textCollisions } from './probes.mjs';

let browser;

before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('the login page links the policy, in the page language', { timeout: TEST_TIMEOUT }, async (t) => {
  for (const [lang, text] of [['ru', 'Политика обработки персональных данных'], ['en', 'Personal data policy']]) {
    await withPage(t, browser, async (page) => {
      await page.goto('/login');
      await waitLoaded(page);
      const link = page.getByRole('link', { name: text, exact: true });
      assert.equal(await link.getAttribute('href'), '/privacy');
      await link.click();
      await page.waitForURL('**/privacy');
      const first = page.locator('main article').first();
      assert.equal(await first.getAttribute('lang'), lang, 'the visitor\'s language comes first');
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
      assert.equal(await page.locator('main article').count(), 2, 'both languages are on the page');
      assert.match(await page.locator('#policy-ru').textContent(), /152-ФЗ/);
      assert.match(await page.locator('#policy-en').textContent(), /152-FZ/);
      assert.deepEqual(await page.evaluate(textCollisions), []);
    }, { lang, contextOptions: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } });
  }
});

test('the vault login page links the policy too', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/vault/login');
    await waitLoaded(page);
    assert.equal(await page.locator('footer a[href="/privacy"]').count(), 1);
  }, { lang: 'en' });
});
