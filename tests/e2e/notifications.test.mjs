// Issue 28 §1: the notification settings page, walked as a new user would — in English and
// Russian, on a laptop (1366×768) and a phone (390×844): open it from the navigation, add a
// Telegram channel (pointed at a fake Bot API on the stack's notify.telegram_api_base) and an
// e-mail channel (a local SMTP sink that checks the login), see a field error next to its field,
// "Send test" says delivered inline; with the servers stopped or hanging it says why in plain
// words within the deadline; a watched site goes down and the alert reaches both; the page shows
// each channel's last delivery (and, on the laptop runs, a failed first attempt as the last
// failure); an edit that does not retype the secret keeps it (the test still reaches the bot, the
// secret never leaves the server); turn off, on again, and delete.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, startFakeTelegram, startSmtpSink, uniqueName, waitLoaded,
  keepScreenshot, VIEWPORTS, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { STRINGS, format } from '../../www/js/strings.js';

const DEADLINE_S = 10; // limits::kNotifyTestSeconds
const SMTP_USER = 'alerts';
const SMTP_PASSWORD = 'smtp-Secret-pw-41';

let browser;
let admin;
let telegram;
let smtp;

before(async () => {
  browser = await launchBrowser();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  telegram = await startFakeTelegram();
  smtp = await startSmtpSink({ logins: { [SMTP_USER]: SMTP_PASSWORD } });
});

after(async () => {
  await browser?.close();
  await admin?.dispose();
  await telegram?.close();
  await smtp?.close();
});

/** keepScreenshot from the top of the page: a scrolled page's full shot draws the sticky bar mid-page. */
async function topShot(page, name, options) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await keepScreenshot(page, name, options);
}

async function until(what, fn, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await fn();
    if (got) return got;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => { setTimeout(r, 250); });
  }
}

/** The field error shown for `input`: visible, inside the input's own field, named by it. */
async function fieldError(page, input) {
  const id = await input.getAttribute('id');
  const slot = page.locator(`#${id}-error`);
  await slot.waitFor({ state: 'visible' });
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.match(await input.getAttribute('aria-describedby'), new RegExp(`\\b${id}-error\\b`));
  const sameField = await slot.evaluate((node, inputId) => node.closest('.field').contains(document.getElementById(inputId)), id);
  assert.ok(sameField, 'the message sits in the field of its input');
  return (await slot.textContent()).trim();
}

