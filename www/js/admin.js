// Admin panel: users (GET/POST /api/admin/users, PUT/DELETE /api/admin/users/{id}; the list
// searched by name or e-mail and shown in pages of PAGE_SIZE in the page), a
// read-only view of a user's services, and the vault's access rules and audit log
// (admin-vault.js). Non-admins see a refusal and no admin call is made.
import { api } from './api.js';
import { initVaultAdmin, setVaultUsers, reloadRules } from './admin-vault.js';
import { t, lang, formatDate, formatDateTime, formatMs } from './i18n.js';
import { initPage } from './shell.js';
import {
  el, statusBadge, toast, busy, confirmDialog, clearErrors, showErrors, showFormAlert, linkFieldDescriptions,
} from './ui.js';

const API = '/api/admin/users';

const PAGE_SIZE = 25;
const state = { me: null, users: [], editing: null, q: '', page: 0 };

const usersBody = document.getElementById('users-body');
const usersError = document.getElementById('users-error');
const createForm = document.getElementById('create-user');
const editDialog = document.getElementById('edit-dialog');
const editForm = document.getElementById('edit-user');
const servicesDialog = document.getElementById('services-dialog');

function showDenied() {
  document.getElementById('admin-loading').hidden = true;
  document.getElementById('admin-content').hidden = true;
  document.getElementById('denied').hidden = false;
  document.body.dataset.loaded = 'true';
}

function showListError(message) {
  usersError.textContent = message || '';
  usersError.hidden = !message;
}

function renderRow(user) {
  const nameId = `user-${user.id}-name`;
  const isMe = state.me && user.id === state.me.id;
  const named = (key) => ({ 'aria-label': t(key, { name: user.username }) });
  return el('tr', { dataset: { userId: user.id, username: user.username } },
    el('td', { dataset: { label: t('user.col.user') } },
      el('div', { class: 'svc-name', id: nameId }, user.username,
        isMe ? el('span', { class: 'tag' }, t('user.you')) : null),
      el('div', { class: 'muted small' }, user.email)),
    el('td', { dataset: { label: t('user.col.role') } },
      el('span', { class: `tag ${user.is_admin ? 'tag-accent' : ''}` },
        t(user.is_admin ? 'user.role.admin' : 'user.role.user'))),
    el('td', { dataset: { label: t('user.col.state') } },
      el('span', { class: `tag ${user.is_active ? 'tag-ok' : 'tag-off'}` },
        t(user.is_active ? 'user.state.active' : 'user.state.inactive'))),
    el('td', { dataset: { label: t('user.col.created') } },
      user.created_at ? el('time', { datetime: user.created_at, title: formatDateTime(user.created_at) },
        formatDate(user.created_at)) : t('common.dash')),
    el('td', { class: 'actions', dataset: { label: t('user.col.actions') } },
      el('div', { class: 'btn-row' },
        el('button', { type: 'button', class: 'btn btn-sm btn-secondary', dataset: { action: 'edit' }, ...named('user.editNamed'),
          onclick: () => openEdit(user.id) }, t('user.edit')),
        el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'services' }, ...named('user.servicesNamed'),
          onclick: () => openServices(user.id) }, t('user.services')),
        el('button', { type: 'button', class: 'btn btn-sm btn-ghost btn-ghost-danger', dataset: { action: 'delete' },
          ...named('user.deleteNamed'), onclick: () => remove(user.id) }, t('user.delete')))),
  );
}

/** Users whose name or e-mail contains the search (case-insensitive). */
function matching() {
  const q = state.q.toLocaleLowerCase(lang);
  if (!q) return state.users;
  return state.users.filter((u) => u.username.toLocaleLowerCase(lang).includes(q)
    || String(u.email || '').toLocaleLowerCase(lang).includes(q));
}

