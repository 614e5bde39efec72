// Dashboard: the caller's services, problems first (down, then pending, slow, certificate
// warnings, then the rest), with search, state and group filters, grouping with collapsible groups, pages of
// PAGE_SIZE rows (1,000 services stay quick), "Check all" bounded like the server's check slots,
// edit and pause per service, per-service charts and incidents, and a banner with the age of the
// data when the API cannot be reached (the last data stays on screen).
//
// API: GET/POST /api/v1/services, PUT/DELETE /api/v1/services/{id}, POST …/{id}/check,
// GET …/{id}/history?window=…, GET …/{id}/incidents, GET /api/v1/analytics/summary (p95 per
// service), GET/POST /api/v1/groups (the groups panel: js/groups.js). Fields added later (state,
// down_since, slow_ms, group_id, pending …) are feature-detected: without them the page falls
// back to last_status and hides their controls.
import { api } from './api.js';
import { t, lang, formatRelative, formatDateTime, formatMs, formatDuration } from './i18n.js';
import { checkErrorText } from './messages.js';
import { initPage } from './shell.js';
import {
  el, statusBadge, statusKind, toast, busy, isBusy, confirmDialog, clearErrors, showErrors, linkFieldDescriptions,
  openDialog, gradeBadge,
} from './ui.js';
import { renderDetails } from './charts.js';
import { initGroups, renderGroups } from './groups.js';

const API = '/api/v1/services';
const REFRESH_MS = 30_000;
// While a failure waits for its re-check (≤ 10 s) or a new service for its first check, the
// list is read again this often, so the page follows the monitor instead of lagging 30 s.
const FAST_REFRESH_MS = 4_000;
const PAGE_SIZE = 50;
const CHECK_ALL_PARALLEL = 2; // the server's default check slots per user (limits.check_slots_per_user)
const CERT_WARN_DAYS = 14;
const DAY_MS = 86_400_000;
const COLUMNS = 6;

const state = {
  services: [],
  results: new Map(), // service id → last OneShotResult (or {requestError} / {busy}) seen on this page
  p95: new Map(), // service id → p95 response time of the last 24 h (analytics summary)
  grades: new Map(), // service id → its latest stored audit (GET /api/v1/audit/services)
  groups: [],
  groupsSupported: false,
  loaded: false,
  loadedAt: 0, // Date.now() of the data on screen
  failedAt: 0,
  filter: { q: '', state: 'all', group: 'all', grouped: false },
  collapsed: new Set(), // group keys
  open: new Set(), // service ids with their details row open
  page: 0,
  checkAll: null,
  editing: null,
};

const detailBoxes = new Map(); // service id → its details box while open

const $ = (id) => document.getElementById(id);
const body = $('services-body');
const table = $('services-table');
const form = $('add-service');
const filters = $('list-filters');
const editDialog = $('edit-dialog');
const editForm = $('edit-service');

/* ---- classification ------------------------------------------------------------------------- */

/** up / down / unknown: the debounced `state` when the server has one, else the last check. */
function health(s) {
  if (s.state === 'up' || s.state === 'down') return s.state;
  return statusKind(s.last_status);
}

/** The threshold above which a response is slow: slow_ms, else the service's own 24 h p95. */
function slowThreshold(s) {
  if (Number.isFinite(s.slow_ms) && s.slow_ms > 0) return { ms: s.slow_ms, source: 'slow_ms' };
  const p95 = state.p95.get(s.id);
  return Number.isFinite(p95) && p95 > 0 ? { ms: p95, source: 'p95' } : null;
}

function isSlow(s) {
  const limit = slowThreshold(s);
  return health(s) === 'up' && limit !== null && Number.isFinite(s.last_response_time) && s.last_response_time > limit.ms;
}

function certDaysLeft(s, now = Date.now()) {
  if (!s.cert_expires_at) return null;
  const at = Date.parse(s.cert_expires_at);
  return Number.isNaN(at) ? null : (at - now) / DAY_MS;
}

function certWarning(s) {
  const days = certDaysLeft(s);
  return days !== null && days < CERT_WARN_DAYS;
}

/**
 * The latest check failed but the monitor has not confirmed an outage (the server's `pending`;
 * for servers without it: a failed last check of a service whose debounced state is not down).
 */
function isPending(s) {
  if (s.is_active === false) return false;
  if (typeof s.pending === 'boolean') return s.pending;
  return s.state !== undefined && s.state !== 'down' && s.last_status === 'down';
}

/** The row's state: down, pending, slow, up, unknown or paused (cert warnings are a flag beside it). */
function kindOf(s) {
  if (s.is_active === false) return 'paused';
  if (isPending(s)) return 'pending';
  const h = health(s);
  if (h === 'up' && isSlow(s)) return 'slow';
  return h;
}

