// The vault's file browser. The server renders this page with its data (#vault-data: the
// folder, its entries the caller may see, the caller's rights on it, the session's CSRF token,
// the user and whether office documents can be edited); every change is a call with that token,
// after which the list is read again (GET /vault/browse, JSON) and redrawn — never a page reload.
// Uploads show their progress in bytes and percent. Each row's actions are in its own menu
// (View, Edit, Download inline as well on wide screens).
import { t, lang } from './i18n.js';
import { el, confirmDialog, toast } from './ui.js';
import { icon } from './icons.js';
import {
  data, initVaultPage, call, mutate, vaultError, browseUrl, fileUrl, formatSize, editorFor, iconFor,
} from './vault-common.js';

const main = document.getElementById('main');
const state = { sort: 'name', dir: 1, filter: '', uploading: false };
let tbody = null;
let menuSeq = 0;

const join = (folder, name) => (folder === '/' ? `/${name}` : `${folder}/${name}`);
const dateFmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
const percentFmt = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });

/** Reads the folder again and redraws the list (after every change: no page reload). */
async function refresh() {
  const fresh = await call('GET', browseUrl(data.path));
  data.entries = fresh.entries;
  data.rights = fresh.rights;
  renderTable();
}

async function act(fn, done) {
  try {
    await fn();
    if (done) toast(done);
  } catch (err) {
    toast(err.message, 'error');
  }
  try { await refresh(); } catch (err) { toast(err.message, 'error'); }
}

/** Asks for one line of text in a modal dialog; resolves with it, or null when cancelled. */
function askText(title, initial = '') {
  return new Promise((resolve) => {
    const headingId = `dlg-title-${Math.random().toString(36).slice(2)}`;
    const input = el('input', { type: 'text', class: 'input', 'aria-labelledby': headingId, value: initial });
    const cancel = el('button', { type: 'button', class: 'btn btn-ghost' }, t('common.cancel'));
    const ok = el('button', { type: 'submit', class: 'btn btn-primary' }, t('vault.ok'));
    const form = el('form', { method: 'dialog', class: 'form' }, input, el('div', { class: 'dialog-actions' }, cancel, ok));
    const dialog = el('dialog', { class: 'dialog', 'aria-labelledby': headingId },
      el('h2', { id: headingId, class: 'dialog-title' }, title), form);
    let result = null;
    cancel.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', () => { result = input.value.trim() || null; });
    dialog.addEventListener('close', () => { dialog.remove(); resolve(result); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
    input.select();
  });
}

/** The analyzer's check of one file (GET /vault/analyze): its risk and the categories found, in a dialog. */
async function checkPersonalData(entry, path, button) {
  button.disabled = true;
  try {
    showPersonalData(entry.name, await call('GET', fileUrl('analyze', path)));
  } catch (err) {
    toast(err.message, 'error');
  } finally {
    button.disabled = false;
  }
}

function showPersonalData(name, answer) {
  const headingId = `dlg-title-${Math.random().toString(36).slice(2)}`;
  const summary = answer.summary || {};
  const counts = Object.entries(summary.counts || {});
  const risk = summary.risk || 'none';
  const body = [el('p', { class: `dialog-body vault-risk vault-risk-${risk}` }, t('vault.risk', { risk: t(`vault.risk.${risk}`) }))];
  if (counts.length) {
    body.push(el('ul', { class: 'vault-found' }, ...counts.map(([cat, n]) => el('li', {}, `${cat}: ${n}`))));
    if ((summary.special_categories || []).length) {
      body.push(el('p', { class: 'dialog-body' }, t('vault.special', { list: summary.special_categories.join(', ') })));
    }
    body.push(el('p', { class: 'dialog-body muted' }, t('vault.masked')));
  } else {
    body.push(el('p', { class: 'dialog-body' }, t('vault.noneFound')));
  }
  const close = el('button', { type: 'button', class: 'btn btn-primary' }, t('common.close'));
  const dialog = el('dialog', { class: 'dialog', 'aria-labelledby': headingId },
    el('h2', { id: headingId, class: 'dialog-title' }, t('vault.checkTitle', { name })), ...body,
    el('div', { class: 'dialog-actions' }, close));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}

function breadcrumbs() {
  const nav = el('nav', { class: 'vault-crumbs', 'aria-label': t('vault.location') });
  const parts = data.path.split('/').filter(Boolean);
  nav.append(el('a', { href: browseUrl('/') }, t('vault.root')));
  let acc = '';
  for (const part of parts) {
    acc += `/${part}`;
    nav.append(' / ', el('a', { href: browseUrl(acc), 'aria-current': acc === data.path ? 'page' : null }, part));
  }
  return nav;
}

function sortedEntries() {
  const f = state.filter.toLowerCase();
  const list = data.entries.filter((e) => !f || e.name.toLowerCase().includes(f));
  const key = { name: (e) => e.name.toLowerCase(), size: (e) => e.size, modified: (e) => e.modified }[state.sort];
  list.sort((a, b) => {
    if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;  // folders first, always
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : 0) * state.dir;
  });
  return list;
}

/* ---- the row menu (a disclosure: a button that shows a list of links and buttons) ------------ */

function closeMenus(except = null) {
  for (const open of document.querySelectorAll('.vault-menu-button[aria-expanded="true"]')) {
    if (open === except) continue;
    open.setAttribute('aria-expanded', 'false');
    document.getElementById(open.getAttribute('aria-controls')).hidden = true;
  }
}

document.addEventListener('click', (e) => {
  if (!e.target.closest('.vault-menu-wrap')) closeMenus();
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  const button = e.target.closest?.('.vault-menu-wrap')?.querySelector('.vault-menu-button');
  closeMenus();
  if (button) button.focus();
});

function rowMenu(name, items) {
  menuSeq += 1;
  const id = `vault-menu-${menuSeq}`;
  const button = el('button', {
    type: 'button', class: 'btn btn-ghost btn-sm btn-icon vault-menu-button', 'aria-haspopup': 'true',
    'aria-expanded': 'false', 'aria-controls': id, 'aria-label': t('vault.moreNamed', { name }), title: t('vault.more'),
  }, icon('more'));
  const list = el('ul', { id, class: 'vault-menu', hidden: true },
    ...items.map((item) => el('li', { class: item.primary ? 'vault-menu-primary' : null }, item.node)));
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    closeMenus(button);
    button.setAttribute('aria-expanded', String(open));
    list.hidden = !open;
    if (open) {
      list.classList.toggle('vault-menu-up', false);
      const box = list.getBoundingClientRect();
      // Near the bottom of the window the menu opens upwards, so every item stays in view.
      if (box.bottom > window.innerHeight && button.getBoundingClientRect().top > box.height) list.classList.add('vault-menu-up');
      list.querySelector('a, button')?.focus();
    }
  });
  list.addEventListener('click', (e) => { if (e.target.closest('a, button')) closeMenus(); });
  return el('div', { class: 'vault-menu-wrap' }, button, list);
}