function render() {
  const $ = (id) => document.getElementById(id);
  const list = matching();
  const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
  state.page = Math.min(state.page, pages - 1);
  const shown = list.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);
  $('users-empty').hidden = state.users.length > 0;
  $('users-filter').hidden = state.users.length === 0;
  $('users-nomatch').hidden = state.users.length === 0 || list.length > 0;
  $('users-table').hidden = shown.length === 0;
  usersBody.replaceChildren(...shown.map(renderRow));
  $('users-count').textContent = state.users.length ? t('user.shownOf', {
    from: list.length ? state.page * PAGE_SIZE + 1 : 0, to: state.page * PAGE_SIZE + shown.length, n: list.length, total: state.users.length,
  }) : '';
  $('users-pager').hidden = pages <= 1;
  $('users-page').textContent = t('dash.pageOf', { page: state.page + 1, pages });
  $('users-prev').disabled = state.page === 0;
  $('users-next').disabled = state.page >= pages - 1;
}

async function load() {
  try {
    const list = await api(API);
    state.users = Array.isArray(list) ? list : [];
    showListError('');
    render();
    setVaultUsers(state.users);
    return true;
  } catch (err) {
    if (err.status === 401) return false;
    if (err.status === 403) { showDenied(); return false; }
    showListError(err.message);
    return false;
  }
}

/* ---- create --------------------------------------------------------------------------------- */

async function onCreate(event) {
  event.preventDefault();
  clearErrors(createForm);
  const f = createForm.elements;
  const payload = {
    username: f.username.value.trim(),
    email: f.email.value.trim(),
    password: f.password.value,
    is_admin: f.is_admin.checked,
  };
  const done = busy(createForm.querySelector('button[type="submit"]'), 'user.creating');
  let created;
  try {
    created = await api(API, { method: 'POST', body: payload });
  } catch (err) {
    done();
    if (err.status === 403) showDenied();
    else if (err.status !== 401) showErrors(createForm, err);
    return;
  }
  done();
  createForm.reset();
  await load();
  toast(t('user.created', { name: created?.username ?? payload.username }), 'success');
  f.username.focus();
}

/* ---- edit ----------------------------------------------------------------------------------- */

function openEdit(id) {
  const user = state.users.find((u) => u.id === id);
  if (!user) return;
  state.editing = user;
  clearErrors(editForm);
  document.getElementById('edit-title').textContent = t('user.editTitle', { name: user.username });
  const f = editForm.elements;
  f.email.value = user.email || '';
  f.is_active.checked = !!user.is_active;
  f.is_admin.checked = !!user.is_admin;
  f.password.value = '';
  editDialog.showModal();
  f.email.focus();
}

async function onEditSubmit(event) {
  event.preventDefault();
  const user = state.editing;
  if (!user) return;
  clearErrors(editForm);
  const f = editForm.elements;
  const changes = {};
  const email = f.email.value.trim();
  if (email !== (user.email || '')) changes.email = email;
  if (f.is_active.checked !== !!user.is_active) changes.is_active = f.is_active.checked;
  if (f.is_admin.checked !== !!user.is_admin) changes.is_admin = f.is_admin.checked;
  if (f.password.value) changes.password = f.password.value;
  if (!Object.keys(changes).length) {
    showFormAlert(editForm, t('user.noChanges'));
    return;
  }
  const done = busy(editForm.querySelector('button[type="submit"]'), 'common.saving');
  let updated;
  try {
    updated = await api(`${API}/${user.id}`, { method: 'PUT', body: changes });
  } catch (err) {
    done();
    if (err.status === 403) { editDialog.close(); showDenied(); }
    else if (err.status !== 401) showErrors(editForm, err);
    return;
  }
  done();
  editDialog.close();
  toast(t('user.saved', { name: user.username }), 'success');
  const selfAffected = state.me && user.id === state.me.id
    && (changes.password || changes.is_admin === false || changes.is_active === false);
  if (selfAffected) { location.reload(); return; } // the old token is revoked: sign in again
  if (updated && updated.id === user.id) {
    state.users = state.users.map((u) => (u.id === user.id ? updated : u));
    render();
  } else {
    await load();
  }
  usersBody.querySelector(`tr[data-user-id="${user.id}"] [data-action="edit"]`)?.focus();
}

