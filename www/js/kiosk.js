// Kiosk wallboard: cycles through the caller's services (GET /api/v1/services) at an interval.
// Driven in the browser for now; server-side kiosk state (/kiosk/start|stop|next|previous|state)
// can replace the local timer later without changing the markup.
import { api } from './api.js';
import { t, formatRelative, formatDateTime, formatMs } from './i18n.js';
import { initPage } from './shell.js';
import { el, statusBadge, statusKind } from './ui.js';

const INTERVALS = [5, 10, 15, 30, 60, 120, 300];
const DEFAULT_INTERVAL = 30;
const INTERVAL_KEY = 'dozor.kiosk.interval';
const REFRESH_MS = 30_000;
const TICK_MS = 250;

const state = {
  services: [],
  index: 0,
  interval: DEFAULT_INTERVAL,
  remaining: DEFAULT_INTERVAL * 1000,
  paused: false,
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

function renderStage() {
  const s = current();
  if (!s) { stage.hidden = true; stage.replaceChildren(); return; }
  const kind = statusKind(s.last_status);
  stage.hidden = false;
  stage.replaceChildren(el('article', { class: `spot spot-${kind}`, dataset: { serviceId: s.id, status: kind } },
    el('div', { class: 'spot-status' }, statusBadge(s.last_status, 'badge-xl'),
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
            : t('common.never'))))));
}

function renderTiles() {
  const focusedId = tiles.contains(document.activeElement) ? document.activeElement.dataset.serviceId : null;
  tiles.replaceChildren(...state.services.map((s, i) => {
    const kind = statusKind(s.last_status);
    return el('li', {},
      el('button', {
        type: 'button', class: `tile tile-${kind}`, 'aria-current': i === state.index ? 'true' : null,
        dataset: { serviceId: s.id, status: kind }, onclick: () => go(i),
      },
      el('span', { class: 'tile-name' }, s.name),
      el('span', { class: 'tile-meta' }, statusBadge(s.last_status), el('span', { class: 'tile-ms' }, formatMs(s.last_response_time)))));
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

function resetTimer() {
  state.remaining = state.interval * 1000;
  renderTimer();
}

function go(index) {
  const n = state.services.length;
  if (!n) return;
  state.index = ((index % n) + n) % n;
  resetTimer();
  renderStage();
  renderPosition();
  for (const [i, btn] of [...tiles.querySelectorAll('.tile')].entries()) {
    if (i === state.index) btn.setAttribute('aria-current', 'true');
    else btn.removeAttribute('aria-current');
  }
}

const next = () => go(state.index + 1);
const previous = () => go(state.index - 1);

function setPaused(paused) {
  state.paused = paused;
  pauseBtn.setAttribute('aria-pressed', String(paused));
  document.body.classList.toggle('kiosk-paused', paused);
  renderTimer();
}

function changeInterval(seconds) {
  state.interval = seconds;
  try { localStorage.setItem(INTERVAL_KEY, String(seconds)); } catch { /* ignore */ }
  resetTimer();
}

function tick() {
  if (state.paused || state.services.length === 0) return;
  state.remaining -= TICK_MS;
  if (state.remaining <= 0) next();
  else renderTimer();
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
    const list = await api('/api/v1/services');
    const keep = current()?.id;
    state.services = Array.isArray(list) ? list : [];
    const again = state.services.findIndex((s) => s.id === keep);
    state.index = again >= 0 ? again : Math.min(state.index, Math.max(0, state.services.length - 1));
    $('kiosk-error').hidden = true;
    renderAll();
  } catch (err) {
    if (err.status === 401) return;
    $('kiosk-loading').hidden = true;
    $('kiosk-error').textContent = err.message;
    $('kiosk-error').hidden = false;
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
  document.body.dataset.loaded = 'true';
  setInterval(tick, TICK_MS);
  setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
}

main();
