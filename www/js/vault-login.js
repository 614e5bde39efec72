// Vault login page: POST /vault/login (the same accounts as the dashboard) sets the vault's
// session cookie; then the file browser opens. No token is kept in the page.
import { t, applyI18n } from './i18n.js';
import { busy, clearErrors, showErrors, showFormAlert } from './ui.js';
import { languageButton } from './shell.js';

const form = document.getElementById('login-form');
const submit = form.querySelector('button[type="submit"]');
const announcer = document.getElementById('login-announce');

function alertAndAnnounce(text) {
  showFormAlert(form, text);
  announcer.textContent = '';
  setTimeout(() => { announcer.textContent = text; }, 50);
}

async function onSubmit(event) {
  event.preventDefault();
  clearErrors(form);
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  if (!username || !password) {
    alertAndAnnounce(t('login.required'));
    return;
  }
  const done = busy(submit, 'login.submitting');
  let res;
  try {
    res = await fetch('/vault/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
  } catch {
    done();
    alertAndAnnounce(t('vault.network'));
    return;
  }
  if (res.ok) {
    location.replace('/vault'); // the start page: the user's home folder
    return;
  }
  done();
  if (res.status === 401) {
    alertAndAnnounce(t('login.invalid'));
    form.elements.password.value = '';
    form.elements.password.focus();
  } else if (res.status === 429) {
    const wait = Number(res.headers.get('Retry-After'));
    alertAndAnnounce(wait ? t('login.throttled', { seconds: wait }) : t('login.throttledLater'));
  } else {
    let body = null;
    try { body = await res.json(); } catch { /* not JSON */ }
    showErrors(form, { formErrors: [body && typeof body.detail === 'string' ? body.detail : t('error.generic', { status: res.status })] });
  }
}

applyI18n();
document.getElementById('login-footer').append(languageButton());
form.addEventListener('submit', onSubmit);
form.elements.username.focus();
document.body.dataset.loaded = 'true';
