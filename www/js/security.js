// Security centre: choose a target (one of the caller's services or a typed address), see what is
// known about it (address facts, transport, monitoring status), and the services overview.
// The audit panels (header check, technologies, compliance, full audit with the DOCX report,
// crawl) and the active scans (background tasks: OWASP, API check, auth scan, endpoints, templates)
// render into their own containers under #audit-panels; each runs on its button only, since
// every one of them makes requests to the target.
import { api } from './api.js';
import { t, formatRelative, formatDateTime, formatMs } from './i18n.js';
import { initPage } from './shell.js';
import { el, statusBadge, statusKind, clearErrors, showErrors, linkFieldDescriptions } from './ui.js';
import { headersPanel } from './sec-headers.js';
import { techPanel } from './sec-tech.js';
import { compliancePanel } from './sec-compliance.js';
import { auditPanel } from './sec-audit.js';
import { crawlPanel } from './sec-crawl.js';
import { activePanel } from './sec-active.js';

/**
 * Result panels: { id, render(target, context) → Node | Promise<Node> }.
 * target: { url: URL, href, service|null }; context: { services }.
 */
const PANELS = [auditPanel, activePanel, headersPanel, techPanel, compliancePanel, crawlPanel];

const state = { services: [], target: null };
const form = document.getElementById('target-form');
const select = form.elements.service;

/** Accepts an absolute http(s) URL or a bare host[:port][/path] (https assumed). Null if invalid. */
export function normalizeTarget(raw) {
  const text = String(raw || '').trim();
  if (!text || /\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let url;
  try { url = new URL(hasScheme ? text : `https://${text}`); } catch { return null; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url;
}

function sameTarget(a, b) {
  const x = normalizeTarget(a);
  const y = normalizeTarget(b);
  if (!x || !y) return false;
  const strip = (u) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  return strip(x) === strip(y);
}

/* ---- findings ------------------------------------------------------------------------------- */

function finding(level, title, text, ...extra) {
  return el('li', { class: `finding finding-${level}`, dataset: { finding: title } },
    el('span', { class: `finding-level finding-level-${level}` }, t(`sec.finding.${level}`)),
    el('div', { class: 'finding-body' },
      el('div', { class: 'finding-title' }, title),
      el('div', { class: 'finding-text' }, text),
      ...extra));
}

function transportFinding(target) {
  const secure = target.url.protocol === 'https:';
  return finding(secure ? 'ok' : 'warn', t('sec.transport'), t(secure ? 'sec.https' : 'sec.http'));
}

function monitoringFinding(target) {
  const s = target.service;
  if (!s) {
    const q = new URLSearchParams({ url: target.href, name: target.url.hostname });
    return finding('info', t('sec.monitoring'), t('sec.notMonitored'),
      el('a', { class: 'btn btn-sm btn-secondary finding-action', href: `/dashboard?${q}` }, t('sec.addToMonitoring')));
  }
  const detail = s.last_checked_at
    ? t('sec.lastCheck', { ms: formatMs(s.last_response_time), when: formatRelative(s.last_checked_at) })
    : t('sec.neverChecked');
  const level = statusKind(s.last_status) === 'down' ? 'warn' : statusKind(s.last_status) === 'up' ? 'ok' : 'info';
  return finding(level, t('sec.monitoring'), `${s.name}: ${detail}`, statusBadge(s.last_status));
}

function facts(target) {
  const u = target.url;
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const rows = [
    [t('sec.address'), target.href],
    [t('sec.host'), u.hostname],
    [t('sec.port'), port],
  ];
  return rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { class: 'break' }, v)]);
}