/* ---- services of a user --------------------------------------------------------------------- */

async function openServices(id) {
  const user = state.users.find((u) => u.id === id);
  if (!user) return;
  document.getElementById('services-title').textContent = t('user.servicesTitle', { name: user.username });
  const list = document.getElementById('services-list');
  list.replaceChildren(el('p', { class: 'muted' }, t('common.loading')));
  servicesDialog.showModal();
  try {
    const services = await api(`${API}/${id}/services`);
    if (!Array.isArray(services) || services.length === 0) {
      list.replaceChildren(el('p', { class: 'empty' }, t('user.servicesEmpty')));
      return;
    }
    list.replaceChildren(el('ul', { class: 'plain-list' }, services.map((s) =>
      el('li', { class: 'plain-list-item' },
        el('div', {}, el('div', { class: 'svc-name' }, s.name), el('div', { class: 'muted small break' }, s.url)),
        el('div', { class: 'plain-list-meta' }, statusBadge(s.last_status),
          el('span', { class: 'muted small' }, formatMs(s.last_response_time)))))));
  } catch (err) {
    if (err.status === 401) return;
    list.replaceChildren(el('p', { class: 'notice notice-error', role: 'alert' }, err.message));
  }
}

/* ---- delete --------------------------------------------------------------------------------- */

async function remove(id) {
  const user = state.users.find((u) => u.id === id);
  if (!user) return;
  const ok = await confirmDialog({
    title: t('user.confirmTitle'),
    body: t('user.confirmBody', { name: user.username }),
    confirmLabel: t('user.delete'),
  });
  if (!ok) return;
  try {
    await api(`${API}/${id}`, { method: 'DELETE' });
  } catch (err) {
    if (err.status === 401) return;
    if (err.status === 403) { showDenied(); return; }
    if (err.status !== 404) { showListError(err.message); document.getElementById('users-heading').focus(); return; }
  }
  showListError('');
  if (state.me && id === state.me.id) { location.reload(); return; }
  state.users = state.users.filter((u) => u.id !== id);
  render();
  setVaultUsers(state.users);
  reloadRules();
  toast(t('user.deleted', { name: user.username }), 'success');
  document.getElementById('users-heading').focus();
}

async function main() {
  const me = await initPage({ active: 'admin' });
  state.me = me;
  if (!me.is_admin) { showDenied(); return; }
  linkFieldDescriptions(createForm);
  linkFieldDescriptions(editForm);
  createForm.addEventListener('submit', onCreate);
  editForm.addEventListener('submit', onEditSubmit);
  document.getElementById('edit-cancel').addEventListener('click', () => editDialog.close());
  document.getElementById('services-close').addEventListener('click', () => servicesDialog.close());
  document.getElementById('refresh').addEventListener('click', () => load());
  const search = document.getElementById('users-search');
  document.getElementById('users-filter').addEventListener('submit', (e) => e.preventDefault());
  search.addEventListener('input', () => { state.q = search.value.trim(); state.page = 0; render(); });
  document.getElementById('users-prev').addEventListener('click', () => { state.page -= 1; render(); document.getElementById('users-heading').focus(); });
  document.getElementById('users-next').addEventListener('click', () => { state.page += 1; render(); document.getElementById('users-heading').focus(); });
  await load();
  if (document.getElementById('denied').hidden) await initVaultAdmin({ users: state.users, onDenied: showDenied });
  if (document.getElementById('denied').hidden) {
    document.getElementById('admin-loading').hidden = true;
    document.getElementById('admin-content').hidden = false;
    document.body.dataset.loaded = 'true';
  }
}

main();
