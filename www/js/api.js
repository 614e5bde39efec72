// Fetch wrapper for the Dozor API: bearer token from localStorage, JSON in and out,
// errors as ApiError with the server's `detail` (a string, or the 422 list turned into
// per-field messages). A 401 on an authenticated call ends the session and opens /login.
import { t, lang } from './i18n.js';
import { detailText, validationText } from './messages.js';

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

const LOC_ROOTS = new Set(['body', 'query', 'path', 'header', 'cookie']);

function parseRetryAfter(res) {
  const raw = res.headers.get('Retry-After');
  if (!raw) return null;
  const n = Number.parseInt(raw, 10);
  if (Number.isFinite(n) && n >= 0) return n;
  const when = Date.parse(raw);
  return Number.isNaN(when) ? null : Math.max(0, Math.ceil((when - Date.now()) / 1000));
}

/** An ApiError for a failed answer (`data`: its parsed JSON body or null), texts in the page's language. */
export function errorFrom(res, data) {
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
      const msg = validationText(item, lang);
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

  return new ApiError(status, statusMessage(status, detail, retryAfter), { retryAfter, detail });
}

/**
 * The user's text for a non-422 error. The server's `detail` is English: it is shown as is only on
 * English pages and only for 4xx answers (they name the problem: "A user with this e-mail already
 * exists"); other languages get a translation of a known detail or a text per status. 429 and
 * 5xx always get the page's own text (with the wait from Retry-After), never "HTTP 500" twice —
 * except a 502 whose detail says which audited site could not be reached, told in the page's language.
 */
function statusMessage(status, detail, retryAfter) {
  const wait = retryAfter !== null && retryAfter !== undefined;
  if (status === 429) return wait ? t('error.tooMany', { seconds: retryAfter }) : t('error.tooManyLater');
  if (status === 503) return wait ? t('error.unavailableFor', { seconds: retryAfter }) : t('error.unavailable');
  // A 502 of Dozor's own (the audited site gave no answer) names the site and the reason; nginx's
  // 502 (the backend is down) is not a known detail and gets the server text.
  const known502 = status === 502 ? detailText(detail, lang) : null;
  if (known502) return known502;
  if (status >= 500) return t('error.server', { status });
  const known = detailText(detail, lang);
  if (lang === 'en' && typeof detail === 'string' && detail) return detail;
  if (known) return known;
  if (status === 400) return t('error.badRequest');
  if (status === 401) return t('login.expired');
  if (status === 403) return t('error.forbidden');
  if (status === 404) return t('error.notFound');
  if (status === 409) return t('error.conflict');
  if (status === 413) return t('error.tooLarge');
  return t('error.generic', { status });
}

/**
 * Calls the API. Resolves with the parsed JSON body (or null for an empty body).
 * @param {string} path e.g. '/api/v1/services'
 * @param {{method?: string, body?: any, auth?: boolean, redirectOn401?: boolean, signal?: AbortSignal,
 *   raw?: boolean, accept?: string}} options
 *   auth=false: send no token (login form). redirectOn401=false: throw instead of leaving the page.
 *   raw=true: resolve with the Response itself (a file download); errors are handled as for JSON.
 */
export async function api(path, {
  method = 'GET', body, auth = true, redirectOn401 = true, signal, raw = false, accept = 'application/json',
} = {}) {
  const headers = { Accept: accept };
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

  if (raw && res.ok) return res;
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