/** 0 down, 1 pending, 2 slow, 3 certificate warning, 4 the rest, 5 paused: problems first. */
function rank(s) {
  const k = kindOf(s);
  if (k === 'down') return 0;
  if (k === 'pending') return 1;
  if (k === 'slow') return 2;
  if (k !== 'paused' && certWarning(s)) return 3;
  return k === 'paused' ? 5 : 4;
}

const collator = new Intl.Collator(lang, { sensitivity: 'base', numeric: true });

function compare(a, b) {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) { // the longest outage first
    const da = Date.parse(a.down_since || '') || Infinity;
    const db = Date.parse(b.down_since || '') || Infinity;
    if (da !== db) return da - db;
  } else if (ra === 2) { // the furthest over its threshold first
    const oa = a.last_response_time / slowThreshold(a).ms;
    const ob = b.last_response_time / slowThreshold(b).ms;
    if (oa !== ob) return ob - oa;
  } else if (ra === 3) {
    const diff = certDaysLeft(a) - certDaysLeft(b);
    if (diff) return diff;
  }
  return collator.compare(a.name, b.name) || a.id - b.id;
}

/* ---- filtering, grouping, pages ------------------------------------------------------------- */

function groupKey(s) {
  return s.group_id === null || s.group_id === undefined ? 'none' : String(s.group_id);
}

function groupName(key) {
  if (key === 'none') return t('dash.noGroup');
  const g = state.groups.find((x) => String(x.id) === key);
  return g ? g.name : t('dash.groupN', { id: key });
}

function matches(s) {
  const f = state.filter;
  if (f.q) {
    const q = f.q.toLocaleLowerCase(lang);
    if (!s.name.toLocaleLowerCase(lang).includes(q) && !s.url.toLocaleLowerCase(lang).includes(q)) return false;
  }
  if (f.group !== 'all' && groupKey(s) !== f.group) return false;
  const k = kindOf(s);
  switch (f.state) {
    case 'all': return true;
    case 'problems': return rank(s) <= 3;
    case 'cert': return certWarning(s);
    default: return k === f.state;
  }
}

function filtered() {
  return state.services.filter(matches).sort(compare);
}

/** Rows to draw: services, and group headers when grouping (collapsed groups keep only the header). */
function items(list) {
  if (!state.filter.grouped || !state.groupsSupported) return list.map((s) => ({ service: s }));
  const byGroup = new Map();
  for (const s of list) {
    const key = groupKey(s);
    if (!byGroup.has(key)) byGroup.set(key, []);
    byGroup.get(key).push(s);
  }
  // Groups in the order of their worst service (list is sorted problems first), "no group" last.
  const keys = [...byGroup.keys()].sort((a, b) => (a === 'none') - (b === 'none'));
  const out = [];
  for (const key of keys) {
    const members = byGroup.get(key);
    const collapsed = state.collapsed.has(key);
    out.push({ group: key, members });
    if (!collapsed) for (const s of members) out.push({ service: s });
  }
  return out;
}

/* ---- drawing -------------------------------------------------------------------------------- */

function column(key, ...content) {
  return el('td', { dataset: { label: t(key) } }, ...content);
}

