// Issue 28 §2: the vault joined to the app, walked as a new user would — in English and Russian,
// on a laptop (1366×768) and a phone (390×844). From the dashboard's main navigation ("Files") to
// the vault's login, then the home folder (which exists) opens; the empty folder offers Upload
// and New folder; a folder is made and a file of 6 MiB uploaded with its progress in bytes and
// percent on screen (the text changes while it goes) and the list updates without a page
// reload; every file offers View, Edit and Download; a text file is edited and saved in the text
// editor, an office file opens in the office editor page (a fake document server's DocsAPI gets
// the signed config), and with the document server down that page says what to do; both editors
// use the app's layout and lead back. A navigation to a missing vault path gets the HTML error
// page in the page's language (a script's call still gets JSON). On the phone, long names wrap
// between words and each row's action menu and its items are inside the screen. No page shows
// an emoji (Extended_Pictographic), and screenshots of every page are kept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  launchBrowser, withPage, Api, waitLoaded, keepScreenshot, VIEWPORTS, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';
import { STRINGS, format } from '../../www/js/strings.js';

const STATE = process.env.DOZOR_TEST_STATE || '';
const toml = STATE ? readFileSync(path.join(STATE, 'dozor.toml'), 'utf8') : '';
const DOCSERVER = (toml.match(/^docserver_url = "([^"]+)"/m) || [])[1] || '';

