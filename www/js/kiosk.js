// Kiosk wallboard: shows the caller's services (GET /api/v1/services) one at a time, in step with
// the server's kiosk state (/api/v1/kiosk/start|stop|next|previous|state), so every screen of a
// user shows the same site. When the server cannot be reached (network loss, an expired
// session) it keeps cycling on its own with the data it has, and says so.
import { api } from './api.js';
import { t, lang, formatRelative, formatDateTime, formatMs } from './i18n.js';
import { initPage } from './shell.js';
import { el, statusBadge, statusKind, gradeBadge } from './ui.js';
import { loadUplot } from './charts.js';

const INTERVALS = [5, 10, 15, 30, 60, 120, 300];
const DEFAULT_INTERVAL = 30;
const INTERVAL_KEY = 'dozor.kiosk.interval';
const REFRESH_MS = 30_000;
const TICK_MS = 250;
const SPARK_TTL_MS = 60_000;
const CERT_WARN_DAYS = 14;

const state = {
  services: [],
  index: 0,
  interval: DEFAULT_INTERVAL,
  remaining: DEFAULT_INTERVAL * 1000,
  switchAt: 0, // local clock time of the next switch
  paused: false,
  offline: false, // the last kiosk call failed: cycling locally
  syncing: false,
  uptime: new Map(), // service id → uptime_24h from the analytics summary
  sparks: new Map(), // service id → { at, data } of its 24 h history
  grades: new Map(), // service id → its latest stored audit (/api/v1/audit/services; the kiosk state adds findings)
  order: [], // the server's rotation (kiosk state `order`): problems first
};

const $ = (id) => document.getElementById(id);
const stage = $('kiosk-stage');
const tiles = $('kiosk-tiles');
const progress = $('kiosk-progress');
const pauseBtn = $('kiosk-pause');
const intervalSelect = $('kiosk-interval');

function readInterval() {
  const fromQuery = Number.parseInt(new URLSearchParams(location.search).get('interval') || '', 10);
  if (Number.isInteger(fromQuery) && fromQuery >= 5 && fromQuery <= 3600) return fromQuery;
  try {
    const saved = Number.parseInt(localStorage.getItem(INTERVAL_KEY) || '', 10);
    if (INTERVALS.includes(saved)) return saved;
  } catch { /* ignore */ }
  return DEFAULT_INTERVAL;
}

function fillIntervals() {
  const values = INTERVALS.includes(state.interval) ? INTERVALS : [...INTERVALS, state.interval].sort((a, b) => a - b);
  intervalSelect.replaceChildren(...values.map((n) =>
    el('option', { value: n, selected: n === state.interval }, t('kiosk.seconds', { n }))));
  intervalSelect.value = String(state.interval);
}

/* ---- drawing -------------------------------------------------------------------------------- */

function current() {
  return state.services[state.index] || null;
}

/** The kiosk's kind of a site: down (confirmed), pending (a failure being re-checked), up, unknown. */
function kindOf(s) {
  if (s.is_active && s.state === 'down') return 'down';
  if (s.is_active && s.pending) return 'pending';
  if (s.state === 'up') return 'up';
  return statusKind(s.last_status);
}

function badgeFor(s, extra = '') {
  const kind = kindOf(s);
  if (kind !== 'pending') return statusBadge(kind, extra);
  return el('span', { class: `badge badge-pending ${extra}`.trim(), dataset: { status: kind } },
    el('span', { class: 'badge-dot', 'aria-hidden': 'true' }), t('status.pending'));
}

/** Sites in the server's rotation order (problems first); ones it does not name yet, after. */
function ordered(list) {
  if (!state.order.length) return list;
  const at = new Map(state.order.map((id, i) => [id, i]));
  return [...list].sort((a, b) => (at.get(a.id) ?? Infinity) - (at.get(b.id) ?? Infinity) || a.id - b.id);
}

function isDown(s) {
  // The monitor's debounced state: one failed check is not an outage on a wallboard.
  return s.is_active && (s.state ? s.state === 'down' : s.last_status === 'down');
}

function renderAlert() {
  const down = state.services.filter(isDown);
  const box = $('kiosk-alert');
  box.hidden = down.length === 0;
  box.textContent = down.length ? t('kiosk.alert', { n: down.length, names: down.map((s) => s.name).join(', ') }) : '';
  document.body.classList.toggle('kiosk-alerting', down.length > 0);
}

