// Admin panel, vault part (docs/vault.md): access rules (GET/POST /api/admin/vault/rules,
// POST /api/admin/vault/rules/revoke) and the audit log of mutating vault actions
// (GET /api/admin/vault/audit?before=&limit=, newest first, paged by the last id shown).
import { api } from './api.js';
import { t, formatDateTime, formatRelative } from './i18n.js';
import {
  el, toast, busy, isBusy, confirmDialog, clearErrors, showErrors, showFormAlert, linkFieldDescriptions,
} from './ui.js';

const RULES = '/api/admin/vault/rules';
const AUDIT = '/api/admin/vault/audit';
const AUDIT_PAGE = 25;

const RIGHTS = [['read', 'vaultAdmin.right.read'], ['write', 'vaultAdmin.right.write'], ['delete', 'vaultAdmin.right.delete']];
const ACTIONS = {
  grant: 'vaultAdmin.action.grant',
  revoke: 'vaultAdmin.action.revoke',
  upload: 'vaultAdmin.action.upload',
  create_folder: 'vaultAdmin.action.create_folder',
  save_file: 'vaultAdmin.action.save_file',
  rename: 'vaultAdmin.action.rename',
  delete: 'vaultAdmin.action.delete',
  restore: 'vaultAdmin.action.restore',
  docedit_save: 'vaultAdmin.action.docedit_save',
};
const OUTCOMES = {
  ok: ['vaultAdmin.outcome.ok', 'tag-ok'],
  denied: ['vaultAdmin.outcome.denied', 'tag-off'],
  not_found: ['vaultAdmin.outcome.not_found', 'tag-warn'],
  conflict: ['vaultAdmin.outcome.conflict', 'tag-warn'],
  error: ['vaultAdmin.outcome.error', 'tag-off'],
};

const state = { users: [], rules: [], audit: [], auditEnd: false, onDenied: () => {} };

const $ = (id) => document.getElementById(id);
const rulesBody = $('rules-body');
const auditBody = $('audit-body');
const grantForm = $('grant-rule');

/** An API failure: 401 is handled by api.js (sign-in page); 403 means no longer an admin. */
function handled(err) {
  if (err.status === 401) return true;
  if (err.status === 403) { state.onDenied(); return true; }
  return false;
}

function showError(id, message) {
  $(id).textContent = message || '';
  $(id).hidden = !message;
}

/* ---- rules ---------------------------------------------------------------------------------- */

function rightsCell(rule) {
  const granted = RIGHTS.filter(([name]) => rule[name]);
  if (!granted.length) return el('span', { class: 'tag tag-off' }, t('vaultAdmin.denyAll'));
  return el('span', { class: 'rights' }, granted.map(([, key]) => el('span', { class: 'tag tag-ok' }, t(key))));
}

function renderRule(rule) {
  const named = (key) => ({ 'aria-label': t(key, { name: rule.username, path: rule.path }) });
  return el('tr', { dataset: { ruleId: rule.id, userId: rule.user_id, username: rule.username, path: rule.path } },
    el('td', { dataset: { label: t('vaultAdmin.col.user') } }, el('div', { class: 'svc-name' }, rule.username)),
    el('td', { class: 'break', dataset: { label: t('vaultAdmin.col.path') } }, el('code', {}, rule.path)),
    el('td', { dataset: { label: t('vaultAdmin.col.rights') } }, rightsCell(rule)),
    el('td', { class: 'actions', dataset: { label: t('vaultAdmin.col.actions') } },
      el('div', { class: 'btn-row' },
        el('button', { type: 'button', class: 'btn btn-sm btn-secondary', dataset: { action: 'change' },
          ...named('vaultAdmin.changeNamed'), onclick: () => editRule(rule) }, t('vaultAdmin.change')),
        el('button', { type: 'button', class: 'btn btn-sm btn-ghost btn-ghost-danger', dataset: { action: 'revoke' },
          ...named('vaultAdmin.revokeNamed'), onclick: () => revoke(rule) }, t('vaultAdmin.revoke')))));
}