async function showTarget(url, { focus = true } = {}) {
  const service = state.services.find((s) => sameTarget(s.url, url.href)) || null;
  const target = { url, href: url.href, service };
  state.target = target;

  document.getElementById('results-empty').hidden = true;
  document.getElementById('results-body').hidden = false;
  document.getElementById('target-facts').replaceChildren(...facts(target));
  document.getElementById('findings').replaceChildren(transportFinding(target), monitoringFinding(target));

  const panels = document.getElementById('audit-panels');
  panels.replaceChildren();
  for (const panel of PANELS) {
    const box = el('section', { class: 'audit-panel', dataset: { panel: panel.id } });
    panels.append(box);
    Promise.resolve(panel.render(target, { services: state.services }))
      .then((node) => { if (state.target === target && node) box.replaceChildren(node); })
      .catch((err) => box.replaceChildren(el('p', { class: 'notice notice-error' }, err.message)));
  }

  select.value = service ? String(service.id) : '';
  const q = new URLSearchParams(location.search);
  q.set('target', url.href);
  history.replaceState(null, '', `${location.pathname}?${q}`);
  if (focus) document.getElementById('results-heading').focus();
}

/* ---- target form ---------------------------------------------------------------------------- */

function onSubmit(event) {
  event.preventDefault();
  clearErrors(form);
  const typed = form.elements.url.value.trim();
  let url = null;
  if (typed) {
    url = normalizeTarget(typed);
    if (!url) { showErrors(form, { fields: { url: [t('sec.invalid')] } }); return; }
  } else if (select.value) {
    const s = state.services.find((x) => String(x.id) === select.value);
    url = s && normalizeTarget(s.url);
  }
  if (!url) { showErrors(form, { fields: { url: [t('sec.invalid')] } }); return; }
  showTarget(url);
}

function onSelectService() {
  const s = state.services.find((x) => String(x.id) === select.value);
  if (!s) return;
  form.elements.url.value = s.url;
  clearErrors(form);
  const url = normalizeTarget(s.url);
  if (url) showTarget(url, { focus: false });
}

/* ---- services overview ---------------------------------------------------------------------- */

function renderServices() {
  const empty = state.services.length === 0;
  document.getElementById('sec-services-loading').hidden = true;
  document.getElementById('sec-services-empty').hidden = !empty;
  document.getElementById('sec-services-table').hidden = empty;

  select.replaceChildren(select.options[0],
    ...state.services.map((s) => el('option', { value: s.id }, `${s.name} — ${s.url}`)));

  document.getElementById('sec-services-body').replaceChildren(...state.services.map((s) => {
    const nameId = `sec-svc-${s.id}-name`;
    return el('tr', { dataset: { serviceId: s.id, status: statusKind(s.last_status) } },
      el('td', { dataset: { label: t('svc.col.service') } },
        el('div', { class: 'svc-name', id: nameId }, s.name),
        el('div', { class: 'svc-url muted' }, s.url)),
      el('td', { dataset: { label: t('svc.col.status') } }, statusBadge(s.last_status)),
      el('td', { class: 'num', dataset: { label: t('svc.col.response') } }, formatMs(s.last_response_time)),
      el('td', { dataset: { label: t('svc.col.checked') } },
        s.last_checked_at
          ? el('time', { datetime: s.last_checked_at, title: formatDateTime(s.last_checked_at) }, formatRelative(s.last_checked_at))
          : el('span', { class: 'muted' }, t('common.never'))),
      el('td', { class: 'actions', dataset: { label: t('svc.col.actions') } },
        el('button', {
          type: 'button', class: 'btn btn-sm btn-secondary', 'aria-label': t('sec.examineNamed', { name: s.name }),
          onclick: () => { form.elements.url.value = s.url; const u = normalizeTarget(s.url); if (u) showTarget(u); },
        }, t('sec.examine'))));
  }));
}

async function loadServices() {
  try {
    const list = await api('/api/v1/services');
    state.services = Array.isArray(list) ? list : [];
    renderServices();
  } catch (err) {
    if (err.status === 401) return;
    document.getElementById('sec-services-loading').hidden = true;
    const box = document.getElementById('sec-services-error');
    box.textContent = err.message;
    box.hidden = false;
  }
}

async function main() {
  await initPage({ active: 'security' });
  linkFieldDescriptions(form);
  form.addEventListener('submit', onSubmit);
  select.addEventListener('change', onSelectService);
  await loadServices();
  const initial = new URLSearchParams(location.search).get('target');
  const url = initial && normalizeTarget(initial);
  if (url) {
    form.elements.url.value = url.href;
    await showTarget(url, { focus: false });
  }
  document.body.dataset.loaded = 'true';
}

main();