/** Seconds until an ISO time (at least 0), or null. */
function secondsUntil(iso) {
  const at = Date.parse(iso || '');
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function timeCell(s) {
  const value = s.last_checked_at;
  if (value) {
    return el('time', { datetime: value, title: formatDateTime(value), dataset: { relative: '' } }, formatRelative(value));
  }
  if (s.is_active === false) return el('span', { class: 'muted' }, t('common.never'));
  // Never checked yet: say when it will be, not just "never".
  const wait = secondsUntil(s.next_check_at);
  return el('span', { class: 'muted', dataset: { field: 'first-check' } },
    wait ? t('svc.firstCheckIn', { seconds: wait }) : t('svc.firstCheckSoon'));
}

function resultLine(service) {
  const r = state.results.get(service.id);
  if (!r) return null;
  if (r.busy) {
    // The check slots are taken (429): nothing is known about the site, so no outage colours.
    return el('div', { class: 'check-result check-result-busy', role: 'status', dataset: { testid: 'check-busy' } },
      r.retryAfter !== null && r.retryAfter !== undefined
        ? t('svc.busy', { seconds: r.retryAfter }) : t('svc.busyLater'));
  }
  if (r.requestError) {
    return el('div', { class: 'check-result check-result-error', role: 'status' }, r.requestError);
  }
  const parts = [
    t(r.is_available ? 'svc.resultUp' : 'svc.resultDown'),
    r.status_code !== null && r.status_code !== undefined
      ? t('svc.resultHttp', { code: r.status_code }) : t('svc.resultNoCode'),
  ];
  if (r.response_time_ms !== null && r.response_time_ms !== undefined) parts.push(formatMs(r.response_time_ms));
  const why = checkErrorText(r.error, r.status_code, lang);
  if (why) parts.push(why.text);
  return el('div', {
    class: `check-result ${r.is_available ? 'check-result-ok' : 'check-result-error'}`,
    role: 'status',
    title: why && why.original ? why.original : null,
    dataset: { testid: 'check-result' },
  }, el('span', { class: 'visually-hidden' }, `${t('svc.result')}: `), parts.join(' · '));
}

function stateBadge(kind) {
  if (kind === 'up' || kind === 'down' || kind === 'unknown') return statusBadge(kind);
  if (kind === 'pending') {
    return el('span', { class: 'badge badge-pending', dataset: { status: kind }, title: t('svc.pendingTitle') },
      el('span', { class: 'badge-dot', 'aria-hidden': 'true' }), t('status.pending'));
  }
  return el('span', { class: `badge badge-${kind}`, dataset: { status: kind } },
    el('span', { class: 'badge-dot', 'aria-hidden': 'true' }), t(`status.${kind}`));
}

function statusCell(s, kind) {
  const lines = [stateBadge(kind)];
  if (kind === 'down' && s.down_since) {
    lines.push(el('div', { class: 'down-since small', dataset: { field: 'down-since' } },
      t('svc.downSince', { duration: formatDuration(Date.now() - Date.parse(s.down_since)) }), ' · ',
      el('time', { datetime: s.down_since, title: formatDateTime(s.down_since) }, formatDateTime(s.down_since))));
  }
  if (kind === 'pending') {
    const wait = secondsUntil(s.next_check_at);
    lines.push(el('div', { class: 'pending-note small', dataset: { field: 'pending' } },
      wait ? t('svc.recheckIn', { seconds: wait }) : t('svc.recheckSoon')));
  }
  if ((kind === 'down' || kind === 'pending') && s.last_error) {
    const why = checkErrorText(s.last_error, null, lang);
    if (why) lines.push(el('div', { class: 'last-error small', title: why.original }, why.text));
  }
  const days = certDaysLeft(s);
  if (days !== null && days < CERT_WARN_DAYS) {
    lines.push(el('div', {}, el('span', { class: 'tag tag-warn', dataset: { field: 'cert' }, title: formatDateTime(s.cert_expires_at) },
      days <= 0 ? t('svc.certExpired') : t('svc.certExpires', { days: Math.max(0, Math.floor(days)) }))));
  }
  // One block: on phones the cell is a label/value grid, and every line belongs to the value.
  return el('td', { dataset: { label: t('svc.col.status') } }, el('div', { class: 'cell-stack' }, ...lines));
}

function responseCell(s, kind) {
  const limit = slowThreshold(s);
  const slow = kind === 'slow';
  return el('td', {
    class: `num${slow ? ' response-slow' : ''}`,
    dataset: { label: t('svc.col.response'), field: 'response' },
    title: slow ? t(limit.source === 'slow_ms' ? 'svc.slowOver' : 'svc.slowOverP95', { ms: limit.ms }) : null,
  }, formatMs(s.last_response_time));
}

function actionButton(action, label, name, onclick, cls = 'btn-ghost') {
  return el('button', {
    type: 'button', class: `btn btn-sm ${cls}`, dataset: { action }, 'aria-label': name, onclick,
  }, label);
}

// The grade of the service's latest audit, linking to the security centre for that site.
function gradeLink(s) {
  const badge = gradeBadge(state.grades.get(s.id), 'svc-grade');
  if (!badge) return null;
  return el('a', { href: `/security?target=${encodeURIComponent(s.url)}`, class: 'grade-link', dataset: { field: 'grade' } }, badge);
}

function renderRow(s) {
  const kind = kindOf(s);
  const open = state.open.has(s.id);
  const detailsId = `svc-${s.id}-details`;
  const checkBtn = actionButton('check', t('svc.checkNow'), t('svc.checkNamed', { name: s.name }),
    () => checkNow(s.id, checkBtn), 'btn-secondary');
  const buttons = [
    checkBtn,
    el('button', {
      type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'details' },
      'aria-label': t('svc.detailsNamed', { name: s.name }), 'aria-expanded': String(open), 'aria-controls': detailsId,
      onclick: () => toggleDetails(s.id),
    }, t('svc.details')),
  ];
  if ('slow_ms' in s || 'method' in s || 'group_id' in s) {
    buttons.push(actionButton('edit', t('svc.edit'), t('svc.editNamed', { name: s.name }), () => openEdit(s.id)));
  }
  const paused = s.is_active === false;
  buttons.push(actionButton('pause', paused ? t('svc.resume') : t('svc.pause'),
    t(paused ? 'svc.resumeNamed' : 'svc.pauseNamed', { name: s.name }), (e) => setActive(s.id, paused, e.currentTarget)));
  buttons.push(actionButton('delete', t('svc.delete'), t('svc.deleteNamed', { name: s.name }), () => remove(s.id),
    'btn-ghost btn-ghost-danger'));

  const row = el('tr', { class: `svc-row svc-${kind}`, dataset: { serviceId: s.id, status: kind, group: groupKey(s) } },
    column('svc.col.service',
      el('div', { class: 'svc-name', id: `svc-${s.id}-name` }, s.name, gradeLink(s)),
      el('a', { class: 'svc-url', href: s.url, target: '_blank', rel: 'noopener noreferrer' }, s.url),
      resultLine(s)),
    statusCell(s, kind),
    responseCell(s, kind),
    el('td', { class: 'nowrap', dataset: { label: t('svc.col.checked'), field: 'checked' } }, timeCell(s)),
    el('td', { class: 'nowrap', dataset: { label: t('svc.col.interval') } }, t('svc.every', { n: s.check_interval ?? 60 })),
    el('td', { class: 'actions', dataset: { label: t('svc.col.actions') } }, el('div', { class: 'btn-row' }, buttons)),
  );
  if (!open) return [row];
  // The open details keep their box (charts, chosen window) across redraws of the list.
  let box = detailBoxes.get(s.id);
  if (!box) {
    box = el('div', { class: 'details', id: detailsId });
    detailBoxes.set(s.id, box);
    renderDetails(box, s, { api });
  }
  const detailsRow = el('tr', { class: 'details-row', dataset: { detailsFor: s.id } },
    el('td', { colspan: COLUMNS }, box));
  return [row, detailsRow];
}