function menuLink(label, aria, href, iconName, extra = {}) {
  return el('a', { class: 'vault-menu-item', href, 'aria-label': aria, ...extra }, icon(iconName), el('span', {}, label));
}

function menuButton(label, aria, iconName, onclick) {
  return el('button', { type: 'button', class: 'vault-menu-item', 'aria-label': aria, onclick }, icon(iconName), el('span', {}, label));
}

function inlineLink(label, aria, href, iconName, extra = {}) {
  return el('a', { class: 'btn btn-ghost btn-sm', href, 'aria-label': aria, ...extra }, icon(iconName), el('span', {}, label));
}

function rowFor(entry) {
  const path = join(data.path, entry.name);
  const name = entry.name;
  const isFile = entry.type === 'file';
  const viewTarget = { target: '_blank', rel: 'noopener' };
  const editor = isFile ? editorFor(name, { docedit: data.docedit }) : null;
  const editHref = editor === 'office' ? fileUrl('docedit_edit', path) : fileUrl('edit', path);
  const link = isFile
    ? el('a', { href: fileUrl('view', path), ...viewTarget }, name)
    : el('a', { href: browseUrl(path) }, name);

  const inline = el('div', { class: 'vault-inline' });
  const items = [];
  if (isFile) {
    inline.append(inlineLink(t('vault.view'), t('vault.viewNamed', { name }), fileUrl('view', path), 'eye', viewTarget));
    items.push({ primary: true, node: menuLink(t('vault.view'), t('vault.viewNamed', { name }), fileUrl('view', path), 'eye', viewTarget) });
    if (editor) {
      inline.append(inlineLink(t('vault.edit'), t('vault.editNamed', { name }), editHref, 'edit'));
      items.push({ primary: true, node: menuLink(t('vault.edit'), t('vault.editNamed', { name }), editHref, 'edit') });
    }
    inline.append(inlineLink(t('vault.download'), t('vault.downloadNamed', { name }), fileUrl('download', path), 'download'));
    items.push({ primary: true, node: menuLink(t('vault.download'), t('vault.downloadNamed', { name }), fileUrl('download', path), 'download') });
    const check = menuButton(t('vault.check'), t('vault.checkNamed', { name }), 'shield', () => checkPersonalData(entry, path, check));
    items.push({ node: check });
  }
  if (data.rights.write) {
    items.push({
      node: menuButton(t('vault.rename'), t('vault.renameNamed', { name }), 'rename', async () => {
        const to = await askText(t('vault.renamePrompt'), name);
        if (!to || to === name) return;
        // A name stays in this folder; a path starting with '/' moves the entry there.
        act(() => mutate('POST', '/vault/rename', { from: path, to: to.startsWith('/') ? to : join(data.path, to) }));
      }),
    });
  }
  if (data.rights.delete) {
    items.push({
      node: menuButton(t('common.delete'), t('vault.deleteNamed', { name }), 'trash', async () => {
        if (await confirmDialog({ title: t('vault.deleteTitle', { name }), body: t('vault.deleteBody') })) {
          act(() => mutate('DELETE', fileUrl('delete', path)));
        }
      }),
    });
  }
  const size = isFile ? formatSize(entry.size) : t('common.dash');
  const modified = dateFmt.format(new Date(entry.modified * 1000));
  return el('tr', { dataset: { name, type: entry.type } },
    el('td', { class: 'vault-icon' }, icon(iconFor(entry))),
    el('td', { class: 'vault-name' }, link,
      el('span', { class: 'vault-meta' }, isFile ? `${size} · ${modified}` : modified)),
    el('td', { class: 'vault-size' }, size),
    el('td', { class: 'vault-modified' }, modified),
    el('td', { class: 'vault-actions' }, el('div', { class: 'vault-actions-row' }, inline, items.length ? rowMenu(name, items) : null)));
}

