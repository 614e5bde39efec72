// The vault's office editor (/vault/docedit_edit?path=), in the app's layout: loads the document
// server's api.js (#vault-data.api_js, from vault.docserver_url; the page's CSP names that origin)
// and opens its editor with the config the server signed (#vault-data.config, "token" included).
// When the document server does not answer (the script fails or has not loaded in 20 s) the page
// says so and what to do: try again, tell the administrator, download the file meanwhile.
import { t } from './i18n.js';
import { el } from './ui.js';
import { icon } from './icons.js';
import { data, initVaultPage, browseUrl, fileUrl, parentOf, nameOf } from './vault-common.js';

const LOAD_SECONDS = 20;
const main = document.getElementById('main');
const name = nameOf(data.path);
const folder = parentOf(data.path);

initVaultPage();
document.title = `${name} — ${t('vaultDocedit.title')}`;

const status = el('p', { id: 'vault-status', class: 'vault-status', role: 'status' }, t('vaultDocedit.loading'));
const problem = el('section', { id: 'vault-docedit-problem', class: 'panel notice notice-error vault-problem', hidden: true, 'aria-labelledby': 'vault-problem-title' });
const holder = el('div', { id: 'vault-docedit' });
const frame = el('div', { class: 'vault-docedit-frame' }, holder);
const download = () => el('a', { class: 'btn btn-ghost btn-sm', href: fileUrl('download', data.path) }, icon('download'), el('span', {}, t('vault.download')));

main.replaceChildren(
  el('nav', { class: 'vault-crumbs', 'aria-label': t('vault.location') },
    el('a', { href: browseUrl(folder), class: 'vault-back', id: 'vault-back' }, icon('back'), el('span', {}, t('vaultEdit.back')))),
  el('div', { class: 'page-head' }, el('h1', { class: 'vault-file-title' }, name), el('div', { class: 'btn-row' }, download())),
  status, problem, frame);

let settled = false;

function unreachable(reasonKey) {
  if (settled) return;
  settled = true;
  frame.hidden = true;
  status.textContent = '';
  const origin = data.docserver || t('vaultDocedit.theServer');
  problem.replaceChildren(
    el('h2', { id: 'vault-problem-title' }, icon('alert'), el('span', {}, t('vaultDocedit.unreachableTitle'))),
    el('p', {}, t(reasonKey, { origin })),
    el('p', {}, t('vaultDocedit.whatToDo')),
    el('div', { class: 'btn-row' },
      el('button', { type: 'button', class: 'btn btn-primary btn-sm', id: 'vault-retry', onclick: () => location.reload() }, t('common.retry')),
      download(),
      el('a', { class: 'btn btn-ghost btn-sm', href: browseUrl(folder) }, t('vaultEdit.back'))));
  problem.hidden = false;
  document.body.dataset.loaded = 'true';
}

const timer = setTimeout(() => unreachable('vaultDocedit.slow'), LOAD_SECONDS * 1000);
const script = document.createElement('script');
script.src = data.api_js;
script.addEventListener('load', () => {
  clearTimeout(timer);
  if (!window.DocsAPI) {
    unreachable('vaultDocedit.broken');
    return;
  }
  settled = true;
  status.textContent = '';
  // eslint-disable-next-line no-new
  new window.DocsAPI.DocEditor('vault-docedit', data.config);
  document.body.dataset.loaded = 'true';
});
script.addEventListener('error', () => {
  clearTimeout(timer);
  unreachable('vaultDocedit.unreachable');
});
document.head.append(script);