function renderGroupHeader({ group, members }) {
  const collapsed = state.collapsed.has(group);
  const down = members.filter((s) => kindOf(s) === 'down').length;
  const name = groupName(group);
  return el('tr', { class: 'group-row', dataset: { groupHeader: group } },
    el('th', { colspan: COLUMNS, scope: 'rowgroup' },
      el('button', {
        type: 'button', class: 'group-toggle', 'aria-expanded': String(!collapsed),
        onclick: () => toggleGroup(group),
      },
      el('span', { class: 'group-caret', 'aria-hidden': 'true' }, collapsed ? '▸' : '▾'),
      el('span', { class: 'group-name' }, name),
      el('span', { class: 'group-count' }, t('dash.groupCount', { n: members.length })),
      down ? el('span', { class: 'badge badge-down' }, t('dash.groupDown', { n: down })) : null)));
}

function renderStats() {
  const count = { up: 0, down: 0, slow: 0, unknown: 0, cert: 0, pending: 0 };
  for (const s of state.services) {
    const k = kindOf(s);
    if (k === 'paused') continue; // counted in the total only
    count[k] += 1;
    if (certWarning(s)) count.cert += 1;
  }
  // Slow services are up too; the Up figure counts every service that answers.
  $('stat-total').textContent = String(state.services.length);
  $('stat-up').textContent = String(count.up + count.slow);
  for (const k of ['down', 'slow', 'unknown', 'cert']) $(`stat-${k}`).textContent = String(count[k]);
  // Pending is neither up nor down: its own figure, shown while there is one.
  $('stat-pending').textContent = String(count.pending);
  $('stat-pending-box').hidden = count.pending === 0;
}

function render() {
  $('services-loading').hidden = true;
  const empty = state.services.length === 0;
  $('services-empty').hidden = !empty;
  // Nothing to list yet: "add your first site" comes first (on a phone, before the empty list).
  document.body.classList.toggle('dash-empty', empty);
  const list = filtered();
  const all = items(list);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  state.page = Math.min(state.page, pages - 1);
  const shown = all.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);
  $('services-nomatch').hidden = empty || list.length > 0;
  table.hidden = list.length === 0;

  // Keep keyboard focus across a redraw (periodic refresh).
  const active = document.activeElement;
  const focusRow = body.contains(active) ? active.closest('tr')?.dataset.serviceId : null;
  const focusAction = focusRow ? active.dataset.action : null;
  const focusGroup = body.contains(active) ? active.closest('tr')?.dataset.groupHeader : null;
  body.replaceChildren(...shown.flatMap((item) => (item.group ? [renderGroupHeader(item)] : renderRow(item.service))));
  if (focusRow && focusAction) body.querySelector(`tr[data-service-id="${focusRow}"] [data-action="${focusAction}"]`)?.focus();
  if (focusGroup) body.querySelector(`tr[data-group-header="${focusGroup}"] button`)?.focus();

  $('pager').hidden = pages <= 1;
  const first = all.length ? state.page * PAGE_SIZE + 1 : 0;
  $('pager-text').textContent = t('dash.pageOf', { page: state.page + 1, pages });
  $('pager-prev').disabled = state.page === 0;
  $('pager-next').disabled = state.page >= pages - 1;
  $('list-count').textContent = empty ? '' : t('dash.shownOf', {
    from: first, to: Math.min(all.length, (state.page + 1) * PAGE_SIZE), n: list.length, total: state.services.length,
  });
  renderStats();
}

