// Per-service details on the dashboard: a response-time chart and uptime bars drawn with uPlot
// (vendored in www/vendor/uplot, loaded on first use — the list itself needs no chart code),
// for 24 h / 7 d / 30 d (GET /api/v1/services/{id}/history), and the incident list
// (GET /api/v1/services/{id}/incidents). Colours come from the stylesheet's custom properties,
// so both colour schemes work.
import { t, lang, formatDateTime, formatDuration, formatMs } from './i18n.js';
import { checkErrorText } from './messages.js';
import { el } from './ui.js';

const WINDOWS = ['24h', '7d', '30d'];
const WINDOW_SECONDS = { '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 };
const HEIGHT = 180;
const UPLOT_JS = '/vendor/uplot/uPlot.iife.min.js';
const UPLOT_CSS = '/vendor/uplot/uPlot.min.css';

let uplotLoading = null;

/** Loads uPlot once (a same-origin script and stylesheet, as the CSP requires). */
export function loadUplot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  uplotLoading ||= new Promise((resolve, reject) => {
    document.head.append(el('link', { rel: 'stylesheet', href: UPLOT_CSS }));
    const script = el('script', { src: UPLOT_JS });
    script.addEventListener('load', () => resolve(window.uPlot));
    script.addEventListener('error', () => { uplotLoading = null; reject(new Error(t('chart.loadFailed'))); });
    document.head.append(script);
  });
  return uplotLoading;
}

function cssColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

function epoch(iso) {
  return Math.floor(Date.parse(iso) / 1000);
}

/** Response times: avg per point (a check on 24 h, an hour otherwise) and the hourly p95. */
function responseData(points) {
  const xs = [];
  const avg = [];
  const p95 = [];
  for (const p of points) {
    xs.push(epoch(p.t));
    avg.push(p.avg_ms ?? null);
    p95.push(p.p95_ms ?? null);
  }
  return [xs, avg, p95];
}

/**
 * The window's bounds in seconds: the server's `from`/`to` (its clock), else the last 24 h / 7 d
 * / 30 d before now. The time axis spans exactly these, whatever the data (uPlot would otherwise
 * pad one point into years).
 */
function windowRange(history, window) {
  const to = Date.parse(history?.to || '');
  const from = Date.parse(history?.from || '');
  if (!Number.isNaN(to) && !Number.isNaN(from) && to > from) return [Math.floor(from / 1000), Math.floor(to / 1000)];
  const now = Math.floor(Date.now() / 1000);
  return [now - WINDOW_SECONDS[window], now];
}

/**
 * Uptime bars from the server's `uptime_buckets` (the one uptime definition: watched time not
 * down, docs/monitoring.md), a bar per hour (24 h, 7 d) or day (30 d); a bucket with down time
 * in the outage colour.
 */
function bucketData(buckets) {
  const xs = [];
  const good = [];
  const bad = [];
  let observed = 0;
  let down = 0;
  for (const b of buckets) {
    xs.push(epoch(b.t));
    const pct = b.uptime ?? null;
    good.push(pct !== null && !(b.down_ms > 0) ? pct : null);
    bad.push(pct !== null && b.down_ms > 0 ? Math.max(pct, 2) : null);
    observed += Number(b.observed_ms) || 0;
    down += Number(b.down_ms) || 0;
  }
  return { data: [xs, good, bad], observed, down };
}

/** Uptime per bucket (an hour for 24 h and 7 d, a day for 30 d): percent of successful checks. */
function uptimeData(points, window) {
  const size = window === '30d' ? 86400 : 3600;
  const buckets = new Map();
  for (const p of points) {
    const at = Math.floor(epoch(p.t) / size) * size;
    const b = buckets.get(at) || { checks: 0, failures: 0 };
    b.checks += Number(p.checks) || 0;
    b.failures += Number(p.failures) || 0;
    buckets.set(at, b);
  }
  const xs = [...buckets.keys()].sort((a, b) => a - b);
  const good = [];
  const bad = [];
  for (const x of xs) {
    const b = buckets.get(x);
    const pct = b.checks ? Math.round(((b.checks - b.failures) / b.checks) * 1000) / 10 : null;
    // Two series so a bucket with failures stands out in the outage colour.
    good.push(pct !== null && b.failures === 0 ? pct : null);
    bad.push(pct !== null && b.failures > 0 ? Math.max(pct, 2) : null);
  }
  return { data: [xs, good, bad], buckets, xs, size };
}

// Axis labels in the page's language (24-hour in Russian): times within a day, dates beyond.
const timeOnly = new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short' });
const dayTime = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });

