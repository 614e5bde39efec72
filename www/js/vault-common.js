// What the vault's pages share: their data (#vault-data, rendered by dozor-fcgi), the app's top
// bar with the vault's own sign-out, calls with the session's CSRF token, and every error told
// through the strings table in the page's language (never the server's English elsewhere).
import { t, lang, applyI18n } from './i18n.js';
import { errorFrom, clearToken } from './api.js';
import { validationText } from './messages.js';
import { drawTopbar } from './shell.js';

export const data = JSON.parse(document.getElementById('vault-data')?.textContent || '{}');

export const browseUrl = (path) => `/vault/browse?path=${encodeURIComponent(path)}`;
export const fileUrl = (route, path) => `/vault/${route}?path=${encodeURIComponent(path)}`;
export const parentOf = (path) => path.slice(0, path.lastIndexOf('/')) || '/';
export const nameOf = (path) => path.slice(path.lastIndexOf('/') + 1);

/** Ends the vault session and the app's (one Sign out for the product), then the vault's login. */
export async function signOut() {
  try {
    await fetch('/vault/logout', {
      method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json', 'X-CSRF-Token': data.csrf || '' },
    });
  } catch { /* leaving anyway */ }
  clearToken();
  location.assign('/vault/login');
}

/** Translates the page and draws the app's top bar with the Files item current. */
export function initVaultPage() {
  applyI18n();
  if (data.user) drawTopbar(data.user, 'vault', signOut);
}

/**
 * The user's text for a failed vault answer, in the page's language: 422 items through the
 * validation texts (no "Value error," prefix), a known vault `detail` through its string, other
 * statuses through the app's texts per status.
 */
export function vaultErrorText(status, body, headers = new Headers()) {
  const detail = body && typeof body === 'object' ? body.detail : undefined;
  if (status === 422 && Array.isArray(detail)) {
    const texts = detail.filter((i) => i && typeof i === 'object')
      .map((i) => validationText(i, lang).replace(/^Value error, /, ''));
    if (texts.length) return texts.join('\n');
  }
  if (status === 507) return t('error.vaultDiskFull');
  if (status === 413) return t('error.vaultTooLarge');
  return errorFrom({ status, headers }, body).message;
}

/** An Error whose message is the user's text; err.status keeps the HTTP status (0: no answer). */
export function vaultError(status, body, headers) {
  const err = new Error(status === 0 ? t('vault.network') : vaultErrorText(status, body, headers));
  err.status = status;
  return err;
}

/**
 * One vault call answered with JSON. Changes (csrf: true) carry the session's token; a FormData
 * body goes as is. A 401 leaves for the login page. Throws a vaultError.
 */
export async function call(method, url, { body, csrf = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (csrf) headers['X-CSRF-Token'] = data.csrf;
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body: payload, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw vaultError(0);
  }
  if (res.status === 401) {
    location.assign('/vault/login');
    throw new Error(t('vault.expired'));
  }
  let answer = null;
  try { answer = await res.json(); } catch { /* empty or not JSON */ }
  if (!res.ok) throw vaultError(res.status, answer, res.headers);
  return answer;
}

export const mutate = (method, url, body) => call(method, url, { body, csrf: true });

/** "1.5 MiB" in the page's language (decimal comma in Russian). */
export function formatSize(bytes) {
  const units = lang === 'ru' ? ['Б', 'КиБ', 'МиБ', 'ГиБ', 'ТиБ'] : ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = Number(bytes) || 0;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  const n = new Intl.NumberFormat(lang, { maximumFractionDigits: i === 0 ? 0 : 1, minimumFractionDigits: i === 0 ? 0 : 1 }).format(v);
  return `${n}\u00a0${units[i]}`;
}

// What the browse page offers to edit: office formats in the document server's editor,
// text in the text editor. Others (pictures, media, PDF, archives) are viewed or downloaded.
const OFFICE = new Set(['docx', 'doc', 'docm', 'odt', 'rtf', 'xlsx', 'xls', 'xlsm', 'ods', 'pptx', 'ppt', 'pptm', 'odp']);
const NOT_TEXT = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'ico', 'tif', 'tiff', 'heic',
  'mp3', 'ogg', 'wav', 'flac', 'm4a', 'aac', 'opus', 'mp4', 'webm', 'mkv', 'mov', 'avi',
  'pdf', 'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'exe', 'dll', 'so', 'bin', 'iso', 'dmg', 'apk', 'jar', 'class', 'woff', 'woff2', 'ttf', 'otf']);

export function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** 'office', 'text' or null: which editor opens a file of this name. */
export function editorFor(name, { docedit = true } = {}) {
  const ext = extensionOf(name);
  if (OFFICE.has(ext)) return docedit ? 'office' : null;
  if (NOT_TEXT.has(ext)) return null;
  return 'text';
}

/** The icon name of an entry (www/js/icons.js). */
export function iconFor(entry) {
  if (entry.type === 'folder') return 'folder';
  const ext = extensionOf(entry.name);
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'svg', 'ico', 'tif', 'tiff', 'heic'].includes(ext)) return 'image';
  if (['mp3', 'ogg', 'wav', 'flac', 'm4a', 'aac', 'opus', 'mp4', 'webm', 'mkv', 'mov', 'avi'].includes(ext)) return 'media';
  if (['zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar'].includes(ext)) return 'archive';
  if (['xlsx', 'xls', 'xlsm', 'ods', 'csv'].includes(ext)) return 'sheet';
  if (['pptx', 'ppt', 'pptm', 'odp'].includes(ext)) return 'slides';
  if (['docx', 'doc', 'docm', 'odt', 'rtf', 'pdf'].includes(ext)) return 'document';
  if (editorFor(entry.name) === 'text' && ext) return 'text';
  return 'file';
}