/** Redraws one service's row in place (if on this page), keeping keyboard focus on the same button. */
function renderOne(id) {
  const old = body.querySelector(`tr[data-service-id="${id}"]`);
  const service = state.services.find((s) => s.id === id);
  if (!old || !service) { renderStats(); return; }
  const focused = old.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  const [row] = renderRow(service);
  old.replaceWith(row);
  if (focused) row.querySelector(`[data-action="${focused}"]`)?.focus();
  renderStats();
}

/* ---- stale-data banner ---------------------------------------------------------------------- */

function showFailure(err) {
  const box = $('services-error');
  $('services-error-text').textContent = err.message;
  box.dataset.status = String(err.status);
  state.failedAt = Date.now();
  renderAge();
  box.hidden = false;
}

function renderAge() {
  const age = $('services-error-age');
  age.textContent = state.loaded
    ? t('dash.staleAge', { age: formatRelative(new Date(state.loadedAt)) })
    : '';
  if (state.loaded) age.setAttribute('title', formatDateTime(new Date(state.loadedAt)));
}

/* ---- data ----------------------------------------------------------------------------------- */

async function loadExtras() {
  // Both are optional: a failure leaves the previous figures (or none) without an error.
  const [summary, groups, grades] = await Promise.allSettled([
    api('/api/v1/analytics/summary', { redirectOn401: false }),
    api('/api/v1/groups', { redirectOn401: false }),
    api('/api/v1/audit/services', { redirectOn401: false }),
  ]);
  if (grades.status === 'fulfilled' && Array.isArray(grades.value)) {
    state.grades = new Map(grades.value.filter((r) => r.audit).map((r) => [r.service_id, r.audit]));
  }
  if (summary.status === 'fulfilled' && summary.value && Array.isArray(summary.value.services)) {
    state.p95 = new Map(summary.value.services.map((r) => [r.id, r.p95_response_ms_24h]));
  }
  if (groups.status === 'fulfilled' && Array.isArray(groups.value)) {
    state.groups = groups.value;
    state.groupsSupported = true;
  } else if (groups.status === 'rejected' && (groups.reason.status === 404 || groups.reason.status === 405)) {
    state.groupsSupported = false;
  }
  fillGroupControls();
}

function fillGroupControls() {
  const supported = state.groupsSupported && state.services.some((s) => 'group_id' in s);
  $('flt-group-field').hidden = !supported;
  $('flt-grouped-field').hidden = !supported;
  const select = $('flt-group');
  const options = [['all', t('dash.groupAll')], ...state.groups.map((g) => [String(g.id), g.name]), ['none', t('dash.noGroup')]];
  select.replaceChildren(...options.map(([value, label]) => el('option', { value }, label)));
  select.value = options.some(([v]) => v === state.filter.group) ? state.filter.group : 'all';
}

let refreshTimer = 0;

/** The next reload: soon while a few services wait for a re-check or their first check. */
function scheduleRefresh(failed = false) {
  clearTimeout(refreshTimer);
  const settling = state.services.filter((s) => s.is_active !== false && (isPending(s) || !s.last_checked_at)).length;
  const ms = !failed && settling > 0 && settling <= PAGE_SIZE ? FAST_REFRESH_MS : REFRESH_MS;
  refreshTimer = setTimeout(() => { if (document.hidden) scheduleRefresh(); else load(); }, ms);
}

async function load() {
  try {
    const [list] = await Promise.all([api(API), loadExtras()]);
    state.services = Array.isArray(list) ? list : [];
    state.loaded = true;
    state.loadedAt = Date.now();
    $('services-error').hidden = true;
    fillGroupControls();
    renderGroups(state.groupsSupported);
    render();
    scheduleRefresh();
  } catch (err) {
    if (err.status === 401) return;
    $('services-loading').hidden = true;
    showFailure(err);
    scheduleRefresh(true);
  }
}

