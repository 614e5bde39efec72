// (Issue 8) The /security page: a user signs in, picks a local fixture site, runs the header check
// and the full audit (grade badge, findings with evidence, the severity filter changes the list),
// the compliance checklist, technologies, the crawl,
// and the DOCX button requests the report route with the bearer token and triggers a download.
// A service picked from the "Your service" list becomes the target: a check runs against its URL, and the
// technologies of its WordPress page are listed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  launchBrowser, withPage, Api, loginViaForm, waitLoaded, uniqueName, ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let api;
let user;
let site;

const HOME = '<!doctype html><html lang="en"><head><title>Fixture shop</title></head><body>'
  + '<h1>Shop</h1><a href="/login">Sign in</a></body></html>';
const LOGIN = '<!doctype html><html lang="en"><head><title>Sign in</title></head><body>'
  + '<form method="post" action="/login"><input name="user"><input type="password" name="pass"><button>Go</button></form>'
  + '</body></html>';

// A WordPress blog under /blog/ (the generator meta and its jQuery, as test_cms.py's fixture has them).
const BLOG = '<!doctype html><html lang="en"><head><title>Fixture blog</title>'
  + '<meta name="generator" content="WordPress 6.4.2">'
  + '<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script></head>'
  + '<body><h1>Just another WordPress site</h1></body></html>';

/** A plain-HTTP site with problems of several severities: an exposed .env (critical) and .git
 * (high), a password form over HTTP without a CSRF token, a session cookie without flags; and a
 * WordPress blog under /blog/. */