function timeLabels(u, splits) {
  const span = (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0);
  const fmt = span <= 2 * 86_400 ? timeOnly : dayMonth;
  return splits.map((v) => (v === null ? '' : fmt.format(new Date(v * 1000))));
}

function axes(unit) {
  const stroke = cssColor('--muted');
  const grid = { stroke: cssColor('--border'), width: 1 };
  return [
    // space: at least this many pixels per label, so labels never overlap (phones included).
    { stroke, grid, ticks: grid, space: 72, values: timeLabels },
    { stroke, grid, ticks: grid, size: 60, values: (u, vals) => vals.map((v) => (v === null ? '' : `${v}${unit}`)) },
  ];
}

/** The legend's time: the point under the cursor, to the minute, in the page's language. */
function legendTime(u, v) {
  return v === null || v === undefined ? t('common.dash') : dayTime.format(new Date(v * 1000));
}

/**
 * The legend shows the values under the cursor; away from the chart, the latest point's (never
 * an empty legend). Each chart keeps its uPlot on the node (`node.uplot`) for the tests.
 */
function legendFollowsCursor(data) {
  const last = () => {
    for (let i = data[0].length - 1; i >= 0; i -= 1) if (data.slice(1).some((ys) => ys[i] !== null)) return i;
    return data[0].length - 1;
  };
  return {
    ready: [(u) => { u.root.parentNode.uplot = u; u.setLegend({ idx: last() }); }],
    setCursor: [(u) => { if (u.cursor.idx === null || u.cursor.idx === undefined) u.setLegend({ idx: last() }); }],
  };
}

function responseChart(uPlot, target, data, width, range) {
  return new uPlot({
    width,
    height: HEIGHT,
    // Seconds since 1970 on x (uPlot's default unit), fixed to the window.
    scales: { x: { time: true, range: () => range }, y: { range: (u, min, max) => [0, Math.max(10, (max ?? 0) * 1.1)] } },
    axes: axes(` ${t('chart.msUnit')}`),
    legend: { live: true },
    hooks: legendFollowsCursor(data),
    series: [
      { label: t('chart.time'), value: legendTime },
      { label: t('chart.avg'), stroke: cssColor('--accent'), width: 2, spanGaps: true, value: (u, v) => formatMs(v) },
      { label: t('chart.p95'), stroke: cssColor('--warn'), width: 1, dash: [4, 4], spanGaps: true, value: (u, v) => formatMs(v) },
    ],
  }, data, target);
}

function uptimeChart(uPlot, target, data, width, range) {
  const bars = uPlot.paths.bars({ size: [0.8, 24], align: 1 });
  const pct = (u, v) => (v === null || v === undefined ? t('common.dash') : `${Number(v).toLocaleString(lang)} %`);
  return new uPlot({
    width,
    height: HEIGHT,
    scales: { x: { time: true, range: () => range }, y: { range: [0, 100] } },
    axes: axes(' %'),
    legend: { live: true },
    hooks: legendFollowsCursor(data),
    series: [
      { label: t('chart.time'), value: legendTime },
      { label: t('chart.uptimeFull'), fill: cssColor('--up'), stroke: cssColor('--up'), paths: bars, points: { show: false }, value: pct },
      { label: t('chart.uptimeFailures'), fill: cssColor('--down'), stroke: cssColor('--down'), paths: bars, points: { show: false }, value: pct },
    ],
  }, data, target);
}

function incidentList(list) {
  if (!list.length) return el('p', { class: 'muted', dataset: { testid: 'no-incidents' } }, t('inc.none'));
  return el('div', { class: 'table-wrap' }, el('table', { class: 'table table-compact' },
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, t('inc.started')), el('th', { scope: 'col' }, t('inc.ended')),
      el('th', { scope: 'col', class: 'num' }, t('inc.duration')), el('th', { scope: 'col' }, t('inc.cause')))),
    el('tbody', {}, list.map((i) => {
      const cause = checkErrorText(i.cause, null, lang);
      return el('tr', { dataset: { incidentId: i.id } },
        el('td', {}, formatDateTime(i.started_at)),
        el('td', {}, i.ended_at ? formatDateTime(i.ended_at) : el('span', { class: 'tag tag-off' }, t('inc.ongoing'))),
        el('td', { class: 'num' }, formatDuration((i.duration_seconds ?? 0) * 1000)),
        el('td', { title: cause?.original || null }, cause ? cause.text : t('common.dash')));
    }))));
}

/**
 * Draws the details of service s into box: window picker, two charts, incidents.
 * Returns nothing; errors are shown in the box.
 */