function applyResult(id, r) {
  state.results.set(id, r);
  const s = state.services.find((x) => x.id === id);
  if (s) {
    s.last_status = r.is_available ? 'up' : 'down';
    s.last_response_time = r.response_time_ms ?? null;
    s.last_checked_at = r.checked_at || new Date().toISOString();
    if (!('state' in s)) return; // an older server: the last check is all there is
    // The debounced state belongs to the server; a fresh success of an unknown service is up,
    // and a failure the monitor has not confirmed is Pending, not Up (nor yet Down).
    if (r.is_available && s.state === 'unknown') s.state = 'up';
    s.pending = s.is_active !== false && !r.is_available && s.state !== 'down';
  }
}

async function checkNow(id, button) {
  if (isBusy(button)) return;
  const done = busy(button, 'svc.checking', { keepFocus: true });
  try {
    applyResult(id, await api(`${API}/${id}/check`, { method: 'POST' }));
  } catch (err) {
    if (err.status === 401) return;
    if (err.status === 404) { await load(); toast(err.message, 'error'); return; }
    if (err.status === 429) state.results.set(id, { busy: true, retryAfter: err.retryAfter });
    else state.results.set(id, { requestError: err.message });
  } finally {
    done();
  }
  renderOne(id);
}

/* ---- check all ------------------------------------------------------------------------------ */

const sleep = (ms, run) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  run.wake = () => { clearTimeout(timer); resolve(); };
});

function renderProgress() {
  const run = state.checkAll;
  const box = $('check-all-progress');
  if (!run) { box.hidden = true; return; }
  box.hidden = false;
  const bar = $('check-all-bar');
  bar.max = Math.max(1, run.total);
  bar.value = run.done;
  let text = t('dash.checkAllDone', { done: run.done, total: run.total });
  if (run.waiting) text += ` · ${t('dash.checkAllWaiting', { seconds: run.waiting })}`;
  if (run.failed) text += ` · ${t('dash.checkAllFailed', { n: run.failed })}`;
  $('check-all-text').textContent = text;
  $('check-all-stop').hidden = run.finished;
  // aria-disabled, not disabled: the button keeps keyboard focus while the run goes on.
  if (run.finished) $('check-all').removeAttribute('aria-disabled');
  else $('check-all').setAttribute('aria-disabled', 'true');
}

/**
 * Checks every listed, active service, CHECK_ALL_PARALLEL at a time (the server's slots per user),
 * waiting out a 429's Retry-After before trying the same service again.
 */
async function checkAll() {
  if (state.checkAll && !state.checkAll.finished) return;
  const queue = filtered().filter((s) => s.is_active !== false).map((s) => s.id);
  const run = { total: queue.length, done: 0, failed: 0, waiting: 0, stopped: false, finished: false, wake: null };
  state.checkAll = run;
  renderProgress();
  toast(t('dash.checkAllStarted', { n: run.total }));
  const worker = async () => {
    while (queue.length && !run.stopped) {
      const id = queue.shift();
      for (;;) {
        try {
          applyResult(id, await api(`${API}/${id}/check`, { method: 'POST' }));
          break;
        } catch (err) {
          if (err.status === 401) { run.stopped = true; return; }
          if (err.status === 429) {
            const seconds = err.retryAfter ?? 2;
            run.waiting = seconds;
            renderProgress();
            await sleep(seconds * 1000, run);
            run.waiting = 0;
            if (run.stopped) { queue.unshift(id); return; }
            continue;
          }
          if (err.status === 404) { state.services = state.services.filter((s) => s.id !== id); break; }
          state.results.set(id, { requestError: err.message });
          run.failed += 1;
          break;
        }
      }
      run.done += 1;
      renderProgress();
      renderOne(id);
    }
  };
  await Promise.all(Array.from({ length: CHECK_ALL_PARALLEL }, worker));
  run.finished = true;
  renderProgress();
  render();
  toast(t(run.stopped ? 'dash.checkAllStopped' : 'dash.checkAllFinished', { done: run.done, total: run.total }),
    run.failed ? 'error' : 'success');
}

function stopCheckAll() {
  const run = state.checkAll;
  if (!run || run.finished) return;
  run.stopped = true;
  run.wake?.();
}

/* ---- edit, pause, delete -------------------------------------------------------------------- */

async function setActive(id, active, button) {
  const s = state.services.find((x) => x.id === id);
  if (!s || isBusy(button)) return;
  const done = busy(button, null, { keepFocus: true });
  try {
    Object.assign(s, await api(`${API}/${id}`, { method: 'PUT', body: { is_active: active } }));
    toast(t(active ? 'svc.resumed' : 'svc.paused', { name: s.name }), 'success');
  } catch (err) {
    if (err.status !== 401) toast(err.message, 'error');
    done();
    return;
  }
  done();
  render();
}