for (const lang of ['en', 'ru']) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    const S = (key, params) => format(STRINGS[lang][key], params);
    const locale = lang === 'ru' ? 'ru-RU' : 'en-US';
    const label = `${lang}, ${viewport.width}×${viewport.height}`;
    const shot = (name) => `notifications-${name}-${lang}-${viewport.width}`;
    // A result says when it was true: {time} is any time.
    const pattern = (key, params) => new RegExp(`^${S(key, params).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{time\\}', '.+')}$`);
    const failFirstAlert = size === 'laptop'; // the last-failure line, without slowing every run

    test(`a new user sets up Telegram and e-mail alerts and gets one (${label})`, { timeout: TEST_TIMEOUT * 4 }, async (t) => {
      const target = await startTarget();
      const user = await admin.createUser();
      const api = await admin.as(user.username, user.password);
      const token = `${100000 + Math.floor(Math.random() * 900000)}:AA${uniqueName('tok').replace(/[^A-Za-z0-9]/g, '')}`;
      const chat = String(Math.floor(Math.random() * 1e9));
      const recipient = `oncall-${lang}-${size}@example.org`;
      const serviceName = uniqueName(`alert-${lang}-${size}`);
      telegram.addToken(token);
      try {
        // The site is watched from the start: it is up by the time the channels are ready.
        await api.mustOk('POST', '/api/v1/services', { name: serviceName, url: `${target.url}site`, check_interval: 10 });

        await withPage(t, browser, async (page) => {
          // Nothing sent from the page carries a stored secret back (it never has it).
          const bodies = [];
          page.on('request', (req) => {
            if (req.url().includes('/api/v1/channels')) bodies.push({ method: req.method(), body: req.postData() || '' });
          });

          // From the navigation.
          await page.goto('/dashboard');
          await waitLoaded(page);
          await page.locator('#topbar nav').getByRole('link', { name: S('nav.notifications') }).click();
          await page.waitForURL(/\/notifications$/);
          await waitLoaded(page);
          assert.equal(await page.locator('h1').textContent(), S('ntf.heading'));
          assert.equal(await page.locator('[data-nav="notifications"]').getAttribute('aria-current'), 'page');
          await page.locator('#channels-empty').waitFor({ state: 'visible' });
          await topShot(page, shot('empty'));

          const form = page.locator('#add-channel');
          const list = page.locator('#channel-list');

          // Telegram: a token Telegram never issues is refused next to its field, in the page's language.
          await form.getByLabel(S('ntf.type.messenger'), { exact: true }).check();
          const tokenInput = form.getByLabel(S('ntf.token'));
          await tokenInput.fill('not a token!');
          await form.getByLabel(S('ntf.chatId')).fill(chat);
          await form.getByRole('button', { name: S('ntf.add') }).click();
          assert.equal(await fieldError(page, tokenInput), S('ntf.v.token'));
          await topShot(page, shot('field-error'));
          await tokenInput.fill(token);
          await form.getByRole('button', { name: S('ntf.add') }).click();
          const tg = list.locator('[data-type="messenger"]');
          await tg.waitFor();
          assert.equal(await page.locator('#channels-empty').isVisible(), false);
          assert.match(await tg.locator('[data-field="destination"]').textContent(), new RegExp(chat));
          assert.equal(await tg.locator('[data-field="last-delivery"]').textContent(), S('ntf.noDelivery'));

          // E-mail: a recipient that is no address is named next to the recipients field.
          await form.getByLabel(S('ntf.type.email'), { exact: true }).check();
          await form.getByLabel(S('ntf.host')).fill('127.0.0.1');
          await form.getByLabel(S('ntf.port')).fill(String(smtp.port));
          await form.getByLabel(S('ntf.useTls')).uncheck();
          await form.getByLabel(S('ntf.username')).fill(SMTP_USER);
          await form.getByLabel(S('ntf.password')).fill(SMTP_PASSWORD);
          const to = form.getByLabel(S('ntf.toAddrs'));
          await to.fill(`${recipient}\nnot-an-address`);
          await form.getByRole('button', { name: S('ntf.add') }).click();
          assert.equal(await fieldError(page, to), S('ntf.v.recipient', { value: 'not-an-address' }));
          await to.fill(recipient);
          await form.getByRole('button', { name: S('ntf.add') }).click();
          const mail = list.locator('[data-type="email"]');
          await mail.waitFor();
          assert.equal(await form.getByLabel(S('ntf.password')).isVisible(), false, 'the form is back to Telegram, emptied');
          assert.equal(await form.getByLabel(S('ntf.token')).inputValue(), '');
          // Row buttons name their channel (a screen reader hears which one).
          assert.equal(await mail.locator('[data-action="test"]').getAttribute('aria-label'),
            S('ntf.testNamed', { name: `${S('ntf.type.email')} · ${recipient}` }));

          // "Send test": delivered, inline, and it really reached the bot and the mailbox.
          const tgResult = tg.locator('[data-field="test-result"]');
          const mailResult = mail.locator('[data-field="test-result"]');
          const beforeTg = telegram.messages.length;
          await tg.locator('[data-action="test"]').click();
          await tg.locator('[data-field="test-result"][data-result="ok"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          assert.match(await tgResult.textContent(), new RegExp(`^${S('ntf.testOk', { time: 'X' }).split(' (')[0]}`));
          assert.equal(await tgResult.getAttribute('role'), 'status');
          const sentTest = telegram.messages.slice(beforeTg).find((m) => m.token === token);
          assert.ok(sentTest, 'the test message reached the fake Bot API');
          assert.equal(sentTest.body.chat_id, chat);
          const beforeMail = smtp.messages.length;
          await mail.locator('[data-action="test"]').click();
          await mail.locator('[data-field="test-result"][data-result="ok"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          // No "From" given: the server's default sender, and the page says so.
          assert.match(await mailResult.textContent(), /dozor-tests@example\.org/);
          const sentMail = smtp.messages.slice(beforeMail).find((m) => m.to.some((r) => r.includes(recipient)));
          assert.ok(sentMail, 'the test message reached the SMTP sink');
          assert.equal(sentMail.user, SMTP_USER, 'signed in with the saved password');
          await topShot(page, shot('delivered'));

          // Servers away: the Bot API stopped (refused), the SMTP server silent (no answer) — the
          // reason in plain words, within the deadline.
          await telegram.close();
          smtp.setHanging(true);
          await tg.locator('[data-action="test"]').click();
          await tg.locator('[data-field="test-result"][data-result="error"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          assert.match(await tgResult.textContent(), pattern('ntf.testFailed', { reason: S('ntf.err.refused') }));
          const started = Date.now();
          await mail.locator('[data-action="test"]').click();
          await mail.locator('[data-field="test-result"][data-result="busy"]').waitFor();
          await mail.locator('[data-field="test-result"][data-result="error"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          const took = (Date.now() - started) / 1000;
          assert.ok(took <= DEADLINE_S + 3, `answered within the deadline (${took} s)`);
          assert.match(await mailResult.textContent(), pattern('ntf.testTimeout', { n: DEADLINE_S }));
          await topShot(page, shot('failed'));
          await telegram.start();
          smtp.setHanging(false);

          // The watched site goes down: the alert reaches the bot and the mailbox, and the page
          // shows it as each channel's last delivery.
          if (failFirstAlert) telegram.failNext(1); // its first attempt fails; the outbox retries
          const beforeAlertTg = telegram.messages.length;
          const beforeAlertMail = smtp.messages.length;
          await until('the first check', async () => (await api.mustOk('GET', '/api/v1/services'))
            .find((s) => s.name === serviceName)?.state === 'up');
          target.setDown(true);
          const alert = await until('the alert at the fake Bot API', () => telegram.messages.slice(beforeAlertTg)
            .find((m) => m.token === token && m.body?.text?.includes(serviceName)), 90_000);
          assert.equal(alert.body.chat_id, chat);
          const alertMail = await until('the alert at the SMTP sink', () => smtp.messages.slice(beforeAlertMail)
            .find((m) => smtp.subjectOf(m.data)?.includes(serviceName)), 30_000);
          assert.ok(alertMail.to.some((r) => r.includes(recipient)));
          await until('the delivery on the channel list', async () => (await api.mustOk('GET', '/api/v1/channels'))
            .every((c) => c.last_delivery), 15_000);
          await page.locator('#refresh').click();
          const what = S('ntf.kind.service_down', { name: serviceName });
          await until('the last delivery on the page', async () => (await tg.locator('[data-field="last-delivery"]').textContent()).includes(what), 10_000);
          assert.ok((await mail.locator('[data-field="last-delivery"]').textContent()).includes(what));
          if (failFirstAlert) {
            const failure = await tg.locator('[data-field="last-failure"]').textContent();
            assert.ok(failure.includes(S('ntf.err.tgStatus', { code: 500 })), failure);
            assert.ok(failure.includes(S('ntf.fate.sent')), failure);
          } else {
            assert.equal(await tg.locator('[data-field="last-failure"]').count(), 0);
          }
          assert.equal(await mail.locator('[data-field="last-failure"]').count(), 0);
          await topShot(page, shot('last-delivery'));

          // Edit without retyping the token: the field shows only the mask; a new chat is saved
          // and the test still reaches the bot with the stored token.
          await tg.locator('[data-action="edit"]').click();
          const dialog = page.locator('#edit-dialog');
          await dialog.waitFor();
          const editToken = dialog.getByLabel(S('ntf.token'));
          assert.equal(await editToken.inputValue(), '');
          const placeholder = await editToken.getAttribute('placeholder');
          assert.match(placeholder, /\*\*\*\*/);
          assert.ok(!placeholder.includes(token.slice(0, -2)), 'the placeholder shows the mask only');
          const newChat = String(Number(chat) + 1);
          await dialog.getByLabel(S('ntf.chatId')).fill(newChat);
          await topShot(page, shot('edit'), { fullPage: false });
          await dialog.getByRole('button', { name: S('common.save') }).click();
          await dialog.waitFor({ state: 'hidden' });
          await until('the new chat on the card', async () => (await tg.locator('[data-field="destination"]').textContent()).includes(newChat), 10_000);
          const beforeEdit = telegram.messages.length;
          await tg.locator('[data-action="test"]').click();
          await tg.locator('[data-field="test-result"][data-result="ok"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          const afterEdit = telegram.messages.slice(beforeEdit).find((m) => m.token === token);
          assert.ok(afterEdit, 'the stored token still works');
          assert.equal(afterEdit.body.chat_id, newChat);
          // The e-mail password too: an edit that touches only the recipients keeps the login.
          await mail.locator('[data-action="edit"]').click();
          await dialog.waitFor();
          assert.equal(await dialog.getByLabel(S('ntf.password')).inputValue(), '');
          await dialog.getByLabel(S('ntf.toAddrs')).fill(`${recipient}\nsecond-${recipient}`);
          await dialog.getByRole('button', { name: S('common.save') }).click();
          await dialog.waitFor({ state: 'hidden' });
          const beforeEditMail = smtp.messages.length;
          await mail.locator('[data-action="test"]').click();
          await mail.locator('[data-field="test-result"][data-result="ok"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          const mailAfterEdit = smtp.messages.slice(beforeEditMail).find((m) => m.to.some((r) => r.includes(`second-${recipient}`)));
          assert.ok(mailAfterEdit, 'sent to the new recipients');
          assert.equal(mailAfterEdit.user, SMTP_USER, 'with the stored password');
          const html = await page.content();
          assert.ok(!html.includes(token) && !html.includes(SMTP_PASSWORD), 'no secret on the page');

          // Turn off, then delete.
          assert.equal(await tg.locator('[data-action="toggle"]').textContent(), S('ntf.disable'));
          await tg.locator('[data-action="toggle"]').click();
          await until('the channel off', async () => (await tg.locator('[data-field="enabled"]').textContent()) === S('ntf.off'), 10_000);
          assert.equal(await tg.locator('[data-action="toggle"]').textContent(), S('ntf.enable'));
          const listed = await api.mustOk('GET', '/api/v1/channels');
          assert.equal(listed.find((c) => c.type === 'messenger').enabled, false);
          assert.equal(listed.find((c) => c.type === 'email').enabled, true);
          await topShot(page, shot('off'));
          // Adding sends what was typed; an edit or a switch sends the masks, never a stored secret.
          const puts = bodies.filter((b) => b.method === 'PUT');
          assert.ok(puts.filter((b) => b.body.includes('"****')).length >= 3, 'the edits and the switch sent the masks back');
          for (const { body } of puts) assert.ok(!body.includes(token) && !body.includes(SMTP_PASSWORD), `no secret in ${body}`);
          // And on again: the switch keeps the stored token (the test still reaches the bot).
          await tg.locator('[data-action="toggle"]').click();
          await until('the channel on', async () => (await tg.locator('[data-field="enabled"]').textContent()) === S('ntf.on'), 10_000);
          assert.equal((await api.mustOk('GET', '/api/v1/channels')).find((c) => c.type === 'messenger').enabled, true);
          const beforeOn = telegram.messages.length;
          await tg.locator('[data-action="test"]').click();
          await tg.locator('[data-field="test-result"][data-result="ok"]').waitFor({ timeout: (DEADLINE_S + 5) * 1000 });
          assert.ok(telegram.messages.slice(beforeOn).some((m) => m.token === token), 'the token survived the switches');
          await tg.locator('[data-action="delete"]').click();
          await page.locator('dialog[open]').getByRole('button', { name: S('common.delete') }).click();
          await tg.waitFor({ state: 'detached' });
          assert.deepEqual((await api.mustOk('GET', '/api/v1/channels')).map((c) => c.type), ['email']);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 1, `${overflow}px of horizontal overflow`);
        }, { token: api.token, lang, contextOptions: { viewport, locale } });
      } finally {
        target.setDown(false);
        await admin.deleteUser(user.id);
        await target.close();
      }
    });
  }
}
