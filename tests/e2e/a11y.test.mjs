// Issue 12 §6: keyboard focus stays on "Check now"; every button has its own accessible name; the
// login lockout is announced once, not every second; the kiosk's Pause label toggles (Russian
// too); the Security "Attention" badge and the other badges reach 4.5:1 contrast in both colour
// schemes; the Russian pages at phone width (360×740) have no overlapping or escaping text and the
// sticky top bar stays under 100 px. The admin page's vault rule rows name their rule and open
// their form by keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, loginViaForm,
  ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { buttonNames, contrastOf, LIVE_RECORDER, textCollisions } from './probes.mjs';

let browser;
let admin;
let target;
let owner;
let ownerApi;
const services = [];

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  owner = await admin.createUser();
  ownerApi = await admin.as(owner.username, owner.password);
  for (const host of ['alpha.example', 'beta.example']) {
    services.push(await ownerApi.mustOk('POST', '/api/v1/services', {
      name: `${host}-${uniqueName('a11y')}`, url: `${target.url}${host}`, check_interval: 60,
    }));
  }
  await ownerApi.mustOk('POST', `/api/v1/services/${services[0].id}/check`);
});

after(async () => {
  if (owner) await admin.deleteUser(owner.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

function duplicates(names) {
  const seen = new Map();
  for (const n of names) seen.set(n, (seen.get(n) || 0) + 1);
  return [...seen].filter(([, count]) => count > 1).map(([n]) => n);
}

for (const [lang, checkName] of [['en', (n) => `Check ${n} now`], ['ru', (n) => `Проверить ${n} сейчас`]]) {
  test(`buttons have distinct accessible names (${lang})`, { timeout: TEST_TIMEOUT }, async (t) => {
    await withPage(t, browser, async (page) => {
      await page.goto('/dashboard');
      await waitLoaded(page);
      for (const s of services) {
        assert.equal(await page.getByRole('button', { name: checkName(s.name), exact: true }).count(), 1, checkName(s.name));
      }
      assert.deepEqual(duplicates(await page.evaluate(buttonNames, '#services-body')), [], 'dashboard rows');
      await page.goto('/security');
      await waitLoaded(page);
      assert.deepEqual(duplicates(await page.evaluate(buttonNames, '#sec-services-body')), [], 'security rows');
    }, { token: ownerApi.token, lang });
  });
}

test('admin rows: Edit, Services and Delete name their user', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/admin');
    await waitLoaded(page);
    assert.equal(await page.getByRole('button', { name: `Edit ${owner.username}`, exact: true }).count(), 1);
    assert.deepEqual(duplicates(await page.evaluate(buttonNames, '#users-body')), []);
  }, { token: admin.token });
});

test('vault rule rows name their rule; Change by keyboard fills the form and focuses it', { timeout: TEST_TIMEOUT }, async (t) => {
  // Two rules of one user (they stay until the user is deleted: the phone-width check below sees them too).
  for (const path of ['/A11y/Reports', '/A11y/Archive']) {
    await admin.mustOk('POST', '/api/admin/vault/rules', { user_id: owner.id, path, read: true, write: path.endsWith('Reports') });
  }
  await withPage(t, browser, async (page) => {
    await page.goto('/admin');
    await waitLoaded(page);
    assert.deepEqual(duplicates(await page.evaluate(buttonNames, '#rules-body')), []);
    assert.equal(await page.getByRole('button', { name: `Revoke the rule of ${owner.username} on /A11y/Archive`, exact: true }).count(), 1);
    const change = page.getByRole('button', { name: `Change the rule of ${owner.username} on /A11y/Reports`, exact: true });
    await change.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'grant-user', 'focus moves to the form');
    assert.equal(await page.locator('#grant-path').inputValue(), '/A11y/Reports');
    assert.equal(await page.locator('#grant-write').isChecked(), true);
    assert.equal(await page.locator('#grant-delete').isChecked(), false);
    // The rights are a labelled group with its hint.
    const group = page.getByRole('group', { name: 'Rights' });
    assert.equal(await group.count(), 1);
    assert.match(await group.getAttribute('aria-describedby'), /grant-rights-hint/);
  }, { token: admin.token });
});

test('focus stays on "Check now" while and after the check runs', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/dashboard');
    await waitLoaded(page);
    const s = services[1];
    const button = page.locator(`#services-body tr[data-service-id="${s.id}"] [data-action="check"]`);
    await button.focus();
    await page.keyboard.press('Enter');
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return { action: a?.dataset.action || a?.tagName, row: a?.closest('tr')?.dataset.serviceId || null };
    });
    assert.deepEqual(await focused(), { action: 'check', row: String(s.id) }, 'while checking');
    await page.locator(`#services-body tr[data-service-id="${s.id}"] [data-testid="check-result"]`).waitFor();
    assert.deepEqual(await focused(), { action: 'check', row: String(s.id) }, 'after the result is drawn');
    // Enter again on the same control works: focus was never lost.
    const hits = target.hits.length;
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.activeElement?.getAttribute('aria-busy'));
    await page.waitForTimeout(200);
    assert.ok(target.hits.length > hits, 'the second Enter started another check');
    assert.deepEqual(await focused(), { action: 'check', row: String(s.id) });
  }, { token: ownerApi.token });
});

