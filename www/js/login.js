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
const announcer = document.getElementById('login-announce');
let lockTimer = 0;

/** Says text once to screen readers (the visible alert is not a live region). */
function announce(text) {
  announcer.textContent = '';
  // A new text node in a later task: the same message twice in a row is read again.
  setTimeout(() => { announcer.textContent = text; }, 50);
}

/** Shows the form's alert (visible) and announces it. */
function alertAndAnnounce(text) {
  showFormAlert(form, text);
  if (text) announce(text);
}

// The countdown ticks visibly every second; it is announced when it starts and when it ends only.
function lockFor(seconds) {
  clearInterval(lockTimer);
  const until = Date.now() + seconds * 1000;
  submit.disabled = true;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(lockTimer);
      submit.disabled = false;
      alertAndAnnounce(t('login.unlocked'));
      return;
    }
    showFormAlert(form, t('login.throttled', { seconds: left }));
  };
  announce(t('login.throttled', { seconds }));
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
    announce(t('login.required'));
    return;
  }
  const done = busy(submit, 'login.submitting');
  let answer;
  try {
    answer = await api('/api/auth/login', { method: 'POST', body: { username, password }, auth: false });
  } catch (err) {
    done();
    if (err.status === 401) {
      alertAndAnnounce(t('login.invalid'));
      form.elements.password.value = '';
      form.elements.password.focus();
    } else if (err.status === 429) {
      if (err.retryAfter) lockFor(err.retryAfter);
      else alertAndAnnounce(t('login.throttledLater'));
    } else {
      showErrors(form, err);
      announce(err.message);
    }
    return;
  }
  if (!answer || !answer.access_token) {
    done();
    alertAndAnnounce(t('error.generic', { status: 200 }));
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
