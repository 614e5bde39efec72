// The frame shared by the signed-in pages: translation, session check (GET /api/auth/verify),
// top bar with navigation, user name, language switch and logout.
import { api, getToken, clearToken, redirectToLogin } from './api.js';
import { t, lang, applyI18n, setLanguage } from './i18n.js';
import { el } from './ui.js';
import { LANGUAGES } from './strings.js';

const NAV = [
  { id: 'dashboard', href: '/dashboard', key: 'nav.dashboard' },
  { id: 'security', href: '/security', key: 'nav.security' },
  { id: 'notifications', href: '/notifications', key: 'nav.notifications' },
  { id: 'kiosk', href: '/kiosk', key: 'nav.kiosk' },
  { id: 'vault', href: '/vault', key: 'nav.vault' },
  { id: 'admin', href: '/admin', key: 'nav.admin', adminOnly: true },
];

const never = () => new Promise(() => {});

export function logout() {
  clearToken();
  location.assign('/login');
}

export function nextLanguage() {
  return LANGUAGES[(LANGUAGES.indexOf(lang) + 1) % LANGUAGES.length];
}

export function languageButton(className = 'btn btn-ghost btn-sm') {
  return el('button', {
    type: 'button', class: className, lang: nextLanguage(),
    'aria-label': t('nav.languageLabel'), onclick: () => setLanguage(nextLanguage()),
  }, t('nav.language'));
}

function renderTopbar(user, active) {
  drawTopbar(user, active, logout);
}

/**
 * Draws the app's top bar into #topbar: brand, the main navigation (active marked), the user,
 * the language switch and a Sign out button calling onLogout. The vault's pages, which know their
 * user from the vault session, draw the same bar with their own sign-out.
 */
export function drawTopbar(user, active, onLogout) {
  const bar = document.getElementById('topbar');
  if (!bar) return;
  const links = NAV.filter((item) => !item.adminOnly || user.is_admin).map((item) =>
    el('li', {}, el('a', {
      href: item.href, class: 'nav-link', 'aria-current': item.id === active ? 'page' : null,
      dataset: { nav: item.id },
    }, t(item.key))));
  bar.replaceChildren(
    el('a', { class: 'brand', href: '/dashboard' },
      el('img', { src: '/favicon.svg', alt: '', width: 28, height: 28 }),
      el('span', {}, t('app.name'))),
    el('nav', { class: 'nav', 'aria-label': t('nav.main') }, el('ul', { class: 'nav-list' }, links)),
    el('div', { class: 'topbar-user' },
      el('span', { class: 'user-name', id: 'current-user' },
        el('span', { class: 'visually-hidden' }, `${t('nav.signedInAs')} `), user.username),
      languageButton(),
      el('button', { type: 'button', class: 'btn btn-ghost btn-sm', id: 'logout', onclick: onLogout }, t('nav.logout'))),
  );
}

/** Replaces the page content with an error and a retry button. */
export function showFatal(message) {
  const main = document.getElementById('main') || document.body;
  main.replaceChildren(el('div', { class: 'panel notice notice-error', role: 'alert' },
    el('h1', {}, t('error.loadPage')),
    el('p', {}, message),
    el('button', { type: 'button', class: 'btn btn-primary', onclick: () => location.reload() }, t('common.retry'))));
}

/**
 * Translates the page, checks the session and draws the top bar.
 * Resolves with the UserResponse; never resolves when the page is being left (no session).
 */
export async function initPage({ active, topbar = true } = {}) {
  applyI18n();
  if (!getToken()) {
    redirectToLogin();
    return never();
  }
  let user;
  try {
    const answer = await api('/api/auth/verify');
    user = answer && answer.user;
    if (!user) throw new Error('verify: no user in the answer');
  } catch (err) {
    if (err && err.status === 401) return never(); // api() is already redirecting
    showFatal(err.message || String(err));
    return never();
  }
  if (topbar) renderTopbar(user, active);
  document.body.dataset.ready = 'true';
  return user;
}