function certText(s) {
  if (!s.cert_expires_at) return '—';
  const days = Math.floor((Date.parse(s.cert_expires_at) - Date.now()) / 86_400_000);
  return days < 0 ? t('kiosk.certExpired') : t('kiosk.certDays', { n: days });
}

function certWarn(s) {
  return Boolean(s.cert_expires_at) && Date.parse(s.cert_expires_at) - Date.now() < CERT_WARN_DAYS * 86_400_000;
}

// The current service's last 24 h of response times, drawn small with uPlot (no axes).
async function drawSparkline(s, box) {
  try {
    let cached = state.sparks.get(s.id);
    if (!cached || Date.now() - cached.at > SPARK_TTL_MS) {
      const h = await api(`/api/v1/services/${s.id}/history?window=24h`, { redirectOn401: false });
      const points = Array.isArray(h?.points) ? h.points : [];
      cached = { at: Date.now(), data: [points.map((p) => Math.floor(Date.parse(p.t) / 1000)), points.map((p) => p.avg_ms ?? null)] };
      state.sparks.set(s.id, cached);
    }
    if (current()?.id !== s.id || !box.isConnected) return; // moved on meanwhile
    if (cached.data[0].length < 2) { box.dataset.points = String(cached.data[0].length); return; }
    const uPlot = await loadUplot();
    const color = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#888';
    box.replaceChildren();
    // eslint-disable-next-line no-new
    new uPlot({
      width: Math.max(200, box.clientWidth || 600), height: 80, legend: { show: false }, cursor: { show: false },
      axes: [{ show: false }, { show: false }], scales: { x: { time: true } },
      series: [{}, { stroke: color, width: 2, spanGaps: true }],
    }, cached.data, box);
    box.dataset.points = String(cached.data[0].length);
  } catch { /* no sparkline is better than a broken wallboard */ }
}

// The open high and critical findings of the site's latest audit (known for the site the kiosk
// state names: it carries them), so a wall shows what to fix, not only a letter.
function seriousList(audit) {
  const items = audit?.serious_findings || [];
  if (!items.length) return null;
  return el('div', { class: 'spot-findings', dataset: { metric: 'serious' } },
    el('h3', { class: 'visually-hidden' }, t('kiosk.serious')),
    el('ul', { class: 'spot-serious' }, ...items.map((f) =>
      el('li', { dataset: { severity: f.severity } }, el('strong', {}, t(`sec.sev.${f.severity}`)), ' ', f.title))));
}

function renderStage() {
  const s = current();
  renderAlert();
  if (!s) { stage.hidden = true; stage.replaceChildren(); return; }
  const kind = kindOf(s);
  stage.hidden = false;
  stage.replaceChildren(el('article', { class: `spot spot-${kind}`, dataset: { serviceId: s.id, status: kind } },
    el('div', { class: 'spot-status' }, badgeFor(s, 'badge-xl'),
      s.is_active ? null : el('span', { class: 'tag' }, t('svc.inactive'))),
    el('h2', { class: 'spot-name' }, s.name),
    el('p', { class: 'spot-url' }, s.url),
    el('dl', { class: 'spot-metrics' },
      el('div', { class: 'spot-metric' },
        el('dt', {}, t('kiosk.response')),
        el('dd', { dataset: { metric: 'response' } }, formatMs(s.last_response_time))),
      el('div', { class: 'spot-metric' },
        el('dt', {}, t('kiosk.checked')),
        el('dd', { dataset: { metric: 'checked' } },
          s.last_checked_at
            ? el('time', { datetime: s.last_checked_at, title: formatDateTime(s.last_checked_at) }, formatRelative(s.last_checked_at))
            : t('common.never'))),
      el('div', { class: 'spot-metric' },
        el('dt', {}, t('kiosk.uptime')),
        el('dd', { dataset: { metric: 'uptime' } },
          state.uptime.get(s.id) == null ? '—'
            : `${Number(state.uptime.get(s.id)).toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`)),
      el('div', { class: `spot-metric${certWarn(s) ? ' spot-metric-warn' : ''}` },
        el('dt', {}, t('kiosk.cert')),
        el('dd', { dataset: { metric: 'cert' } }, certText(s))),
      el('div', { class: 'spot-metric' },
        el('dt', {}, t('kiosk.security')),
        el('dd', { dataset: { metric: 'grade' } }, gradeBadge(state.grades.get(s.id), 'grade-chip-xl')
          || el('span', { class: 'spot-none' }, t('grade.none'))))),
    seriousList(state.grades.get(s.id)),
    el('div', { class: 'spot-spark', role: 'img', 'aria-label': t('kiosk.spark'), dataset: { metric: 'sparkline' } })));
  drawSparkline(s, stage.querySelector('.spot-spark'));
}

