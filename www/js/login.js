// Login page: POST /api/auth/login, keep the token, go to ?next= (same-origin path) or /dashboard.
import { api, getToken, setToken } from './api.js';
import { t, applyI18n } from './i18n.js';
import { busy, clearErrors, showErrors, showFormAlert, linkFieldDescriptions } from './ui.js';
import { languageButton } from './shell.js';

const DEFAULT_PAGE = '/dashboard';

/** Only a path on this site may be a target (no open redirect); the login page itself is not. */
export function safeNext(raw) {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return DEFAULT_PAGE;
  let url;
  try { url = new URL(raw, location.origin); } catch { return DEFAULT_PAGE; }
  if (url.origin !== location.origin || url.pathname === '/login' || url.pathname === '/login.html') {
    return DEFAULT_PAGE;
  }
  return url.pathname + url.search + url.hash;
}

const params = new URLSearchParams(location.search);
const next = safeNext(params.get('next'));
const form = document.getElementById('login-form');
const submit = form.querySelector('button[type="submit"]');
let lockTimer = 0;

function lockFor(seconds) {
  clearInterval(lockTimer);
  let left = seconds;
  submit.disabled = true;
  const tick = () => {
    if (left <= 0) {
      clearInterval(lockTimer);
      submit.disabled = false;
      return;
    }
    showFormAlert(form, t('login.throttled', { seconds: left }));
    left -= 1;
  };
  tick();
  lockTimer = setInterval(tick, 1000);
}

async function onSubmit(event) {
  event.preventDefault();
  clearErrors(form);
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  if (!username || !password) {
    const fields = {};
    if (!username) fields.username = [t('v.missing')];
    if (!password) fields.password = [t('v.missing')];
    showErrors(form, { fields, formErrors: [t('login.required')] });
    return;
  }
  const done = busy(submit, 'login.submitting');
  let answer;
  try {
    answer = await api('/api/auth/login', { method: 'POST', body: { username, password }, auth: false });
  } catch (err) {
    done();
    if (err.status === 401) {
      showFormAlert(form, t('login.invalid'));
      form.elements.password.value = '';
      form.elements.password.focus();
    } else if (err.status === 429) {
      if (err.retryAfter) lockFor(err.retryAfter);
      else showFormAlert(form, t('login.throttledLater'));
    } else {
      showErrors(form, err);
    }
    return;
  }
  if (!answer || !answer.access_token) {
    done();
    showFormAlert(form, t('error.generic', { status: 200 }));
    return;
  }
  setToken(answer.access_token);
  location.replace(next);
}

async function init() {
  applyI18n();
  document.getElementById('login-footer').append(languageButton());
  linkFieldDescriptions(form);
  form.addEventListener('submit', onSubmit);

  if (params.get('expired')) {
    const info = document.getElementById('login-info');
    info.textContent = t('login.expired');
    info.hidden = false;
  }

  // Already signed in with a live token: go straight on.
  if (getToken()) {
    try {
      await api('/api/auth/verify', { redirectOn401: false });
      location.replace(next);
      return;
    } catch { /* token expired or revoked: api() removed it; stay here */ }
  }
  form.elements.username.focus();
  document.body.dataset.loaded = 'true';
}

init();