function fillGroupSelect(select, current) {
  select.replaceChildren(el('option', { value: '' }, t('dash.noGroup')),
    ...state.groups.map((g) => el('option', { value: g.id }, g.name)));
  select.value = current === null || current === undefined ? '' : String(current);
}

function openEdit(id) {
  const s = state.services.find((x) => x.id === id);
  if (!s) return;
  state.editing = { id, opener: document.activeElement };
  clearErrors(editForm);
  $('edit-title').textContent = t('svc.editTitle', { name: s.name });
  const f = editForm.elements;
  f.name.value = s.name;
  f.url.value = s.url;
  f.check_interval.value = String(s.check_interval ?? 60);
  f.is_active.checked = s.is_active !== false;
  for (const node of editForm.querySelectorAll('[data-needs]')) node.hidden = !(node.dataset.needs in s);
  if ('group_id' in s) fillGroupSelect(f.group_id, s.group_id);
  f.new_group.value = '';
  f.slow_ms.value = s.slow_ms ?? '';
  f.method.value = s.method === 'HEAD' ? 'HEAD' : 'GET';
  f.expected_status.value = s.expected_status ?? '';
  f.keyword.value = s.keyword ?? '';
  f.keyword_absent.checked = Boolean(s.keyword_absent);
  openDialog(editDialog).then(() => {
    const back = state.editing?.opener;
    state.editing = null;
    const row = body.querySelector(`tr[data-service-id="${id}"] [data-action="edit"]`);
    (row || back)?.focus?.();
  });
  f.name.focus();
}