function renderRules() {
  $('rules-empty').hidden = state.rules.length > 0;
  $('rules-table').hidden = state.rules.length === 0;
  rulesBody.replaceChildren(...state.rules.map(renderRule));
}

async function loadRules() {
  try {
    const list = await api(RULES);
    state.rules = Array.isArray(list) ? list : [];
    state.rules.sort((a, b) => a.username.localeCompare(b.username) || a.path.localeCompare(b.path));
    showError('rules-error', '');
    renderRules();
  } catch (err) {
    if (!handled(err)) showError('rules-error', err.message);
  }
}

function focusRuleButton(userId, path, action) {
  const row = [...rulesBody.rows].find((r) => r.dataset.userId === String(userId) && r.dataset.path === path);
  (row?.querySelector(`[data-action="${action}"]`) || $('rules-heading')).focus();
}

/* ---- grant / change ------------------------------------------------------------------------- */

/** The users the page loaded, as the options of the user picker (the choice is kept). */
export function setVaultUsers(users) {
  state.users = Array.isArray(users) ? users : [];
  const select = grantForm.elements.user_id;
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, t('vaultAdmin.chooseUser')),
    ...state.users.map((u) => el('option', { value: String(u.id) },
      u.is_admin ? t('vaultAdmin.adminUser', { name: u.username }) : u.username)));
  if (state.users.some((u) => String(u.id) === chosen)) select.value = chosen;
}

function editRule(rule) {
  clearErrors(grantForm);
  const f = grantForm.elements;
  if (!state.users.some((u) => u.id === rule.user_id)) {
    showFormAlert(grantForm, t('error.userNotFound'));
    return;
  }
  f.user_id.value = String(rule.user_id);
  f.path.value = rule.path;
  for (const [name] of RIGHTS) f[name].checked = !!rule[name];
  grantForm.scrollIntoView({ block: 'nearest' });
  f.user_id.focus();
}

function fieldError(name, message) {
  const slot = grantForm.querySelector(`.field-error[data-for="${name}"]`);
  slot.textContent = message;
  slot.hidden = false;
  grantForm.elements[name].setAttribute('aria-invalid', 'true');
}

async function onGrant(event) {
  event.preventDefault();
  clearErrors(grantForm);
  const f = grantForm.elements;
  const userId = Number.parseInt(f.user_id.value, 10);
  const path = f.path.value.trim();
  if (!userId) fieldError('user_id', t('vaultAdmin.needUser'));
  if (!path) fieldError('path', t('vaultAdmin.needPath'));
  if (!userId || !path) { grantForm.querySelector('[aria-invalid="true"]').focus(); return; }
  const payload = { user_id: userId, path, read: f.read.checked, write: f.write.checked, delete: f.delete.checked };
  const done = busy(grantForm.querySelector('button[type="submit"]'), 'common.saving');
  let saved;
  try {
    saved = await api(RULES, { method: 'POST', body: payload });
  } catch (err) {
    done();
    if (!handled(err)) showErrors(grantForm, err);
    return;
  }
  done();
  const name = state.users.find((u) => u.id === userId)?.username ?? String(userId);
  const shownPath = saved?.path ?? path;
  grantForm.reset();
  await Promise.all([loadRules(), loadAudit()]);
  toast(t('vaultAdmin.saved', { name, path: shownPath }), 'success');
  focusRuleButton(userId, shownPath, 'change');
}

/* ---- revoke --------------------------------------------------------------------------------- */

async function revoke(rule) {
  const ok = await confirmDialog({
    title: t('vaultAdmin.revokeTitle'),
    body: t('vaultAdmin.revokeBody', { name: rule.username, path: rule.path }),
    confirmLabel: t('vaultAdmin.revoke'),
  });
  if (!ok) return;
  try {
    await api(`${RULES}/revoke`, { method: 'POST', body: { user_id: rule.user_id, path: rule.path } });
  } catch (err) {
    if (handled(err)) return;
    // 404: already gone — the list below shows what is left; anything else stays on screen.
    if (err.status !== 404) { showError('rules-error', err.message); $('rules-heading').focus(); return; }
  }
  showError('rules-error', '');
  await Promise.all([loadRules(), loadAudit()]);
  toast(t('vaultAdmin.revoked', { name: rule.username, path: rule.path }), 'success');
  $('rules-heading').focus();
}