function renderTiles() {
  const focusedId = tiles.contains(document.activeElement) ? document.activeElement.dataset.serviceId : null;
  tiles.replaceChildren(...state.services.map((s, i) => {
    const kind = kindOf(s);
    return el('li', {},
      el('button', {
        type: 'button', class: `tile tile-${kind}`, 'aria-current': i === state.index ? 'true' : null,
        dataset: { serviceId: s.id, status: kind }, onclick: () => go(i),
      },
      el('span', { class: 'tile-name' }, s.name),
      el('span', { class: 'tile-meta' }, badgeFor(s), gradeBadge(state.grades.get(s.id)),
        el('span', { class: 'tile-ms' }, formatMs(s.last_response_time)))));
  }));
  if (focusedId) tiles.querySelector(`.tile[data-service-id="${focusedId}"]`)?.focus();
}

function renderPosition() {
  const n = state.services.length;
  $('kiosk-position').textContent = n ? t('kiosk.position', { i: state.index + 1, n }) : '';
}

function renderTimer() {
  const total = state.interval * 1000;
  progress.value = Math.round(((total - state.remaining) / total) * 1000);
  $('kiosk-countdown').textContent = state.paused
    ? t('kiosk.paused')
    : t('kiosk.nextIn', { n: Math.max(0, Math.ceil(state.remaining / 1000)) });
}

function renderAll() {
  const empty = state.services.length === 0;
  $('kiosk-loading').hidden = true;
  $('kiosk-empty').hidden = !empty;
  for (const id of ['kiosk-prev', 'kiosk-next', 'kiosk-pause']) $(id).disabled = empty;
  renderStage();
  renderTiles();
  renderPosition();
  renderTimer();
}

/* ---- navigation ----------------------------------------------------------------------------- */

function show(index) {
  const n = state.services.length;
  if (!n) return;
  state.index = ((index % n) + n) % n;
  renderStage();
  renderPosition();
  for (const [i, btn] of [...tiles.querySelectorAll('.tile')].entries()) {
    if (i === state.index) btn.setAttribute('aria-current', 'true');
    else btn.removeAttribute('aria-current');
  }
}

function restartLocalTimer() {
  state.switchAt = Date.now() + state.interval * 1000;
  state.remaining = state.interval * 1000;
  renderTimer();
}

// Adopts a kiosk state answered by the server.
function apply(k) {
  state.offline = false;
  $('kiosk-error').hidden = true;
  state.interval = k.interval || state.interval;
  fillIntervals();
  if (Array.isArray(k.order) && k.order.join() !== state.order.join()) {
    // The rotation changed (a site went down or came back): list the tiles the same way.
    state.order = k.order;
    const keep = current()?.id;
    state.services = ordered(state.services);
    state.index = Math.max(0, state.services.findIndex((s) => s.id === keep));
    renderTiles();
  }
  setPausedView(!k.running);
  if (k.current_service) {
    if (k.current_service.audit) state.grades.set(k.current_service.id, k.current_service.audit);
    const i = state.services.findIndex((s) => s.id === k.current_service.id);
    if (i >= 0) show(i);
  }
  if (k.running && k.next_switch_at && k.server_time) {
    // The server's clock decides; only the distance to the switch is taken from it.
    state.switchAt = Date.now() + (Date.parse(k.next_switch_at) - Date.parse(k.server_time));
  } else {
    state.switchAt = Date.now() + state.interval * 1000;
  }
  state.remaining = Math.max(0, state.switchAt - Date.now());
  renderTimer();
}

function offline(err) {
  state.offline = true;
  $('kiosk-error').textContent = err.status === 401 ? t('login.expired') : err.message;
  $('kiosk-error').hidden = false;
}

async function kiosk(action, query = '') {
  const path = action === 'state' ? '/api/v1/kiosk/state' : `/api/v1/kiosk/${action}${query}`;
  try {
    apply(await api(path, { method: action === 'state' ? 'GET' : 'POST', redirectOn401: false }));
    return true;
  } catch (err) {
    offline(err);
    return false;
  }
}

async function step(delta) {
  if (!state.services.length) return;
  if (await kiosk(delta > 0 ? 'next' : 'previous')) return;
  show(state.index + delta); // server away: move here, it will catch up later
  restartLocalTimer();
}

const next = () => step(1);
const previous = () => step(-1);

