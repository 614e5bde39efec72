// Dashboard: the caller's services (GET /api/v1/services), add (POST), check now
// (POST /services/{id}/check) and delete (DELETE, after a confirmation dialog).
import { api } from './api.js';
import { t, lang, formatRelative, formatDateTime, formatMs } from './i18n.js';
import { checkErrorText } from './messages.js';
import { initPage } from './shell.js';
import {
  el, statusBadge, statusKind, toast, busy, isBusy, confirmDialog, clearErrors, showErrors, linkFieldDescriptions,
} from './ui.js';

const API = '/api/v1/services';
const REFRESH_MS = 60_000;

const state = {
  services: [],
  results: new Map(), // service id → last OneShotResult (or {error}) seen on this page
  loaded: false,
};

const body = document.getElementById('services-body');
const table = document.getElementById('services-table');
const form = document.getElementById('add-service');

function column(key, ...content) {
  return el('td', { dataset: { label: t(key) } }, ...content);
}

function nowrapColumn(key, ...content) {
  return el('td', { class: 'nowrap', dataset: { label: t(key) } }, ...content);
}

function timeCell(value) {
  if (!value) return el('span', { class: 'muted' }, t('common.never'));
  return el('time', { datetime: value, title: formatDateTime(value), dataset: { relative: '' } }, formatRelative(value));
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

function renderRow(service) {
  const nameId = `svc-${service.id}-name`;
  const checkBtn = el('button', {
    type: 'button', class: 'btn btn-sm btn-secondary', dataset: { action: 'check' },
    'aria-label': t('svc.checkNamed', { name: service.name }),
    onclick: () => checkNow(service.id, checkBtn),
  }, t('svc.checkNow'));
  const deleteBtn = el('button', {
    type: 'button', class: 'btn btn-sm btn-ghost btn-ghost-danger', dataset: { action: 'delete' },
    'aria-label': t('svc.deleteNamed', { name: service.name }),
    onclick: () => remove(service.id),
  }, t('svc.delete'));

  return el('tr', { dataset: { serviceId: service.id, status: statusKind(service.last_status) } },
    column('svc.col.service',
      el('div', { class: 'svc-name', id: nameId }, service.name),
      el('a', { class: 'svc-url', href: service.url, target: '_blank', rel: 'noopener noreferrer' }, service.url),
      resultLine(service)),
    column('svc.col.status', statusBadge(service.last_status),
      service.is_active ? null : el('span', { class: 'tag' }, t('svc.inactive'))),
    el('td', { class: 'num', dataset: { label: t('svc.col.response'), field: 'response' } },
      formatMs(service.last_response_time)),
    nowrapColumn('svc.col.checked', timeCell(service.last_checked_at)),
    nowrapColumn('svc.col.interval', t('svc.every', { n: service.check_interval ?? 60 })),
    el('td', { class: 'actions', dataset: { label: t('svc.col.actions') } },
      el('div', { class: 'btn-row' }, checkBtn, deleteBtn)),
  );
}

function renderStats() {
  const count = { up: 0, down: 0, unknown: 0 };
  for (const s of state.services) count[statusKind(s.last_status)] += 1;
  document.getElementById('stat-total').textContent = String(state.services.length);
  for (const k of Object.keys(count)) document.getElementById(`stat-${k}`).textContent = String(count[k]);
}

function render() {
  document.getElementById('services-loading').hidden = true;
  const empty = state.services.length === 0;
  document.getElementById('services-empty').hidden = !empty;
  table.hidden = empty;
  // Keep keyboard focus across a redraw (periodic refresh).
  const active = document.activeElement;
  const focusRow = body.contains(active) ? active.closest('tr')?.dataset.serviceId : null;
  const focusAction = focusRow ? active.dataset.action : null;
  body.replaceChildren(...state.services.map(renderRow));
  if (focusRow && focusAction) {
    body.querySelector(`tr[data-service-id="${focusRow}"] [data-action="${focusAction}"]`)?.focus();
  }
  renderStats();
}

/** Redraws one row in place, keeping keyboard focus on the same button. */
function renderOne(id) {
  const old = body.querySelector(`tr[data-service-id="${id}"]`);
  const service = state.services.find((s) => s.id === id);
  if (!old || !service) { render(); return; }
  const focused = old.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  const row = renderRow(service);
  old.replaceWith(row);
  if (focused) row.querySelector(`[data-action="${focused}"]`)?.focus();
  renderStats();
}

async function load({ quiet = false } = {}) {
  const errorBox = document.getElementById('services-error');
  try {
    const list = await api(API);
    state.services = Array.isArray(list) ? list : [];
    state.loaded = true;
    errorBox.hidden = true;
    render();
  } catch (err) {
    if (err.status === 401) return;
    document.getElementById('services-loading').hidden = true;
    if (!quiet || !state.loaded) {
      errorBox.textContent = err.message;
      errorBox.dataset.status = String(err.status);
      errorBox.hidden = false;
    }
  }
}

async function checkNow(id, button) {
  if (isBusy(button)) return;
  const done = busy(button, 'svc.checking', { keepFocus: true });
  try {
    const r = await api(`${API}/${id}/check`, { method: 'POST' });
    state.results.set(id, r);
    const s = state.services.find((x) => x.id === id);
    if (s) {
      s.last_status = r.is_available ? 'up' : 'down';
      s.last_response_time = r.response_time_ms ?? null;
      s.last_checked_at = r.checked_at || new Date().toISOString();
    }
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
  render();
  toast(t('svc.deleted', { name: s.name }), 'success');
  document.getElementById('list-heading').focus();
}

function readForm() {
  const data = {
    name: form.elements.name.value.trim(),
    url: form.elements.url.value.trim(),
    is_active: form.elements.is_active.checked,
  };
  const raw = form.elements.check_interval.value.trim();
  if (raw !== '') data.check_interval = /^-?\d+$/.test(raw) ? Number(raw) : raw;
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
    state.services = state.services.filter((x) => x.id !== created.id).concat(created)
      .sort((a, b) => a.id - b.id);
    render();
  } else {
    await load();
  }
  toast(t('svc.added', { name: created?.name ?? '' }), 'success');
  form.elements.name.focus();
}

function refreshRelativeTimes() {
  for (const node of document.querySelectorAll('time[data-relative]')) {
    node.textContent = formatRelative(node.getAttribute('datetime'));
  }
}

function prefillFromQuery() {
  const q = new URLSearchParams(location.search);
  if (q.get('url')) form.elements.url.value = q.get('url');
  if (q.get('name')) form.elements.name.value = q.get('name');
}

async function main() {
  await initPage({ active: 'dashboard' });
  linkFieldDescriptions(form);
  form.addEventListener('submit', onAdd);
  prefillFromQuery();
  document.getElementById('refresh').addEventListener('click', () => load());
  await load();
  document.body.dataset.loaded = 'true';
  setInterval(() => { if (!document.hidden) load({ quiet: true }); }, REFRESH_MS);
  setInterval(refreshRelativeTimes, 15_000);
}

main();
