// The vault's file browser. The server renders this page with its data (#vault-data: the
// folder, its entries the caller may see, the caller's rights on it and the session's CSRF
// token); every change is a fetch with that token, then the page reloads the folder.
import { t, lang, applyI18n } from './i18n.js';
import { el, confirmDialog, toast } from './ui.js';
import { languageButton } from './shell.js';

const data = JSON.parse(document.getElementById('vault-data').textContent);
const main = document.getElementById('main');
const state = { sort: 'name', dir: 1, filter: '' };

const join = (folder, name) => (folder === '/' ? `/${name}` : `${folder}/${name}`);
const browseUrl = (path) => `/vault/browse?path=${encodeURIComponent(path)}`;
const fileUrl = (route, path) => `/vault/${route}?path=${encodeURIComponent(path)}`;
const dateFmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });

function formatSize(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

function typeIcon(entry) {
  if (entry.type === 'folder') return '📁';
  const ext = entry.name.includes('.') ? entry.name.split('.').pop().toLowerCase() : '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'svg'].includes(ext)) return '🖼';
  if (['mp3', 'ogg', 'wav', 'flac', 'mp4', 'webm', 'mkv'].includes(ext)) return '🎞';
  if (['pdf', 'doc', 'docx', 'odt', 'xls', 'xlsx', 'ods', 'ppt', 'pptx'].includes(ext)) return '📄';
  return '🗎';
}

/**
 * One request answered with JSON; throws an Error with the server's reason (after a 401 the page
 * goes to the login). Changes carry the session's CSRF token; a FormData body is sent as is.
 */
async function call(method, url, { body, csrf = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (csrf) headers['X-CSRF-Token'] = data.csrf;
  let payload = body;
  if (body && !(body instanceof FormData)) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' });
  if (res.status === 401) {
    location.assign('/vault/login');
    throw new Error(t('vault.expired'));
  }
  let answer = null;
  try { answer = await res.json(); } catch { /* empty */ }
  if (!res.ok) {
    const detail = answer && answer.detail;
    const text = typeof detail === 'string' ? detail
      : Array.isArray(detail) && detail[0] ? detail[0].msg : t('error.generic', { status: res.status });
    throw new Error(text);
  }
  return answer;
}

const mutate = (method, url, body) => call(method, url, { body, csrf: true });

async function act(fn) {
  try {
    await fn();
    location.reload();
  } catch (err) {
    toast(err.message, 'error');
  }
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
  button.textContent = t('vault.checking');
  try {
    showPersonalData(entry.name, await call('GET', fileUrl('analyze', path)));
  } catch (err) {
    // fetch itself throws a TypeError when the server cannot be reached.
    toast(err instanceof TypeError ? t('vault.network') : err.message, 'error');
  } finally {
    button.disabled = false;
    button.textContent = t('vault.check');
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
    nav.append(' / ', el('a', { href: browseUrl(acc) }, part));
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

function rowFor(entry) {
  const path = join(data.path, entry.name);
  const link = entry.type === 'folder'
    ? el('a', { href: browseUrl(path) }, entry.name)
    : el('a', { href: fileUrl('view', path), target: '_blank', rel: 'noopener' }, entry.name);
  const actions = el('div', { class: 'vault-actions' });
  if (entry.type === 'file') {
    actions.append(el('a', { class: 'btn btn-ghost btn-sm', href: fileUrl('download', path), 'aria-label': t('vault.downloadNamed', { name: entry.name }) }, t('vault.download')));
    const check = el('button', { type: 'button', class: 'btn btn-ghost btn-sm', 'aria-label': t('vault.checkNamed', { name: entry.name }) }, t('vault.check'));
    check.addEventListener('click', () => checkPersonalData(entry, path, check));
    actions.append(check);
  }
  if (data.rights.write) {
    actions.append(el('button', {
      type: 'button', class: 'btn btn-ghost btn-sm', 'aria-label': t('vault.renameNamed', { name: entry.name }),
      onclick: async () => {
        const to = await askText(t('vault.renamePrompt'), entry.name);
        if (!to || to === entry.name) return;
        // A name stays in this folder; a path starting with '/' moves the entry there.
        act(() => mutate('POST', '/vault/rename', { from: path, to: to.startsWith('/') ? to : join(data.path, to) }));
      },
    }, t('vault.rename')));
  }
  if (data.rights.delete) {
    actions.append(el('button', {
      type: 'button', class: 'btn btn-ghost btn-sm', 'aria-label': t('vault.deleteNamed', { name: entry.name }),
      onclick: async () => {
        if (await confirmDialog({ title: t('vault.deleteTitle', { name: entry.name }), body: t('vault.deleteBody') })) {
          act(() => mutate('DELETE', fileUrl('delete', path)));
        }
      },
    }, t('common.delete')));
  }
  return el('tr', {},
    el('td', { class: 'vault-icon', 'aria-hidden': 'true' }, typeIcon(entry)),
    el('td', { class: 'vault-name' }, link),
    el('td', { class: 'vault-size' }, entry.type === 'folder' ? '—' : formatSize(entry.size)),
    el('td', { class: 'vault-modified' }, dateFmt.format(new Date(entry.modified * 1000))),
    el('td', {}, actions));
}

function renderTable(tbody) {
  tbody.replaceChildren(...sortedEntries().map(rowFor));
  if (!tbody.children.length) {
    tbody.append(el('tr', {}, el('td', { colspan: 5, class: 'muted' }, t('vault.empty'))));
  }
}

function upload(files) {
  if (!files.length) return;
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  const overwrite = document.getElementById('vault-overwrite').checked;
  act(() => mutate('POST', `${fileUrl('upload', data.path)}&overwrite=${overwrite}`, form));
}

async function showTrash(section) {
  const res = await fetch('/vault/trash', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const answer = await res.json();
  const list = el('ul', { class: 'vault-trash' });
  for (const item of answer.items) {
    list.append(el('li', {}, `${item.path} · ${dateFmt.format(new Date(item.deleted * 1000))} `,
      el('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: () => act(() => mutate('POST', '/vault/restore', { id: item.id })) }, t('vault.restore'))));
  }
  if (!answer.items.length) list.append(el('li', { class: 'muted' }, t('vault.trashEmpty')));
  section.replaceChildren(el('h2', {}, t('vault.trash')), el('p', { class: 'muted' }, t('vault.trashKept', { days: answer.days })), list);
  section.hidden = false;
}

function render() {
  const tbody = el('tbody');
  const filter = el('input', { type: 'search', id: 'vault-filter', 'aria-label': t('vault.filter'), placeholder: t('vault.filter') });
  filter.addEventListener('input', () => { state.filter = filter.value; renderTable(tbody); });
  const sort = el('select', { id: 'vault-sort', 'aria-label': t('vault.sort') },
    el('option', { value: 'name' }, t('vault.sort.name')),
    el('option', { value: 'size' }, t('vault.sort.size')),
    el('option', { value: 'modified' }, t('vault.sort.modified')));
  sort.addEventListener('change', () => { state.sort = sort.value; renderTable(tbody); });
  const order = el('button', { type: 'button', class: 'btn btn-ghost btn-sm', 'aria-label': t('vault.order') }, '↕');
  order.addEventListener('click', () => { state.dir = -state.dir; renderTable(tbody); });

  const tools = el('div', { class: 'vault-tools' }, filter, sort, order);
  if (data.rights.write) {
    const picker = el('input', { type: 'file', multiple: true, id: 'vault-upload', class: 'visually-hidden' });
    picker.addEventListener('change', () => upload([...picker.files]));
    tools.append(
      el('label', { for: 'vault-upload', class: 'btn btn-primary btn-sm' }, t('vault.upload')),
      picker,
      el('label', { class: 'vault-check' }, el('input', { type: 'checkbox', id: 'vault-overwrite' }), t('vault.overwrite')),
      el('button', {
        type: 'button', class: 'btn btn-ghost btn-sm',
        onclick: async () => {
          const name = await askText(t('vault.folderPrompt'));
          if (name) act(() => mutate('POST', '/vault/create_folder', { path: join(data.path, name) }));
        },
      }, t('vault.newFolder')));
    main.addEventListener('dragover', (e) => { e.preventDefault(); main.classList.add('vault-drop'); });
    main.addEventListener('dragleave', () => main.classList.remove('vault-drop'));
    main.addEventListener('drop', (e) => {
      e.preventDefault();
      main.classList.remove('vault-drop');
      upload([...e.dataTransfer.files]);
    });
  }
  const trashSection = el('section', { class: 'vault-trash-section', hidden: true });
  tools.append(el('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: () => showTrash(trashSection) }, t('vault.trash')));

  const header = el('header', { class: 'vault-bar' },
    el('h1', {}, t('vault.title')),
    el('span', { class: 'muted' }, data.user.username),
    languageButton(),
    el('button', {
      type: 'button', class: 'btn btn-ghost btn-sm',
      onclick: async () => { try { await mutate('POST', '/vault/logout'); } finally { location.assign('/vault/login'); } },
    }, t('vault.logout')));

  const table = el('table', { class: 'vault-table' },
    el('thead', {}, el('tr', {},
      el('th', { 'aria-hidden': 'true' }),
      el('th', { scope: 'col' }, t('vault.sort.name')),
      el('th', { scope: 'col' }, t('vault.sort.size')),
      el('th', { scope: 'col' }, t('vault.sort.modified')),
      el('th', { scope: 'col' }, t('vault.actions')))),
    tbody);
  main.replaceChildren(header, breadcrumbs(), tools, table, trashSection);
  renderTable(tbody);
}

applyI18n();
render();
document.body.dataset.loaded = 'true';