function intOrRaw(raw) {
  const v = raw.trim();
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

/** The fields that differ from the service: PUT takes any subset. */
function editChanges(s) {
  const f = editForm.elements;
  const next = {
    name: f.name.value.trim(),
    url: f.url.value.trim(),
    check_interval: intOrRaw(f.check_interval.value),
    is_active: f.is_active.checked,
  };
  if ('group_id' in s) next.group_id = f.group_id.value === '' ? null : Number(f.group_id.value);
  if ('slow_ms' in s) next.slow_ms = f.slow_ms.value.trim() === '' ? null : intOrRaw(f.slow_ms.value);
  if ('method' in s) next.method = f.method.value;
  if ('expected_status' in s) next.expected_status = f.expected_status.value.trim() || null;
  if ('keyword' in s) next.keyword = f.keyword.value === '' ? null : f.keyword.value;
  if ('keyword_absent' in s) next.keyword_absent = f.keyword_absent.checked;
  const changes = {};
  for (const [k, v] of Object.entries(next)) if ((s[k] ?? null) !== v) changes[k] = v;
  return changes;
}

async function onEditSubmit(event) {
  event.preventDefault();
  const id = state.editing?.id;
  const s = state.services.find((x) => x.id === id);
  if (!s) { editDialog.close(); return; }
  clearErrors(editForm);
  const submit = editForm.querySelector('button[type="submit"]');
  const done = busy(submit, 'common.saving');
  try {
    const changes = editChanges(s);
    const newGroup = editForm.elements.new_group.value.trim();
    if (newGroup) {
      let group;
      try {
        group = await api('/api/v1/groups', { method: 'POST', body: { name: newGroup } });
      } catch (err) {
        if (err.fields && err.fields.name) err.fields = { new_group: err.fields.name };
        throw err;
      }
      state.groups.push(group);
      changes.group_id = group.id;
    }
    if (Object.keys(changes).length) Object.assign(s, await api(`${API}/${id}`, { method: 'PUT', body: changes }));
  } catch (err) {
    done();
    if (err.status !== 401) showErrors(editForm, err);
    return;
  }
  done();
  editDialog.close('saved');
  fillGroupControls();
  render();
  toast(t('svc.saved', { name: s.name }), 'success');
}

async function remove(id) {
  const s = state.services.find((x) => x.id === id);
  if (!s) return;
  const ok = await confirmDialog({
    title: t('svc.confirmTitle'),
    body: t('svc.confirmBody', { name: s.name }),
    confirmLabel: t('svc.delete'),
  });
  if (!ok) return;
  try {
    await api(`${API}/${id}`, { method: 'DELETE' });
  } catch (err) {
    if (err.status === 401) return;
    if (err.status !== 404) { toast(err.message, 'error'); return; }
  }
  state.services = state.services.filter((x) => x.id !== id);
  state.results.delete(id);
  state.open.delete(id);
  detailBoxes.delete(id);
  render();
  toast(t('svc.deleted', { name: s.name }), 'success');
  $('list-heading').focus();
}

/* ---- details, groups, filters --------------------------------------------------------------- */

function toggleDetails(id) {
  if (state.open.has(id)) { state.open.delete(id); detailBoxes.delete(id); } else state.open.add(id);
  const old = body.querySelector(`tr[data-service-id="${id}"]`);
  const service = state.services.find((s) => s.id === id);
  if (!old || !service) { render(); return; }
  body.querySelector(`tr[data-details-for="${id}"]`)?.remove();
  const rows = renderRow(service);
  old.replaceWith(...rows);
  rows[0].querySelector('[data-action="details"]').focus();
}

function toggleGroup(key) {
  if (state.collapsed.has(key)) state.collapsed.delete(key);
  else state.collapsed.add(key);
  render();
}

function onFilter() {
  state.filter = {
    q: filters.elements.q.value.trim(),
    state: filters.elements.state.value,
    group: filters.elements.group.value || 'all',
    grouped: filters.elements.grouped.checked,
  };
  state.page = 0;
  const q = new URLSearchParams(location.search);
  for (const [k, v] of [['q', state.filter.q], ['state', state.filter.state === 'all' ? '' : state.filter.state],
    ['group', state.filter.group === 'all' ? '' : state.filter.group], ['grouped', state.filter.grouped ? '1' : '']]) {
    if (v) q.set(k, v); else q.delete(k);
  }
  const qs = q.toString();
  history.replaceState(null, '', qs ? `${location.pathname}?${qs}` : location.pathname);
  render();
}

function filtersFromQuery() {
  const q = new URLSearchParams(location.search);
  filters.elements.q.value = q.get('q') || '';
  if (q.get('state')) filters.elements.state.value = q.get('state');
  filters.elements.grouped.checked = q.get('grouped') === '1';
  state.filter = {
    q: filters.elements.q.value.trim(),
    state: filters.elements.state.value || 'all',
    group: q.get('group') || 'all',
    grouped: filters.elements.grouped.checked,
  };
}

/* ---- add form ------------------------------------------------------------------------------- */

function readForm() {
  const data = {
    name: form.elements.name.value.trim(),
    url: form.elements.url.value.trim(),
    is_active: form.elements.is_active.checked,
  };
  const raw = form.elements.check_interval.value.trim();
  if (raw !== '') data.check_interval = intOrRaw(raw);
  return data;
}

async function onAdd(event) {
  event.preventDefault();
  clearErrors(form);
  const submit = form.querySelector('button[type="submit"]');
  const done = busy(submit, 'svc.adding');
  let created;
  try {
    created = await api(API, { method: 'POST', body: readForm() });
  } catch (err) {
    done();
    if (err.status !== 401) showErrors(form, err);
    return;
  }
  done();
  form.reset();
  if (created && created.id !== undefined) {
    state.services = state.services.filter((x) => x.id !== created.id).concat(created);
    render();
    scheduleRefresh();
  } else {
    await load();
  }
  toast(t('svc.added', { name: created?.name ?? '' }), 'success');
  form.elements.name.focus();
  // A new site is checked at once, not at the first slot of its schedule.
  const button = created?.id !== undefined && created.is_active !== false
    ? body.querySelector(`tr[data-service-id="${created.id}"] [data-action="check"]`) : null;
  if (button) await checkNow(created.id, button);
}

function refreshRelativeTimes() {
  for (const node of document.querySelectorAll('time[data-relative]')) {
    node.textContent = formatRelative(node.getAttribute('datetime'));
  }
  if (!$('services-error').hidden) renderAge();
}

function prefillFromQuery() {
  const q = new URLSearchParams(location.search);
  if (q.get('url')) form.elements.url.value = q.get('url');
  if (q.get('name')) form.elements.name.value = q.get('name');
}

async function main() {
  await initPage({ active: 'dashboard' });
  linkFieldDescriptions(form);
  linkFieldDescriptions(editForm);
  form.addEventListener('submit', onAdd);
  editForm.addEventListener('submit', onEditSubmit);
  $('edit-cancel').addEventListener('click', () => editDialog.close());
  initGroups({ services: () => state.services, groups: () => state.groups, reload: load });
  prefillFromQuery();
  filtersFromQuery();
  filters.addEventListener('input', onFilter);
  filters.addEventListener('submit', (e) => e.preventDefault());
  $('refresh').addEventListener('click', () => load());
  $('check-all').addEventListener('click', checkAll);
  $('check-all-stop').addEventListener('click', stopCheckAll);
  $('pager-prev').addEventListener('click', () => { state.page -= 1; render(); $('list-heading').focus(); });
  $('pager-next').addEventListener('click', () => { state.page += 1; render(); $('list-heading').focus(); });
  await load();
  document.body.dataset.loaded = 'true';
  setInterval(refreshRelativeTimes, 15_000);
}

main();
