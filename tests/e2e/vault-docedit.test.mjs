// (Issue 10) The vault's editors in a real browser. The office editor page loads api.js from
// vault.docserver_url — here a fake document server started by this test, whose DocsAPI records
// the config it is handed — and the signed config reaches `new DocsAPI.DocEditor(...)` intact,
// within the page's CSP. The text editor page opens a file and saves an edit through
// POST /vault/save_file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request as pwRequest } from 'playwright-core';
import { launchBrowser, withPage, BASE_URL, ADMIN_USER, ADMIN_PASSWORD } from './lib.mjs';

const STATE = process.env.DOZOR_TEST_STATE || '';
const toml = STATE ? readFileSync(path.join(STATE, 'dozor.toml'), 'utf8') : '';
const DOCSERVER = (toml.match(/^docserver_url = "([^"]+)"/m) || [])[1] || '';

const FAKE_API_JS = `
window.DocsAPI = { DocEditor: function (id, config) {
  window.__docEditor = { id: id, config: config };
  document.getElementById(id).setAttribute('data-key', config.document.key);
} };`;

let browser;
let docserver;
const apiHits = [];
const folder = `/e2e-docedit-${Date.now().toString(36)}`;

async function vaultRequest() {
  const req = await pwRequest.newContext({ baseURL: BASE_URL, ignoreHTTPSErrors: true });
  const res = await req.post('/vault/login', {
    data: { username: ADMIN_USER, password: ADMIN_PASSWORD }, headers: { Origin: BASE_URL },
  });
  assert.equal(res.status(), 200, await res.text());
  const { csrf } = await res.json();
  const headers = { Origin: BASE_URL, 'X-CSRF-Token': csrf };
  return {
    req,
    post: async (route, data) => {
      const r = await req.post(`/vault/${route}`, { data, headers });
      assert.ok([200, 409].includes(r.status()), `${route}: ${r.status()} ${await r.text()}`);
    },
  };
}

/** The browser signed in to the vault (the login form's request, its cookie kept by the context). */
async function signIn(page) {
  const res = await page.request.post('/vault/login', {
    data: { username: ADMIN_USER, password: ADMIN_PASSWORD }, headers: { Origin: BASE_URL },
  });
  assert.equal(res.status(), 200);
}

before(async () => {
  assert.ok(DOCSERVER, 'vault.docserver_url is not configured by the test stack');
  const port = Number(new URL(DOCSERVER).port);
  docserver = http.createServer((req, res) => {
    if (req.url === '/web-apps/apps/api/documents/api.js') {
      apiHits.push(req.url);
      res.writeHead(200, { 'Content-Type': 'application/javascript' });
      res.end(FAKE_API_JS);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => docserver.listen(port, '127.0.0.1', resolve));
  browser = await launchBrowser();
  const v = await vaultRequest();
  await v.post('create_folder', { path: folder });
  await v.post('save_file', { path: `${folder}/plan.docx`, content: 'office bytes' });
  await v.post('save_file', { path: `${folder}/notes.txt`, content: 'first line\n' });
  await v.req.dispose();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (docserver ? docserver.close(resolve) : resolve()));
});

test('the office editor page hands the signed config to DocsAPI.DocEditor', async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await signIn(page);
    await page.goto(`/vault/docedit_edit?path=${encodeURIComponent(`${folder}/plan.docx`)}`);
    await page.waitForFunction(() => window.__docEditor !== undefined);
    const { id, config } = await page.evaluate(() => window.__docEditor);
    const served = JSON.parse(await page.locator('#vault-data').textContent()).config;
    assert.equal(id, 'vault-docedit');
    assert.deepEqual(config, served);
    assert.equal(config.documentType, 'word');
    assert.equal(config.document.title, 'plan.docx');
    assert.match(config.document.url, /\/vault\/docedit_download\?path=.*&exp=\d+&sig=/);
    assert.match(config.editorConfig.callbackUrl, /\/vault\/docedit_callback$/);
    // The token is a JWT whose payload is the same config.
    const [head, payload] = config.token.split('.').map((p) => Buffer.from(p, 'base64url').toString());
    assert.equal(JSON.parse(head).alg, 'HS256');
    assert.deepEqual(JSON.parse(payload).document, config.document);
    assert.equal(await page.locator('#vault-docedit').getAttribute('data-key'), config.document.key);
    assert.equal(apiHits.length > 0, true);
    assert.deepEqual(log.csp, []);
    assert.deepEqual(await page.evaluate(() => window.__dozorCsp), []);
  });
});

test('the text editor page opens a file and saves an edit', async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await signIn(page);
    await page.goto(`/vault/edit?path=${encodeURIComponent(`${folder}/notes.txt`)}`);
    const area = page.locator('#vault-editor');
    await assert.doesNotReject(area.waitFor());
    await page.waitForFunction(() => document.getElementById('vault-editor').value.length > 0);
    assert.equal(await area.inputValue(), 'first line\n');
    await area.fill('first line\nsecond line, from the browser\n');
    await page.locator('#vault-save').click();
    await page.locator('#vault-status', { hasText: 'Saved' }).waitFor();
    const res = await page.request.get(`/vault/download?path=${encodeURIComponent(`${folder}/notes.txt`)}`);
    assert.equal(await res.text(), 'first line\nsecond line, from the browser\n');
    assert.deepEqual(log.errors, []);
  });
});
