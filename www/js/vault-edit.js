// The vault's text editor (/vault/edit?path=), in the app's layout. The server renders the page
// with its data (#vault-data: path, size, whether the caller may write, the session's CSRF token,
// the user); the text is read through /vault/download and saved through POST /vault/save_file
// with that token (Ctrl+S too). A file that is not UTF-8 text is not opened for editing.
import { t } from './i18n.js';
import { el } from './ui.js';
import { icon } from './icons.js';
import { data, initVaultPage, mutate, vaultError, browseUrl, fileUrl, parentOf, nameOf } from './vault-common.js';

const main = document.getElementById('main');
const name = nameOf(data.path);
const folder = parentOf(data.path);

initVaultPage();
document.title = `${name} — ${t('vaultEdit.title')}`;

const status = el('p', { id: 'vault-status', class: 'vault-status', role: 'status' });
const area = el('textarea', {
  id: 'vault-editor', class: 'input vault-editor', spellcheck: 'false', rows: 24, 'aria-label': t('vaultEdit.contents', { name }),
});
area.readOnly = true;
const save = el('button', { type: 'button', id: 'vault-save', class: 'btn btn-primary btn-sm', disabled: true }, t('vaultEdit.save'));
let saved = '';

main.replaceChildren(
  el('nav', { class: 'vault-crumbs', 'aria-label': t('vault.location') },
    el('a', { href: browseUrl(folder), class: 'vault-back', id: 'vault-back' }, icon('back'), el('span', {}, t('vaultEdit.back')))),
  el('div', { class: 'page-head' },
    el('h1', { class: 'vault-file-title' }, name),
    el('div', { class: 'btn-row' },
      el('a', { class: 'btn btn-ghost btn-sm', href: fileUrl('download', data.path) }, icon('download'), el('span', {}, t('vault.download'))),
      save)),
  el('p', { class: 'muted vault-path' }, data.path),
  status,
  area);

function dirty() { return area.value !== saved; }

function showState() {
  if (!data.can_write) return;
  save.disabled = !dirty();
  status.textContent = dirty() ? t('vaultEdit.unsaved') : status.textContent;
}

async function load() {
  status.textContent = t('vaultEdit.loading');
  let res;
  try {
    res = await fetch(fileUrl('download', data.path), { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    status.textContent = t('vault.network');
    return;
  }
  if (!res.ok) {
    let body = null;
    try { body = await res.json(); } catch { /* not JSON */ }
    status.textContent = t('vaultEdit.cannotOpen', { reason: vaultError(res.status, body, res.headers).message });
    return;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = null;
  }
  if (text === null || text.includes('\u0000')) {
    area.hidden = true;
    status.textContent = t('vaultEdit.notText');
    return;
  }
  area.value = text;
  saved = text;
  area.readOnly = !data.can_write;
  status.textContent = data.can_write ? '' : t('vaultEdit.readOnly');
  document.body.dataset.loaded = 'true';
}

async function doSave() {
  if (!data.can_write || save.disabled) return;
  save.disabled = true;
  status.textContent = t('vaultEdit.saving');
  const content = area.value;
  try {
    await mutate('POST', '/vault/save_file', { path: data.path, content });
    saved = content;
    status.textContent = t('vaultEdit.saved');
  } catch (err) {
    status.textContent = t('vaultEdit.notSaved', { reason: err.message });
  } finally {
    save.disabled = !dirty();
  }
}

area.addEventListener('input', showState);
save.addEventListener('click', doSave);
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
    e.preventDefault();
    doSave();
  }
});

load();