async function startSite() {
  const files = {
    '/': ['text/html; charset=utf-8', HOME],
    '/login': ['text/html; charset=utf-8', LOGIN],
    '/blog/': ['text/html; charset=utf-8', BLOG],
    '/.git/HEAD': ['text/plain', 'ref: refs/heads/main\n'],
    '/.env': ['text/plain', 'APP_ENV=production\nDB_PASSWORD=e2e-not-a-real-secret\n'],
  };
  const server = createServer((req, res) => {
    const file = files[(req.url || '/').split('?')[0]];
    if (!file) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('not found'); return; }
    res.writeHead(200, { 'Content-Type': file[0], 'Set-Cookie': 'sessionid=abcdef123456; Path=/' });
    res.end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

before(async () => {
  browser = await launchBrowser();
  site = await startSite();
  api = await Api.create();
  api.token = await api.login(ADMIN_USER, ADMIN_PASSWORD);
  user = await api.createUser();
  // The exposure probes are active work (docs/audit.md): this user may scan any target.
  await api.mustOk('PUT', `/api/admin/users/${user.id}/scan-grant`);
});

after(async () => {
  if (user) await api.deleteUser(user.id);
  await browser?.close();
  await site?.close();
  await api?.dispose();
});

async function openTarget(page) {
  await loginViaForm(page, user.username, user.password, { next: '/security' });
  await page.waitForURL('**/security');
  await waitLoaded(page);
  await page.getByLabel('Address', { exact: true }).fill(site.url);
  await page.getByRole('button', { name: 'Examine', exact: true }).click();
  await page.locator('#audit-panels [data-section="audit"]').waitFor();
}

test('security page: header check, full audit with the severity filter, compliance, crawl, DOCX', { timeout: TEST_TIMEOUT * 2 }, async (t) => {
  await withPage(t, browser, async (page, { log }) => {
    await openTarget(page);

    // Header check: a grade badge and the tests table.
    await page.getByRole('button', { name: 'Check headers' }).click();
    const headers = page.locator('[data-result="headers"]');
    await headers.waitFor({ timeout: 60_000 });
    const headerGrade = await headers.locator('.grade').getAttribute('data-grade');
    assert.match(headerGrade, /^[A-F][+-]?$/, 'the header check shows a grade');
    assert.ok(await headers.locator('tbody tr').count() >= 10, 'the ten Observatory tests are listed');

    // Full audit: grade, counts, findings with evidence.
    await page.getByRole('button', { name: 'Run full audit' }).click();
    const audit = page.locator('[data-result="audit"]');
    await audit.waitFor({ timeout: 90_000 });
    assert.match(await audit.locator('.grade').getAttribute('data-grade'), /^[A-F][+-]?$/, 'the audit shows a grade');
    const findings = audit.locator('#audit-findings > li');
    const total = await findings.count();
    assert.ok(total >= 3, `findings listed (${total})`);
    const env = audit.locator('li[data-check="exposure-env-file"]');
    assert.equal(await env.count(), 1, 'the exposed .env is a finding');
    assert.equal(await env.getAttribute('data-severity'), 'critical');
    await env.locator('summary').click();
    const evidence = env.locator('.evidence').first();
    await evidence.waitFor();
    assert.match(await evidence.textContent(), /GET \/\.env HTTP\/1\.1/, 'evidence shows the exchange');
    assert.doesNotMatch(await evidence.textContent(), /e2e-not-a-real-secret/, 'the secret is masked');
    assert.equal(await audit.locator('dd[data-count="critical"]').textContent(), '1');

    // The severity filter (keyboard): hiding critical removes the .env finding and updates the count.
    const critical = page.locator('#audit-filter-critical');
    await critical.focus();
    await page.keyboard.press('Space');
    assert.equal(await critical.isChecked(), false);
    assert.equal(await findings.count(), total - 1, 'one critical finding hidden');
    assert.equal(await env.count(), 0);
    assert.match(await page.locator('#audit-findings-count').textContent(), new RegExp(`${total - 1} of ${total}`));
    for (const s of ['high', 'medium', 'low', 'info']) await page.locator(`#audit-filter-${s}`).uncheck();
    assert.equal(await findings.count(), 0, 'nothing shown with every severity hidden');
    await page.locator('#audit-filter-high').check();
    assert.ok(await findings.count() >= 1, 'the exposed .git (high) is back');
    for (const li of await findings.all()) assert.equal(await li.getAttribute('data-severity'), 'high');

    // Compliance checklist.
    await page.getByRole('button', { name: 'Check compliance' }).click();
    const compliance = page.locator('[data-result="compliance"]');
    await compliance.waitFor({ timeout: 90_000 });
    const sets = compliance.locator('[data-set]');
    assert.ok(await sets.count() >= 1, 'at least one requirement set');
    assert.ok(await sets.first().locator('tbody tr').count() >= 1, 'the checklist has items');
    assert.ok(await compliance.locator('.status-tag[data-status]').count() >= 1, 'each item has a status');

    // Technologies: the route's result, never an error notice.
    await page.getByRole('button', { name: 'Detect technologies' }).click();
    const tech = page.locator('#panel-technologies-output');
    await tech.locator('[data-result="technologies"]').waitFor({ timeout: 60_000 });
    assert.equal(await tech.locator('.notice-error').count(), 0);

    // Crawl: the depth and page limit reach the route; out of bounds is the route's 422, shown.
    const crawlPanel = page.locator('[data-section="crawl"]');
    await crawlPanel.getByLabel('Link depth').fill('99');
    await page.getByRole('button', { name: 'Crawl the site' }).click();
    await crawlPanel.locator('#panel-crawl-output .notice-error').waitFor({ timeout: 30_000 });
    await crawlPanel.getByLabel('Link depth').fill('');
    await crawlPanel.getByLabel('Page limit').fill('1');
    const crawlAsked = page.waitForRequest((r) => r.url().includes('/api/crawl/'));
    await page.getByRole('button', { name: 'Crawl the site' }).click();
    assert.equal(new URL((await crawlAsked).url()).search, '?max_pages=1');
    const crawl = page.locator('[data-result="crawl"]');
    await crawl.waitFor({ timeout: 60_000 });
    assert.match(await crawl.textContent(), /Fixture shop/);
    assert.equal(await crawl.locator('tbody').first().locator('tr').count(), 1, 'one page at most');

    // DOCX: the button asks the report route with the bearer token; the answer becomes a download.
    const seen = [];
    await page.route((url) => url.pathname.endsWith('/report'), async (route) => {
      const req = route.request();
      seen.push({ url: req.url(), auth: (await req.allHeaders()).authorization });
      await route.fulfill({
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'Content-Disposition': 'attachment; filename="dozor-audit-127.0.0.1-2026-01-01.docx"; '
            + "filename*=UTF-8''dozor-audit-127.0.0.1-2026-01-01.docx",
        },
        body: Buffer.from('PK\x03\x04 e2e'),
      });
    });
    await page.locator('#report-lang').selectOption('ru');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report (DOCX)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'dozor-audit-127.0.0.1-2026-01-01.docx');
    assert.equal(seen.length, 1);
    const asked = new URL(seen[0].url);
    assert.equal(asked.pathname, `/api/v1/audit/${encodeURIComponent(site.url)}/report`);
    assert.equal(asked.searchParams.get('lang'), 'ru');
    assert.match(seen[0].auth || '', /^Bearer \S+/, 'the report is fetched with the bearer token');

    // The browser logs the one refused request asked for above (the crawl's 422); nothing else.
    const refused = /^\[error\] Failed to load resource: the server responded with a status of 422 \(\)$/;
    assert.deepEqual(log.errors.filter((e) => !refused.test(e)), [], 'no page errors');
    assert.equal(log.errors.length, 1, 'exactly the one refusal');
  });
});