function emptyState() {
  const cell = el('td', { colspan: 5, class: 'vault-empty' }, el('p', { class: 'muted' }, t('vault.empty')));
  if (data.rights.write) {
    cell.append(el('div', { class: 'btn-row vault-empty-actions' },
      el('label', { for: 'vault-upload', class: 'btn btn-primary btn-sm', id: 'vault-empty-upload' }, icon('upload'), el('span', {}, t('vault.upload'))),
      el('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: newFolder }, icon('folderPlus'), el('span', {}, t('vault.newFolder')))));
  }
  return el('tr', {}, cell);
}

function renderTable() {
  tbody.replaceChildren(...sortedEntries().map(rowFor));
  if (tbody.children.length) return;
  tbody.append(data.entries.length
    ? el('tr', {}, el('td', { colspan: 5, class: 'muted' }, t('vault.noMatch')))
    : emptyState());
}

async function newFolder() {
  const name = await askText(t('vault.folderPrompt'));
  if (name) act(() => mutate('POST', '/vault/create_folder', { path: join(data.path, name) }));
}

/* ---- upload with progress --------------------------------------------------------------------- */

function showProgress(files, loaded, total) {
  const box = document.getElementById('vault-progress');
  const bar = document.getElementById('vault-progress-bar');
  const text = document.getElementById('vault-progress-text');
  box.hidden = false;
  bar.max = total || 1;
  bar.value = Math.min(loaded, total || 1);
  const params = {
    name: files[0].name, count: files.length, done: formatSize(loaded), total: formatSize(total),
    percent: percentFmt.format(total ? loaded / total : 0),
  };
  text.textContent = t(files.length === 1 ? 'vault.uploadingOne' : 'vault.uploadingMany', params);
  box.dataset.loaded = String(loaded);
}

function upload(files) {
  if (!files.length || state.uploading) return;
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  const overwrite = document.getElementById('vault-overwrite').checked;
  const xhr = new XMLHttpRequest();
  const picker = document.getElementById('vault-upload');
  state.uploading = true;
  picker.disabled = true;
  const size = files.reduce((n, f) => n + f.size, 0);
  showProgress(files, 0, size);
  const finish = async (message, kind) => {
    state.uploading = false;
    picker.disabled = false;
    picker.value = '';
    document.getElementById('vault-progress').hidden = true;
    toast(message, kind);
    try { await refresh(); } catch (err) { toast(err.message, 'error'); }
  };
  xhr.upload.addEventListener('progress', (e) => showProgress(files, e.loaded, e.lengthComputable ? e.total : size));
  xhr.addEventListener('load', () => {
    let answer = null;
    try { answer = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
    if (xhr.status === 401) { location.assign('/vault/login'); return; }
    if (xhr.status >= 200 && xhr.status < 300) {
      const n = answer && Array.isArray(answer.files) ? answer.files.length : files.length;
      finish(n === 1 ? t('vault.uploadedOne', { name: files[0].name }) : t('vault.uploadedMany', { count: n }));
    } else {
      const headers = new Headers();
      const retry = xhr.getResponseHeader('Retry-After');
      if (retry) headers.set('Retry-After', retry);
      finish(vaultError(xhr.status, answer, headers).message, 'error');
    }
  });
  xhr.addEventListener('error', () => finish(t('vault.network'), 'error'));
  xhr.open('POST', `${fileUrl('upload', data.path)}&overwrite=${overwrite}`);
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.setRequestHeader('X-CSRF-Token', data.csrf);
  xhr.send(form);
}

async function showTrash(section) {
  let answer;
  try {
    answer = await call('GET', '/vault/trash');
  } catch (err) {
    toast(err.message, 'error');
    return;
  }
  const list = el('ul', { class: 'vault-trash' });
  for (const item of answer.items) {
    list.append(el('li', {}, el('span', { class: 'vault-trash-path' }, item.path), ' ',
      el('span', { class: 'muted' }, `· ${dateFmt.format(new Date(item.deleted * 1000))}`), ' ',
      el('button', {
        type: 'button', class: 'btn btn-ghost btn-sm',
        onclick: async () => { await act(() => mutate('POST', '/vault/restore', { id: item.id })); showTrash(section); },
      }, t('vault.restore'))));
  }
  if (!answer.items.length) list.append(el('li', { class: 'muted' }, t('vault.trashEmpty')));
  section.replaceChildren(el('h2', {}, t('vault.trash')), el('p', { class: 'muted' }, t('vault.trashKept', { days: answer.days })), list);
  section.hidden = false;
}

function render() {
  tbody = el('tbody');
  const filter = el('input', { type: 'search', id: 'vault-filter', class: 'input', 'aria-label': t('vault.filter'), placeholder: t('vault.filter') });
  filter.addEventListener('input', () => { state.filter = filter.value; renderTable(); });
  const sort = el('select', { id: 'vault-sort', class: 'input', 'aria-label': t('vault.sort') },
    el('option', { value: 'name' }, t('vault.sort.name')),
    el('option', { value: 'size' }, t('vault.sort.size')),
    el('option', { value: 'modified' }, t('vault.sort.modified')));
  sort.addEventListener('change', () => { state.sort = sort.value; renderTable(); });
  const order = el('button', { type: 'button', class: 'btn btn-ghost btn-sm btn-icon', 'aria-label': t('vault.order'), title: t('vault.order') }, icon('sort'));
  order.addEventListener('click', () => { state.dir = -state.dir; renderTable(); });

  const tools = el('div', { class: 'vault-tools' }, filter, sort, order);
  const actions = el('div', { class: 'btn-row vault-main-actions' });
  if (data.rights.write) {
    const picker = el('input', { type: 'file', multiple: true, id: 'vault-upload', class: 'visually-hidden' });
    picker.addEventListener('change', () => upload([...picker.files]));
    actions.append(
      el('label', { for: 'vault-upload', class: 'btn btn-primary btn-sm' }, icon('upload'), el('span', {}, t('vault.upload'))),
      picker,
      el('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: newFolder }, icon('folderPlus'), el('span', {}, t('vault.newFolder'))),
      el('label', { class: 'vault-check' }, el('input', { type: 'checkbox', id: 'vault-overwrite' }), t('vault.overwrite')));
    main.addEventListener('dragover', (e) => { e.preventDefault(); main.classList.add('vault-drop'); });
    main.addEventListener('dragleave', () => main.classList.remove('vault-drop'));
    main.addEventListener('drop', (e) => {
      e.preventDefault();
      main.classList.remove('vault-drop');
      upload([...e.dataTransfer.files]);
    });
  }
  const trashSection = el('section', { class: 'vault-trash-section panel', hidden: true });
  actions.append(el('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: () => showTrash(trashSection) }, icon('trash'), el('span', {}, t('vault.trash'))));

  const progress = el('div', { id: 'vault-progress', class: 'vault-progress', hidden: true },
    el('progress', { id: 'vault-progress-bar', max: 1, value: 0, 'aria-label': t('vault.uploadProgress') }),
    el('span', { id: 'vault-progress-text', role: 'status' }));

  const head = el('div', { class: 'page-head' }, el('h1', {}, t('vault.title')), actions);
  const table = el('table', { class: 'vault-table' },
    el('thead', {}, el('tr', {},
      el('th', { class: 'vault-icon' }, el('span', { class: 'visually-hidden' }, t('vault.type'))),
      el('th', { scope: 'col' }, t('vault.sort.name')),
      el('th', { scope: 'col', class: 'vault-size' }, t('vault.sort.size')),
      el('th', { scope: 'col', class: 'vault-modified' }, t('vault.sort.modified')),
      el('th', { scope: 'col', class: 'vault-actions' }, el('span', { class: 'visually-hidden' }, t('vault.actions'))))),
    tbody);
  main.replaceChildren(head, breadcrumbs(), tools, progress, el('div', { class: 'panel vault-panel' }, table), trashSection);
  renderTable();
}

initVaultPage();
render();
document.body.dataset.loaded = 'true';
