// The page a browser gets instead of a JSON error when a page request under /vault fails:
// dozor-fcgi's (fcgi/vault_page.cpp: #vault-data.error = {status, path, detail?}) or nginx's own
// (www/vault/error-*.html: body[data-status]). It says in the page's language what happened and
// leads on: to the user's files, back, to the dashboard.
import { t, lang, applyI18n } from './i18n.js';
import { el } from './ui.js';
import { icon } from './icons.js';
import { detailText } from './messages.js';
import { languageButton } from './shell.js';
import { data } from './vault-common.js';

const error = data.error || {};
const status = Number(error.status || document.body.dataset.status) || 500;

function kind() {
  if ([403, 404, 405, 422, 429].includes(status)) return String(status);
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status >= 500) return 'server';
  return 'other';
}

applyI18n();
document.title = `${t(`vaultError.${kind()}.title`)} — ${t('vault.title')}`;

const bar = document.getElementById('topbar');
bar.replaceChildren(
  el('a', { class: 'brand', href: '/dashboard' },
    el('img', { src: '/favicon.svg', alt: '', width: 28, height: 28 }), el('span', {}, t('app.name'))),
  el('nav', { class: 'nav', 'aria-label': t('nav.main') }, el('ul', { class: 'nav-list' },
    el('li', {}, el('a', { class: 'nav-link', href: '/dashboard' }, t('nav.dashboard'))),
    el('li', {}, el('a', { class: 'nav-link', href: '/vault', 'aria-current': 'page' }, t('nav.vault'))))),
  el('div', { class: 'topbar-user' }, languageButton()));

const known = detailText(error.detail, lang);
const actions = el('div', { class: 'btn-row' },
  el('a', { class: 'btn btn-primary', href: '/vault', id: 'vault-error-home' }, icon('folder'), el('span', {}, t('vaultError.home'))));
if (history.length > 1) {
  actions.append(el('button', { type: 'button', class: 'btn btn-ghost', onclick: () => history.back() }, icon('back'), el('span', {}, t('vaultError.back'))));
}
if (kind() === 'unavailable' || kind() === 'server' || kind() === '429') {
  actions.append(el('button', { type: 'button', class: 'btn btn-ghost', onclick: () => location.reload() }, t('common.retry')));
}
actions.append(el('a', { class: 'btn btn-ghost', href: '/dashboard' }, t('nav.dashboard')));

document.getElementById('main').replaceChildren(el('section', { class: 'panel vault-error', 'aria-labelledby': 'vault-error-title' },
  el('p', { class: 'vault-error-code muted' }, t('vaultError.code', { status })),
  el('h1', { id: 'vault-error-title' }, t(`vaultError.${kind()}.title`)),
  el('p', {}, t(`vaultError.${kind()}.body`)),
  known ? el('p', { class: 'muted', id: 'vault-error-detail' }, known) : null,
  actions));
document.body.dataset.loaded = 'true';