test('security page: a service picked from the list is the target; its technologies are shown', { timeout: TEST_TIMEOUT }, async (t) => {
  const userApi = await api.as(user.username, user.password);
  const service = await userApi.mustOk('POST', '/api/v1/services', {
    name: uniqueName('sec-blog'), url: `${site.url}blog/`, check_interval: 60,
  });
  await withPage(t, browser, async (page, { log }) => {
    await loginViaForm(page, user.username, user.password, { next: '/security' });
    await page.waitForURL('**/security');
    await waitLoaded(page);
    // The list offers the user's service; picking it makes it the target (nothing typed).
    const select = page.getByLabel('Your service', { exact: true });
    await select.selectOption({ label: `${service.name} — ${service.url}` });
    assert.equal(await select.inputValue(), String(service.id));
    await page.locator('#audit-panels [data-section="audit"]').waitFor();
    assert.equal(await page.getByLabel('Address', { exact: true }).inputValue(), service.url);
    assert.equal(new URL(page.url()).searchParams.get('target'), service.url);
    const facts = page.locator('#target-facts');
    assert.equal(await facts.locator('dd').first().textContent(), service.url, 'the target is the service\'s URL');
    assert.match(await page.locator('#findings').textContent(), new RegExp(service.name), 'known as the service');

    // A check runs against that URL and shows its result.
    const asked = page.waitForRequest((r) => r.url().includes('/api/v1/audit/headers/'));
    await page.getByRole('button', { name: 'Check headers' }).click();
    assert.equal(new URL((await asked).url()).pathname, `/api/v1/audit/headers/${encodeURIComponent(service.url)}`);
    const headers = page.locator('[data-result="headers"]');
    await headers.waitFor({ timeout: 60_000 });
    assert.match(await headers.locator('.grade').getAttribute('data-grade'), /^[A-F][+-]?$/);
    const graded = headers.locator('dt', { hasText: 'Graded address' }).locator('xpath=following-sibling::dd[1]');
    assert.equal(await graded.textContent(), service.url, 'the graded address is the service\'s');

    // Technologies of the blog: WordPress with its version, and its jQuery.
    await page.getByRole('button', { name: 'Detect technologies' }).click();
    const tech = page.locator('#panel-technologies-output [data-result="technologies"]');
    await tech.waitFor({ timeout: 60_000 });
    const rows = tech.locator('tbody tr');
    const wordpress = rows.filter({ has: page.locator('td:first-child', { hasText: /^WordPress$/ }) });
    assert.equal(await wordpress.count(), 1, `WordPress listed: ${await tech.textContent()}`);
    assert.equal(await wordpress.locator('td').nth(1).textContent(), '6.4.2');
    assert.match(await wordpress.locator('td').nth(2).textContent(), /CMS/);
    const jquery = rows.filter({ has: page.locator('td:first-child', { hasText: /^jQuery$/ }) });
    assert.equal(await jquery.locator('td').nth(1).textContent(), '3.7.1');
    assert.deepEqual(log.errors, [], 'no page errors');
  });
});

test('security page in Russian: the audit panel speaks Russian', { timeout: TEST_TIMEOUT }, async (t) => {
  const token = await api.login(user.username, user.password);
  await withPage(t, browser, async (page) => {
    await page.goto(`/security?target=${encodeURIComponent(site.url)}`);
    await waitLoaded(page);
    await page.getByRole('button', { name: 'Запустить полный аудит' }).waitFor();
    await page.getByRole('button', { name: 'Скачать отчёт (DOCX)' }).waitFor();
    assert.equal(await page.locator('#report-lang').inputValue(), 'ru', 'the report language follows the page');
  }, { token, lang: 'ru' });
});

/** A loopback port nobody listens on (bound, read, closed). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Issue 28 §3: a site that gives no answer is an error with its reason in the page's language —
// never a grade or "no findings" — for the full audit and for the DOCX button.
test('security page: an unreachable site is an error with its reason, in English and in Russian', { timeout: TEST_TIMEOUT * 2 }, async (t) => {
  const port = await closedPort();
  const target = `http://127.0.0.1:${port}/`;
  const token = await api.login(user.username, user.password);
  const cases = [
    { lang: 'en', run: 'Run full audit', download: 'Download report (DOCX)', text: `The site could not be reached (127.0.0.1:${port}): connection refused.` },
    { lang: 'ru', run: 'Запустить полный аудит', download: 'Скачать отчёт (DOCX)', text: `Сайт недоступен (127.0.0.1:${port}): соединение отклонено.` },
  ];
  for (const c of cases) {
    await withPage(t, browser, async (page) => {
      await page.goto(`/security?target=${encodeURIComponent(target)}`);
      await waitLoaded(page);
      await page.getByRole('button', { name: c.run }).click();
      const output = page.locator('#panel-audit-output');
      const error = output.locator('.notice-error');
      await error.waitFor({ timeout: 90_000 });
      assert.ok((await error.textContent()).includes(c.text), `${c.lang}: ${await error.textContent()}`);
      assert.equal(await output.locator('[data-result="audit"]').count(), 0, 'no audit result is drawn');
      assert.equal(await output.locator('.grade').count(), 0, 'no grade');

      await page.getByRole('button', { name: c.download }).click();
      const status = page.locator('.report-controls [role="status"]');
      await page.waitForFunction((el) => el.textContent.length > 0 && !el.textContent.includes('…'), await status.elementHandle(), { timeout: 90_000 });
      assert.ok((await status.textContent()).includes(c.text), `${c.lang} DOCX: ${await status.textContent()}`);
    }, { token, lang: c.lang });
  }
});
