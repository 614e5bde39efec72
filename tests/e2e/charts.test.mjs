// Issue 28 §6 and §4: charts right on day one. With an hour of data the response-time and uptime
// charts span exactly the chosen window (24 h, 7 d, 30 d: the history's from/to, in seconds), the
// legend shows the values under the cursor (and the latest ones away from it, never empty), times
// are in the page's language (24-hour in Russian), and on a phone the legend stays a legend (not
// empty cards) and nothing is wider than the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, withPage, Api, startTarget, uniqueName, waitLoaded, keepScreenshot, VIEWPORTS,
  ADMIN_USER, ADMIN_PASSWORD, TEST_TIMEOUT,
} from './lib.mjs';

let browser;
let admin;
let target;
let user;
let api;
let svc;

before(async () => {
  browser = await launchBrowser();
  target = await startTarget();
  admin = await Api.create();
  admin.token = await admin.login(ADMIN_USER, ADMIN_PASSWORD);
  user = await admin.createUser();
  api = await admin.as(user.username, user.password);
  svc = await api.mustOk('POST', '/api/v1/services', {
    name: uniqueName('chart'), url: `${target.url}slow/40`, check_interval: 3600, is_active: false,
  });
  for (let i = 0; i < 3; i += 1) await api.mustOk('POST', `/api/v1/services/${svc.id}/check`);
});

after(async () => {
  if (user) await admin.deleteUser(user.id);
  await browser?.close();
  await target?.close();
  await admin?.dispose();
});

const seconds = (iso) => Math.floor(Date.parse(iso) / 1000);

/** x-scale bounds and the legend texts of the chart in `figure`. */
function chartState(figure) {
  return figure.evaluate((node) => {
    const u = node.querySelector('.chart-plot').uplot;
    const legend = [...node.querySelectorAll('.u-legend .u-series')].map((tr) => tr.querySelector('.u-value')?.textContent ?? '');
    return { min: u.scales.x.min, max: u.scales.x.max, legend, width: u.width };
  });
}

for (const [lang, size] of [['en', 'laptop'], ['ru', 'laptop'], ['en', 'phone'], ['ru', 'phone']]) {
  const viewport = VIEWPORTS[size];
  test(`charts span the window; the legend follows the cursor (${lang}, ${viewport.width}×${viewport.height})`, { timeout: TEST_TIMEOUT }, async (t) => {
    await withPage(t, browser, async (page) => {
      await page.goto('/dashboard');
      await waitLoaded(page);
      const row = page.locator(`#services-body tr[data-service-id="${svc.id}"]`);
      await row.locator('[data-action="details"]').click();
      const details = page.locator(`tr[data-details-for="${svc.id}"]`);
      const response = details.locator('figure[data-chart="response"]');
      const uptime = details.locator('figure[data-chart="uptime"]');

      for (const window of ['24h', '7d', '30d']) {
        if (window !== '24h') await details.locator(`.window-picker [data-window="${window}"]`).click();
        await details.locator(`.window-picker [data-window="${window}"][aria-pressed="true"]`).waitFor();
        await page.waitForFunction((w) => {
          const plot = document.querySelector('figure[data-chart="response"] .chart-plot');
          return plot?.uplot && plot.uplot.scales.x.max - plot.uplot.scales.x.min > (w === '24h' ? 80_000 : 500_000);
        }, window);
        const history = await api.mustOk('GET', `/api/v1/services/${svc.id}/history?window=${window}`);
        for (const figure of [response, uptime]) {
          const c = await chartState(figure);
          // Exactly the window the server names (its clock; a second or two between the reads).
          assert.ok(Math.abs(c.min - seconds(history.from)) <= 3, `${window} starts at from: ${c.min} vs ${history.from}`);
          assert.ok(Math.abs(c.max - seconds(history.to)) <= 3, `${window} ends at to: ${c.max} vs ${history.to}`);
        }
      }
      await details.locator('.window-picker [data-window="24h"]').click();
      await page.waitForFunction(() => {
        const plot = document.querySelector('figure[data-chart="response"] .chart-plot');
        return plot?.uplot && plot.uplot.scales.x.max - plot.uplot.scales.x.min < 90_000;
      });

      // Away from the chart the legend holds the latest point: a time and response times.
      const still = await chartState(response);
      assert.equal(still.legend.length, 3, 'time, average, p95');
      assert.ok(still.legend.every((v) => v && v !== '--'), `the legend is never empty: ${still.legend}`);
      assert.match(still.legend[1], lang === 'ru' ? /^\d+ мс$/ : /^\d+ ms$/);
      if (lang === 'ru') {
        assert.match(still.legend[0], /\d{1,2}:\d\d$/, 'Russian times are 24-hour');
        assert.doesNotMatch(still.legend[0], /AM|PM/);
      } else {
        assert.match(still.legend[0], /\d{1,2}:\d\d\s?(AM|PM)$/);
      }
      const upLegend = (await chartState(uptime)).legend;
      assert.ok(upLegend.every((v) => v), `the uptime legend is never empty: ${upLegend}`);

      // Under the cursor: the legend names the point there (the last check, at the right edge).
      await response.scrollIntoViewIfNeeded();
      const plotBox = await response.locator('.u-over').boundingBox();
      await page.mouse.move(plotBox.x + plotBox.width - 2, plotBox.y + plotBox.height / 2);
      await page.waitForFunction(() => document.querySelector('figure[data-chart="response"] .chart-plot').uplot.cursor.idx !== null);
      const hovered = await response.evaluate((node) => {
        const u = node.querySelector('.chart-plot').uplot;
        const i = u.cursor.idx;
        return { value: u.data[1][i], legend: node.querySelector('.u-legend .u-series:nth-child(2) .u-value').textContent };
      });
      assert.equal(hovered.legend, lang === 'ru' ? `${hovered.value} мс` : `${hovered.value} ms`);

      // Phones: the legend is a legend (inline items), and nothing is wider than the screen.
      const layout = await details.evaluate((node) => ({
        rows: [...node.querySelectorAll('.u-legend tr')].map((tr) => ({ display: getComputedStyle(tr).display, h: tr.getBoundingClientRect().height })),
        chartRight: Math.max(...[...node.querySelectorAll('.uplot')].map((u) => u.getBoundingClientRect().right)),
        pageWidth: document.documentElement.scrollWidth,
      }));
      assert.ok(layout.rows.every((r) => r.display !== 'block' && r.h < 40), `legend rows are not cards: ${JSON.stringify(layout.rows)}`);
      assert.ok(layout.pageWidth <= viewport.width, `no horizontal scroll: ${layout.pageWidth}`);
      assert.ok(layout.chartRight <= viewport.width, `charts fit the screen: ${layout.chartRight}`);
      await page.mouse.move(0, 0);
      await details.scrollIntoViewIfNeeded();
      await keepScreenshot(page, `charts-${lang}-${viewport.width}`, { fullPage: false });
    }, { token: api.token, lang, contextOptions: { viewport, locale: lang === 'ru' ? 'ru-RU' : 'en-US' } });
  });
}