export function renderDetails(box, s, { api }) {
  let span = '24h';
  let plots = [];
  const status = el('p', { class: 'muted small chart-status', role: 'status' });
  const picker = el('div', { class: 'btn-row window-picker', role: 'group', 'aria-label': t('chart.window') },
    WINDOWS.map((w) => el('button', {
      type: 'button', class: 'btn btn-sm btn-ghost', dataset: { window: w }, 'aria-pressed': String(w === span),
      onclick: () => { span = w; drawCharts(); },
    }, t(`chart.window.${w}`))));
  const rtPlot = el('div', { class: 'chart-plot', role: 'img' });
  const upPlot = el('div', { class: 'chart-plot', role: 'img' });
  const incidents = el('div', { class: 'incidents-body' }, el('p', { class: 'muted' }, t('common.loading')));
  box.replaceChildren(
    el('h3', { class: 'details-title' }, t('svc.detailsTitle', { name: s.name })),
    picker,
    status,
    el('div', { class: 'charts' },
      el('figure', { class: 'chart', dataset: { chart: 'response' } }, el('figcaption', {}, t('chart.response')), rtPlot),
      el('figure', { class: 'chart', dataset: { chart: 'uptime' } }, el('figcaption', {}, t('chart.uptime')), upPlot)),
    el('section', { class: 'incidents' }, el('h4', {}, t('inc.heading')), incidents),
  );

  const resize = new ResizeObserver(() => {
    for (const [plot, node] of plots) {
      const width = node.clientWidth;
      if (width > 0 && Math.abs(width - plot.width) > 4) plot.setSize({ width, height: HEIGHT });
    }
  });
  resize.observe(rtPlot);
  resize.observe(upPlot);

  async function drawCharts() {
    for (const b of picker.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.window === span));
    status.textContent = t('common.loading');
    let history;
    let uPlot;
    const asked = span;
    try {
      [history, uPlot] = await Promise.all([
        api(`/api/v1/services/${s.id}/history?window=${asked}`, { redirectOn401: false }),
        loadUplot(),
      ]);
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    if (asked !== span || !box.isConnected) return; // another window was chosen meanwhile
    for (const [plot] of plots) plot.destroy();
    plots = [];
    rtPlot.replaceChildren();
    upPlot.replaceChildren();
    const points = Array.isArray(history?.points) ? history.points : [];
    if (!points.length) {
      status.textContent = t('chart.empty');
      rtPlot.setAttribute('aria-label', t('chart.empty'));
      upPlot.setAttribute('aria-label', t('chart.empty'));
      return;
    }
    status.textContent = '';
    const rt = responseData(points);
    const times = rt[1].filter((v) => v !== null);
    const avg = times.length ? Math.round(times.reduce((a, b) => a + b, 0) / times.length) : null;
    rtPlot.setAttribute('aria-label', t('chart.responseSummary', {
      window: t(`chart.window.${asked}`), avg: formatMs(avg), max: formatMs(times.length ? Math.max(...times) : null),
    }));
    const range = windowRange(history, asked);
    let checks = 0;
    let failures = 0;
    for (const p of points) { checks += Number(p.checks) || 0; failures += Number(p.failures) || 0; }
    let upData;
    if (Array.isArray(history.uptime_buckets)) {
      // The server's uptime (the figure the summary, the kiosk and the status page show).
      upData = bucketData(history.uptime_buckets).data;
      upPlot.setAttribute('aria-label', t('chart.uptimeSummary', {
        window: t(`chart.window.${asked}`),
        pct: history.uptime === null || history.uptime === undefined ? t('common.dash') : Number(history.uptime).toLocaleString(lang),
        failures,
      }));
    } else {
      upData = uptimeData(points, asked).data;
      upPlot.setAttribute('aria-label', t('chart.uptimeSummary', {
        window: t(`chart.window.${asked}`),
        pct: checks ? (Math.round(((checks - failures) / checks) * 10000) / 100).toLocaleString(lang) : '—',
        failures,
      }));
    }
    const width = (node) => node.clientWidth || box.clientWidth || 600;
    plots.push([responseChart(uPlot, rtPlot, rt, width(rtPlot), range), rtPlot]);
    plots.push([uptimeChart(uPlot, upPlot, upData, width(upPlot), range), upPlot]);
  }

  async function drawIncidents() {
    try {
      const list = await api(`/api/v1/services/${s.id}/incidents`, { redirectOn401: false });
      incidents.replaceChildren(incidentList(Array.isArray(list) ? list : []));
    } catch (err) {
      incidents.replaceChildren(el('p', { class: 'notice notice-error' }, err.message));
    }
  }

  drawCharts();
  drawIncidents();
}