test('the login lockout is announced once, while the visible countdown ticks', { timeout: TEST_TIMEOUT }, async (t) => {
  const victim = await admin.createUser();
  try {
    let retryAfter = 0;
    for (let i = 0; i < 20 && !retryAfter; i += 1) {
      const r = await admin.call('POST', '/api/auth/login', { username: victim.username, password: 'wrong-password' });
      if (r.status === 429) retryAfter = Number(r.headers['retry-after']);
    }
    assert.ok(retryAfter >= 5, `locked for ${retryAfter} s`);
    await withPage(t, browser, async (page, { context }) => {
      await context.addInitScript(LIVE_RECORDER);
      await loginViaForm(page, victim.username, victim.password);
      const alert = page.locator('#login-form .form-alert');
      await alert.waitFor({ state: 'visible' });
      const first = await alert.textContent();
      await page.waitForTimeout(3500);
      const later = await alert.textContent();
      assert.notEqual(later, first, 'the visible countdown moves');
      assert.match(later, /Try again in \d+ s/);
      const said = await page.evaluate(() => window.__dozorLive);
      const lock = said.filter((x) => /Too many failed attempts/.test(x.text));
      assert.equal(lock.length, 1, `announced once, got: ${JSON.stringify(said)}`);
      assert.match(lock[0].text, /Try again in \d+ s/);
    });
  } finally {
    await admin.deleteUser(victim.id);
  }
});

test('the kiosk Pause button says what it does next (Russian)', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/kiosk');
    await waitLoaded(page);
    const pause = page.locator('#kiosk-pause');
    assert.equal((await pause.textContent()).trim(), 'Пауза');
    assert.equal(await pause.getAttribute('aria-pressed'), 'false');
    await pause.click();
    await page.waitForFunction(() => document.getElementById('kiosk-pause').textContent.trim() === 'Продолжить');
    assert.equal(await pause.getAttribute('aria-pressed'), 'true');
    await pause.click();
    await page.waitForFunction(() => document.getElementById('kiosk-pause').textContent.trim() === 'Пауза');
    assert.equal(await pause.getAttribute('aria-pressed'), 'false');
  }, { token: ownerApi.token, lang: 'ru' });
});

for (const scheme of ['light', 'dark']) {
  test(`badges reach 4.5:1 contrast, "Attention" included (${scheme})`, { timeout: TEST_TIMEOUT }, async (t) => {
    await withPage(t, browser, async (page) => {
      for (const lang of ['en', 'ru']) {
        await page.goto('/security?target=http://example.com');
        await waitLoaded(page);
        await page.evaluate((l) => localStorage.setItem('dozor.lang', l), lang);
        await page.reload();
        await waitLoaded(page);
        const warn = page.locator('.finding-level-warn').first();
        assert.equal((await warn.textContent()).trim(), lang === 'en' ? 'Attention' : 'Внимание');
        const selectors = ['.finding-level-warn', '.finding-level-info', '.badge-up', '.badge-unknown'];
        for (const sel of selectors) {
          if (!(await page.locator(sel).count())) continue;
          const c = await page.evaluate(contrastOf, sel);
          assert.ok(c.ratio >= 4.5, `${sel} (${lang}, ${scheme}): ${c.ratio.toFixed(2)}:1 (${c.color} on ${c.background})`);
        }
      }
    }, { token: ownerApi.token, contextOptions: { colorScheme: scheme } });
  });
}

test('Russian pages at 360×740: no overlapping text, sticky bar under 100 px', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    for (const path of ['/dashboard', '/security?target=http://example.com', '/notifications', '/admin', '/kiosk']) {
      await page.goto(path);
      await waitLoaded(page);
      const problems = await page.evaluate(textCollisions);
      assert.deepEqual(problems, [], `${path}: text collisions`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${path}: ${overflow}px of horizontal overflow`);
      const bar = await page.evaluate(() => {
        const el = document.querySelector('.topbar');
        return el ? { height: el.getBoundingClientRect().height, position: getComputedStyle(el).position } : null;
      });
      if (bar && bar.position === 'sticky') assert.ok(bar.height < 100, `${path}: sticky bar ${bar.height}px high`);
    }
    // Scrolled: the bar sticks and is still small.
    await page.goto('/dashboard');
    await waitLoaded(page);
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(200);
    const top = await page.evaluate(() => document.querySelector('.topbar').getBoundingClientRect());
    assert.ok(top.top >= -1 && top.top <= 1 && top.height < 100, `sticky bar at ${top.top}, ${top.height}px`);
  }, {
    token: admin.token,
    lang: 'ru',
    contextOptions: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  });
});

test('Russian login page at 360×740 has no overlapping text', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage(t, browser, async (page) => {
    await page.goto('/login');
    await waitLoaded(page);
    assert.deepEqual(await page.evaluate(textCollisions), []);
  }, { lang: 'ru', contextOptions: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } });
});
