// Fetch wrapper for the Dozor API: bearer token from localStorage, JSON in and out,
// errors as ApiError with the server's `detail` (a string, or the 422 list turned into
// per-field messages). A 401 on an authenticated call ends the session and opens /login.
import { t, lang } from './i18n.js';
import { STRINGS } from './strings.js';

const TOKEN_KEY = 'dozor.token';

export function getToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function setToken(token) {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  try { localStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
}

/** The page to come back to after signing in: path + query of the current page. */
export function currentPagePath() {
  return location.pathname + location.search;
}

export function loginUrl({ expired = false } = {}) {
  const params = new URLSearchParams();
  const here = currentPagePath();
  if (here && !here.startsWith('/login')) params.set('next', here);
  if (expired) params.set('expired', '1');
  const q = params.toString();
  return q ? `/login?${q}` : '/login';
}

export function redirectToLogin(opts) {
  location.replace(loginUrl(opts));
}

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0 = network failure)
   * @param {string} message text fit for the user
   * @param {object} extra fields: {field: [messages]}, formErrors: [messages], retryAfter: seconds|null
   */
  constructor(status, message, { fields = {}, formErrors = [], retryAfter = null, detail = null } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.formErrors = formErrors;
    this.retryAfter = retryAfter;
    this.detail = detail;
  }
}

/**
 * Message of one pydantic-style validation item. English uses the server's own text; other
 * languages a translation by `type`, filled from `ctx` — or the server's text when the
 * translation needs a value the item does not carry.
 */
function validationMessage(item) {
  if (lang === 'en' && item.msg) return String(item.msg);
  const template = STRINGS[lang] && STRINGS[lang][`v.${item.type}`];
  const params = item.ctx && typeof item.ctx === 'object' ? item.ctx : {};
  const needed = template ? [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) : [];
  if (template && needed.every((name) => params[name] !== undefined)) return t(`v.${item.type}`, params);
  return item.msg ? String(item.msg) : String(item.type || '');
}

const LOC_ROOTS = new Set(['body', 'query', 'path', 'header', 'cookie']);

function parseRetryAfter(res) {
  const raw = res.headers.get('Retry-After');
  if (!raw) return null;
  const n = Number.parseInt(raw, 10);
  if (Number.isFinite(n) && n >= 0) return n;
  const when = Date.parse(raw);
  return Number.isNaN(when) ? null : Math.max(0, Math.ceil((when - Date.now()) / 1000));
}

function errorFrom(res, data) {
  const status = res.status;
  const retryAfter = parseRetryAfter(res);
  const detail = data && typeof data === 'object' ? data.detail : undefined;

  if (Array.isArray(detail)) {
    const fields = {};
    const formErrors = [];
    for (const item of detail) {
      if (!item || typeof item !== 'object') continue;
      const loc = Array.isArray(item.loc) ? item.loc.slice() : [];
      if (loc.length && LOC_ROOTS.has(loc[0])) loc.shift();
      const msg = validationMessage(item);
      if (loc.length) {
        const field = loc.join('.');
        (fields[field] ||= []).push(msg);
      } else {
        formErrors.push(msg);
      }
    }
    const all = [...formErrors, ...Object.entries(fields).map(([f, m]) => `${f}: ${m.join(' ')}`)];
    return new ApiError(status, all.join('\n') || t('error.generic', { status }),
      { fields, formErrors, retryAfter, detail });
  }

  let message;
  if (typeof detail === 'string' && detail && lang === 'en') message = detail;
  else if (status === 403) message = t('error.forbidden');
  else if (status === 404) message = t('error.notFound');
  else if (status === 429) message = retryAfter !== null
    ? t('error.tooMany', { seconds: retryAfter }) : t('error.tooManyLater');
  else if (typeof detail === 'string' && detail) message = detail;
  else if (status >= 500) message = t('error.server', { status });
  else message = t('error.generic', { status });
  return new ApiError(status, message, { retryAfter, detail });
}

/**
 * Calls the API. Resolves with the parsed JSON body (or null for an empty body).
 * @param {string} path e.g. '/api/v1/services'
 * @param {{method?: string, body?: any, auth?: boolean, redirectOn401?: boolean, signal?: AbortSignal}} options
 *   auth=false: send no token (login form). redirectOn401=false: throw instead of leaving the page.
 */
export async function api(path, { method = 'GET', body, auth = true, redirectOn401 = true, signal } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth) {
    const token = getToken();
    if (!token) {
      if (redirectOn401) redirectToLogin();
      throw new ApiError(401, t('login.expired'));
    }
    headers.Authorization = `Bearer ${token}`;
  }

  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
      credentials: 'same-origin',
    });
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError(0, t('error.network'));
  }

  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (res.ok) return data;

  if (res.status === 401 && auth) {
    clearToken();
    if (redirectOn401) redirectToLogin({ expired: true });
  }
  throw errorFrom(res, data);
}