// A tile: as many steps as the shorter way round.
async function go(index) {
  const n = state.services.length;
  let delta = (((index - state.index) % n) + n) % n;
  if (delta > n / 2) delta -= n;
  for (let i = 0; i < Math.abs(delta); i += 1) await step(Math.sign(delta));
}

function setPausedView(paused) {
  state.paused = paused;
  pauseBtn.setAttribute('aria-pressed', String(paused));
  pauseBtn.textContent = paused ? t('kiosk.resume') : t('kiosk.pause');
  document.body.classList.toggle('kiosk-paused', paused);
  renderTimer();
}

async function setPaused(paused) {
  setPausedView(paused);
  await kiosk(paused ? 'stop' : 'start', paused ? '' : `?interval=${state.interval}`);
  if (state.offline) { setPausedView(paused); restartLocalTimer(); }
}

async function changeInterval(seconds) {
  state.interval = seconds;
  try { localStorage.setItem(INTERVAL_KEY, String(seconds)); } catch { /* ignore */ }
  if (!state.paused) await kiosk('start', `?interval=${seconds}`);
  else restartLocalTimer();
}

async function tick() {
  if (state.paused || state.services.length === 0) return;
  state.remaining = state.switchAt - Date.now();
  if (state.remaining > 0) { renderTimer(); return; }
  if (state.syncing) return;
  state.syncing = true;
  try {
    // The server has moved on by itself; ask where to. Offline: move here.
    if (!(await kiosk('state'))) { show(state.index + 1); restartLocalTimer(); }
  } finally {
    state.syncing = false;
  }
}

async function toggleFullscreen() {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch { /* not allowed (e.g. iframe): ignore */ }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === 'SELECT' || tag === 'INPUT' || tag === 'TEXTAREA') return;
  switch (event.key) {
    case 'ArrowRight': case 'PageDown': next(); break;
    case 'ArrowLeft': case 'PageUp': previous(); break;
    case ' ': case 'Spacebar':
      if (tag === 'BUTTON' || tag === 'A') return; // let Space activate the focused control
      setPaused(!state.paused); break;
    case 'f': case 'F': toggleFullscreen(); break;
    default: return;
  }
  event.preventDefault();
}

/* ---- data ----------------------------------------------------------------------------------- */

async function load() {
  try {
    const list = await api('/api/v1/services', { redirectOn401: false });
    try {
      const summary = await api('/api/v1/analytics/summary', { redirectOn401: false });
      state.uptime = new Map((summary?.services || []).map((r) => [r.id, r.uptime_24h]));
    } catch { /* uptime is a detail: the wallboard goes on without it */ }
    try {
      const grades = await api('/api/v1/audit/services', { redirectOn401: false });
      for (const r of Array.isArray(grades) ? grades : []) {
        const known = state.grades.get(r.service_id);
        // Keep the findings the kiosk state gave for the same audit.
        if (!r.audit) state.grades.delete(r.service_id);
        else if (!known || known.audit_id !== r.audit.audit_id) state.grades.set(r.service_id, r.audit);
      }
    } catch { /* so are grades */ }
    const keep = current()?.id;
    // Only what the kiosk rotates through (active sites), in the server's order.
    state.services = ordered((Array.isArray(list) ? list : []).filter((s) => s.is_active !== false));
    const again = state.services.findIndex((s) => s.id === keep);
    state.index = again >= 0 ? again : Math.min(state.index, Math.max(0, state.services.length - 1));
    if (!state.offline) $('kiosk-error').hidden = true;
    renderAll();
  } catch (err) {
    $('kiosk-loading').hidden = true;
    offline(err); // keep showing what we have
  }
}

async function main() {
  await initPage({ topbar: false });
  state.interval = readInterval();
  state.remaining = state.interval * 1000;
  fillIntervals();
  $('kiosk-prev').addEventListener('click', previous);
  $('kiosk-next').addEventListener('click', next);
  pauseBtn.addEventListener('click', () => setPaused(!state.paused));
  intervalSelect.addEventListener('change', () => changeInterval(Number(intervalSelect.value)));
  $('kiosk-fullscreen').addEventListener('click', toggleFullscreen);
  document.addEventListener('keydown', onKey);
  await load();
  // Join the server's kiosk; start it (with this screen's interval) when it is not running.
  if (await kiosk('state') && state.paused) {
    await kiosk('start', `?interval=${readInterval()}`);
  } else if (state.offline) {
    restartLocalTimer();
  }
  document.body.dataset.loaded = 'true';
  setInterval(tick, TICK_MS);
  setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
}

main();