/* ---- audit log ------------------------------------------------------------------------------ */

function renderAuditRow(a) {
  const [outcomeKey, outcomeClass] = OUTCOMES[a.outcome] || [null, ''];
  const when = a.at || null;
  return el('tr', { dataset: { auditId: a.id, action: a.action, outcome: a.outcome } },
    el('td', { dataset: { label: t('vaultAdmin.col.when') } },
      when ? el('time', { datetime: when, title: formatRelative(when) }, formatDateTime(when)) : t('common.dash')),
    el('td', { dataset: { label: t('vaultAdmin.col.who') } }, a.username || t('vaultAdmin.nobody')),
    el('td', { dataset: { label: t('vaultAdmin.col.action') } }, ACTIONS[a.action] ? t(ACTIONS[a.action]) : a.action),
    el('td', { class: 'break', dataset: { label: t('vaultAdmin.col.path') } },
      el('div', {}, el('code', {}, a.path || '/'), a.target ? el('div', { class: 'muted small' }, a.target) : null)),
    el('td', { dataset: { label: t('vaultAdmin.col.outcome') } },
      el('span', { class: `tag ${outcomeClass}`.trim() }, outcomeKey ? t(outcomeKey) : a.outcome)),
    el('td', { class: 'break', dataset: { label: t('vaultAdmin.col.from') } }, a.remote_addr || t('common.dash')));
}

function renderAudit() {
  const n = state.audit.length;
  $('audit-empty').hidden = n > 0;
  $('audit-table').hidden = n === 0;
  $('audit-more').hidden = state.auditEnd;
  $('audit-count').textContent = n ? t(state.auditEnd ? 'vaultAdmin.auditAll' : 'vaultAdmin.auditCount', { n }) : '';
}

/** The newest page (older = false) or the page below the last entry shown (older = true). */
async function loadAudit({ older = false } = {}) {
  const last = state.audit[state.audit.length - 1];
  const before = older && last ? `&before=${encodeURIComponent(last.id)}` : '';
  try {
    const page = await api(`${AUDIT}?limit=${AUDIT_PAGE}${before}`);
    const rows = Array.isArray(page) ? page : [];
    state.audit = older ? [...state.audit, ...rows] : rows;
    state.auditEnd = rows.length < AUDIT_PAGE;
    showError('audit-error', '');
    if (older) auditBody.append(...rows.map(renderAuditRow));
    else auditBody.replaceChildren(...rows.map(renderAuditRow));
    renderAudit();
    return rows;
  } catch (err) {
    if (!handled(err)) showError('audit-error', err.message);
    return null;
  }
}

async function onAuditMore() {
  const button = $('audit-more');
  const done = busy(button, 'common.loading', { keepFocus: true });
  const rows = await loadAudit({ older: true });
  done();
  // The button disappears at the end of the log: focus goes to the first entry it brought.
  if (button.hidden) {
    const first = rows?.length ? auditBody.querySelector(`tr[data-audit-id="${rows[0].id}"]`) : null;
    if (first) { first.tabIndex = -1; first.focus(); } else $('audit-heading').focus();
  }
}

/* ---- start ---------------------------------------------------------------------------------- */

/** Reloads the rules (after a user was deleted, their rules went with them). */
export function reloadRules() {
  return loadRules();
}

/** Wires the vault part of the admin page and loads its data. onDenied: the caller is not an admin. */
export async function initVaultAdmin({ users, onDenied }) {
  state.onDenied = onDenied;
  setVaultUsers(users);
  linkFieldDescriptions(grantForm);
  grantForm.addEventListener('submit', onGrant);
  grantForm.addEventListener('reset', () => clearErrors(grantForm));
  $('rules-refresh').addEventListener('click', () => loadRules());
  $('audit-refresh').addEventListener('click', () => loadAudit());
  $('audit-more').addEventListener('click', () => { if (!isBusy($('audit-more'))) onAuditMore(); });
  await Promise.all([loadRules(), loadAudit()]);
}