// axe-core (a devDependency of tests/e2e, pinned by its lockfile): run through the DevTools
// protocol, which the pages' CSP does not govern, so the pages are checked under their real policy.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const FAKE_API_JS = `
window.DocsAPI = { DocEditor: function (id, config) {
  window.__docEditor = { id: id, config: config };
  var frame = document.createElement('iframe');
  frame.id = id; frame.title = 'editor'; frame.setAttribute('data-key', config.document.key);
  document.getElementById(id).replaceWith(frame);
} };`;

let browser;
let admin;
let docserver = null;

/** The fake document server (its api.js only) on vault.docserver_url's port; stop() takes it away. */
async function startDocserver() {
  const port = Number(new URL(DOCSERVER).port);
  const server = http.createServer((req, res) => {
    if (req.url === '/web-apps/apps/api/documents/api.js') {
      res.writeHead(200, { 'Content-Type': 'application/javascript' });
      res.end(FAKE_API_JS);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
  return {
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

before(async () => {
  assert.ok(DOCSERVER, 'vault.docserver_url is not configured by the test stack');
  browser = await launchBrowser();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  docserver = await startDocserver();
});

after(async () => {
  await docserver?.stop();
  await browser?.close();
  await admin?.dispose();
});

/** Every text a person can meet on the page (text, titles, labels) has no emoji. */
async function assertNoEmoji(page, where) {
  const found = await page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const node of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (node.hasAttribute(a)) texts.push(node.getAttribute(a));
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
    return texts.join('\n').match(/\p{Extended_Pictographic}/gu) || [];
  });
  assert.deepEqual(found, [], `${where}: emoji in the page`);
}

/** axe-core finds no serious or critical accessibility violation on the page. */
async function assertAccessible(page, where) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
  });
  assert.deepEqual(violations, [], `${where}: serious or critical accessibility violations`);
}

/** The box of a locator lies inside the viewport (after scrolling it into view). */
async function assertInView(page, locator, what) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  assert.ok(box, `${what} is rendered`);
  assert.ok(box.x >= 0 && box.x + box.width <= vp.width + 0.5 && box.y >= 0 && box.y + box.height <= vp.height + 0.5,
    `${what} inside the ${vp.width}×${vp.height} viewport: ${JSON.stringify(box)}`);
}

/** The app's layout: the top bar with the main navigation, "Files" marked current. */
async function assertAppLayout(page, S, lang) {
  const nav = page.getByRole('navigation', { name: S('nav.main') });
  await nav.waitFor();
  const current = nav.locator('a[aria-current="page"]');
  assert.equal(await current.textContent(), S('nav.vault'));
  assert.equal(await current.getAttribute('href'), '/vault');
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
}

/** Console errors other than the failed loads a test provokes (a 404 page, the document server down). */
const realErrors = (log) => log.errors.filter((e) => !/Failed to load resource/.test(e));

for (const lang of ['en', 'ru']) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    const S = (key, params) => format(STRINGS[lang][key], params);
    const locale = lang === 'ru' ? 'ru-RU' : 'en-US';
    const label = `${lang}, ${viewport.width}×${viewport.height}`;
    const phone = size === 'phone';
    const shot = (page, name) => keepScreenshot(page, `vault-${name}-${lang}-${viewport.width}`);

    test(`a new user's vault from the navigation to the editors and errors (${label})`, { timeout: TEST_TIMEOUT * 2 }, async (t) => {
      const user = await admin.createUser();
      const api = await admin.as(user.username, user.password);
      const home = `/home/${user.username}`;
      try {
        await withPage(t, browser, async (page, { log }) => {
          // The dashboard's main navigation leads to the vault; without a vault session, its login.
          await page.goto('/dashboard');
          await page.waitForSelector('body[data-ready="true"]');
          const navLink = page.getByRole('navigation', { name: S('nav.main') }).getByRole('link', { name: S('nav.vault'), exact: true });
          assert.equal(await navLink.getAttribute('href'), '/vault');
          await navLink.click();
          await page.waitForURL(/\/vault\/login$/);
          await waitLoaded(page);
          await assertNoEmoji(page, 'login');
          await page.getByLabel(S('login.username')).fill(user.username);
          await page.getByLabel(S('login.password')).fill(user.password);
          await page.getByRole('button', { name: S('login.submit') }).click();

          // First login: the home folder, which exists and is empty, offers Upload and New folder.
          await page.waitForURL((url) => url.pathname === '/vault/browse' && url.searchParams.get('path') === home);
          await waitLoaded(page);
          await assertAppLayout(page, S, lang);
          const crumbs = page.getByRole('navigation', { name: S('vault.location') });
          assert.equal(await crumbs.locator('a[aria-current="page"]').textContent(), user.username);
          const empty = page.locator('td.vault-empty');
          await empty.getByText(S('vault.empty')).waitFor();
          assert.ok(await empty.getByText(S('vault.upload'), { exact: true }).isVisible(), 'the empty folder offers Upload');
          const emptyNewFolder = empty.getByRole('button', { name: S('vault.newFolder') });
          assert.ok(await emptyNewFolder.isVisible(), 'the empty folder offers New folder');
          await assertNoEmoji(page, 'empty folder');
          await assertAccessible(page, 'empty folder');
          await shot(page, 'empty');

          // The page is never reloaded from here on: a marker in the window stays.
          await page.evaluate(() => { window.__noReload = true; });
          await emptyNewFolder.click();
          const ask = page.getByRole('dialog', { name: S('vault.folderPrompt') });
          await ask.getByRole('textbox').fill('Reports');
          await ask.getByRole('button', { name: S('vault.ok') }).click();
          await page.getByRole('link', { name: 'Reports', exact: true }).waitFor();

          // Upload: the progress names bytes and percent and changes while the file goes (the
          // upload is throttled to 3 MiB/s so that the browser reports progress several times).
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * 1024 * 1024,
          });
          await page.evaluate(() => {
            window.__progress = [];
            const text = document.getElementById('vault-progress-text');
            new MutationObserver(() => window.__progress.push(text.textContent))
              .observe(text, { childList: true, characterData: true, subtree: true });
          });
          const big = { name: 'archive-2024.bin', mimeType: 'application/octet-stream', buffer: randomBytes(6 * 1024 * 1024) };
          await page.setInputFiles('#vault-upload', [big]);
          await page.locator('#vault-progress').waitFor({ state: 'visible' });
          await shot(page, 'uploading');
          await page.getByRole('link', { name: big.name, exact: true }).waitFor({ timeout: 60_000 });
          await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
          const progress = [...new Set(await page.evaluate(() => window.__progress))];
          const unit = lang === 'ru' ? 'МиБ' : 'MiB';
          const shape = new RegExp(`${big.name}: [\\d.,]+\\s(Б|B|КиБ|KiB|${unit}) (of|из) 6[.,]0\\s${unit} \\(\\d+\\s?%\\)`);
          const shaped = progress.filter((p) => shape.test(p));
          assert.ok(shaped.length >= 3, `the progress text changed while uploading: ${JSON.stringify(progress)}`);
          const percents = shaped.map((p) => Number(/\((\d+)\s?%\)/.exec(p)[1]));
          assert.ok(percents.some((p) => p > 0 && p < 100), `a percent between 0 and 100: ${percents}`);
          assert.equal(await page.evaluate(() => window.__noReload), true, 'the list updated without a page reload');
          assert.ok(await page.locator('#vault-progress').isHidden(), 'the progress goes away when done');

          // A text file and an office file; every file offers View, Edit and Download.
          await page.setInputFiles('#vault-upload', [
            { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('first line\n') },
          ]);
          await page.getByRole('link', { name: 'notes.txt', exact: true }).waitFor();
          await page.setInputFiles('#vault-upload', [
            { name: 'plan.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('office bytes') },
          ]);
          await page.getByRole('link', { name: 'plan.docx', exact: true }).waitFor();
          const longName = lang === 'ru'
            ? 'Ежеквартальный отчёт отдела региональных продаж за третий квартал окончательная версия.txt'
            : 'Quarterly report of the regional sales department for the third quarter final version.txt';
          await page.setInputFiles('#vault-upload', [{ name: longName, mimeType: 'text/plain', buffer: Buffer.from('long\n') }]);
          await page.getByRole('link', { name: longName, exact: true }).waitFor();
          assert.equal(await page.evaluate(() => window.__noReload), true, 'still the same page');

          const row = (name) => page.locator(`tr[data-name="${name}"]`);
          /** The row's action `key` ('vault.viewNamed', …): in the row on a laptop, in its menu on a phone. */
          const action = async (name, key) => {
            if (phone) {
              const menuButton = row(name).getByRole('button', { name: S('vault.moreNamed', { name }) });
              if (await menuButton.getAttribute('aria-expanded') !== 'true') await menuButton.click();
            }
            const link = row(name).getByRole('link', { name: S(key, { name }), exact: true });
            assert.ok(await link.isVisible(), `${key} of ${name} is visible`);
            return link;
          };
          const closeMenu = async () => { if (phone) await page.keyboard.press('Escape'); };
          for (const [name, editRoute] of [['notes.txt', 'edit'], ['plan.docx', 'docedit_edit'], [big.name, null]]) {
            const filePath = encodeURIComponent(`${home}/${name}`);
            assert.equal(await (await action(name, 'vault.viewNamed')).getAttribute('href'), `/vault/view?path=${filePath}`);
            assert.equal(await (await action(name, 'vault.downloadNamed')).getAttribute('href'), `/vault/download?path=${filePath}`);
            if (editRoute) {
              assert.equal(await (await action(name, 'vault.editNamed')).getAttribute('href'), `/vault/${editRoute}?path=${filePath}`);
            }
            await closeMenu();
          }
          await assertNoEmoji(page, 'folder');
          await assertAccessible(page, 'folder');
          await shot(page, 'folder');

          if (phone) {
            // Long names wrap between words (no word is split) and stay inside the screen.
            const name = row(longName).locator('td.vault-name a');
            const wrap = await name.evaluate((a) => {
              const text = a.firstChild;
              const words = [];
              let at = 0;
              for (const word of text.nodeValue.split(' ')) {
                const range = document.createRange();
                range.setStart(text, at);
                range.setEnd(text, at + word.length);
                words.push({ word, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size });
                at += word.length + 1;
              }
              const rects = a.getClientRects();
              const box = a.getBoundingClientRect();
              return { lines: new Set([...rects].map((r) => Math.round(r.top))).size, words, right: box.right };
            });
            assert.ok(wrap.lines >= 2, `the long name wraps (${wrap.lines} line)`);
            assert.deepEqual(wrap.words.filter((w) => w.lines > 1), [], 'no word is split across lines');
            assert.ok(wrap.right <= viewport.width, `the name stays inside the screen (${wrap.right})`);
            assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, 'no sideways scroll');

            // Each row's menu: the button and every item inside the screen.
            for (const name of ['Reports', longName, 'plan.docx']) {
              const menuButton = row(name).getByRole('button', { name: S('vault.moreNamed', { name }) });
              await assertInView(page, menuButton, `the menu button of ${name}`);
              await menuButton.click();
              const menu = row(name).locator('.vault-menu');
              await menu.waitFor({ state: 'visible' });
              const items = menu.locator('.vault-menu-item:visible');
              const labels = await items.allTextContents();
              const expected = name === 'Reports'
                ? [S('vault.rename'), S('common.delete')]
                : [S('vault.view'), S('vault.edit'), S('vault.download'), S('vault.check'), S('vault.rename'), S('common.delete')];
              assert.deepEqual(labels, expected, `the actions of ${name}`);
              await assertInView(page, menu, `the menu of ${name}`);
              for (let i = 0; i < await items.count(); i += 1) await assertInView(page, items.nth(i), `${labels[i]} of ${name}`);
              if (name === 'plan.docx') await shot(page, 'menu');
              await page.keyboard.press('Escape');
              assert.ok(await menu.isHidden(), 'Escape closes the menu');
            }
          } else {
            // Laptop: View, Edit and Download sit in the row; the menu holds the rest.
            for (const key of ['vault.viewNamed', 'vault.editNamed', 'vault.downloadNamed']) {
              await assertInView(page, row('notes.txt').getByRole('link', { name: S(key, { name: 'notes.txt' }) }), key);
            }
          }

          // The text editor: the app's layout, the language, a way back; the edit is saved.
          await (await action('notes.txt', 'vault.editNamed')).click();
          await page.waitForURL(/\/vault\/edit\?/);
          await waitLoaded(page);
          await assertAppLayout(page, S, lang);
          const area = page.getByRole('textbox', { name: S('vaultEdit.contents', { name: 'notes.txt' }) });
          assert.equal(await area.inputValue(), 'first line\n');
          await area.fill('first line\nsecond line, from the editor\n');
          await page.locator('#vault-status', { hasText: S('vaultEdit.unsaved') }).waitFor();
          await page.getByRole('button', { name: S('vaultEdit.save'), exact: true }).click();
          await page.locator('#vault-status', { hasText: S('vaultEdit.saved') }).waitFor();
          const saved = await page.request.get(`/vault/download?path=${encodeURIComponent(`${home}/notes.txt`)}`);
          assert.equal(await saved.text(), 'first line\nsecond line, from the editor\n');
          await assertNoEmoji(page, 'text editor');
          await assertAccessible(page, 'text editor');
          await shot(page, 'text-editor');
          await page.getByRole('link', { name: S('vaultEdit.back') }).click();
          await page.waitForURL((url) => url.pathname === '/vault/browse' && url.searchParams.get('path') === home);
          await waitLoaded(page);

          // The office editor page: the signed config reaches DocsAPI; the app's layout, a way back.
          await (await action('plan.docx', 'vault.editNamed')).click();
          await page.waitForURL(/\/vault\/docedit_edit\?/);
          await page.waitForFunction(() => window.__docEditor !== undefined);
          await assertAppLayout(page, S, lang);
          const { config } = await page.evaluate(() => window.__docEditor);
          assert.equal(config.document.title, 'plan.docx');
          assert.ok(await page.getByRole('heading', { level: 1, name: 'plan.docx' }).isVisible());
          assert.ok(await page.getByRole('link', { name: S('vaultEdit.back') }).isVisible(), 'a way back');
          const frame = await page.locator('iframe#vault-docedit').boundingBox();
          assert.ok(frame && frame.height > 250 && frame.width > viewport.width * 0.8, `the editor takes the page: ${JSON.stringify(frame)}`);
          await assertNoEmoji(page, 'office editor');
          await assertAccessible(page, 'office editor');
          await shot(page, 'office-editor');

          // The document server down: the page says so and what to do, and offers a way on.
          await docserver.stop();
          docserver = null;
          try {
            await page.reload();
            const problem = page.locator('#vault-docedit-problem');
            await problem.waitFor({ state: 'visible' });
            const text = await problem.innerText();
            assert.ok(text.includes(S('vaultDocedit.unreachableTitle')), text);
            assert.ok(text.includes(S('vaultDocedit.unreachable', { origin: DOCSERVER })), text);
            assert.ok(text.includes(S('vaultDocedit.whatToDo')), text);
            assert.ok(await problem.getByRole('button', { name: S('common.retry') }).isVisible());
            assert.equal(await problem.getByRole('link', { name: S('vault.download') }).getAttribute('href'),
              `/vault/download?path=${encodeURIComponent(`${home}/plan.docx`)}`);
            assert.ok(await problem.getByRole('link', { name: S('vaultEdit.back') }).isVisible());
            await assertNoEmoji(page, 'office editor, server down');
            await assertAccessible(page, 'office editor, server down');
            await shot(page, 'office-editor-down');
          } finally {
            docserver = await startDocserver();
          }

          // A navigation to a missing vault path: the HTML error page in this language, a way on.
          for (const missing of [`/vault/browse?path=${encodeURIComponent(`${home}/no-such-folder`)}`, '/vault/no-such-page']) {
            const res = await page.goto(missing);
            assert.equal(res.status(), 404, missing);
            assert.match(res.headers()['content-type'], /^text\/html/, missing);
            await waitLoaded(page);
            assert.ok(await page.getByRole('heading', { level: 1, name: S('vaultError.404.title') }).isVisible(), missing);
            assert.ok((await page.locator('main').innerText()).includes(S('vaultError.404.body')));
            assert.doesNotMatch(await page.locator('body').innerText(), /detail|Not Found/, 'no raw JSON or server English');
            assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
            await assertNoEmoji(page, 'error page');
            await assertAccessible(page, 'error page');
          }
          await shot(page, 'error-404');
          // A script's call to the same address keeps the JSON shape.
          const json = await page.evaluate(async (url) => {
            const r = await fetch(url, { headers: { Accept: 'application/json' } });
            return { status: r.status, type: r.headers.get('content-type'), body: await r.json() };
          }, `/vault/browse?path=${encodeURIComponent(`${home}/no-such-folder`)}`);
          assert.equal(json.status, 404);
          assert.match(json.type, /^application\/json/);
          assert.equal(typeof json.body.detail, 'string');
          await page.getByRole('link', { name: S('vaultError.home') }).click();
          await page.waitForURL((url) => url.searchParams.get('path') === home);
          await waitLoaded(page);
          assert.deepEqual(realErrors(log), []);
          assert.deepEqual(log.csp, []);
        }, { token: api.token, lang, contextOptions: { viewport, locale } });
      } finally {
        await admin.deleteUser(user.id);
      }
    });
  }
}
