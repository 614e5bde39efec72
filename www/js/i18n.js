// Language choice and translation of the page. Strings live in strings.js.
import { STRINGS, LANGUAGES, DEFAULT_LANGUAGE, format } from './strings.js';

const LANG_KEY = 'dozor.lang';

function pickLanguage() {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch { /* storage may be unavailable */ }
  const preferred = (navigator.languages && navigator.languages.length
    ? navigator.languages : [navigator.language || '']);
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

export const lang = pickLanguage();

export function setLanguage(code) {
  if (!LANGUAGES.includes(code)) return;
  try { localStorage.setItem(LANG_KEY, code); } catch { /* ignore */ }
  location.reload();
}

/** Translates key, filling {placeholders} from params. A missing key is a bug: report it loudly. */
export function t(key, params) {
  let s = STRINGS[lang][key];
  if (s === undefined) {
    s = STRINGS[DEFAULT_LANGUAGE][key];
    console.error(`i18n: missing string "${key}" (${lang})`);
    if (s === undefined) return key;
  }
  return params ? format(s, params) : s;
}

/** Fills [data-i18n] text and [data-i18n-attr="attr:key;attr:key"] attributes under root. */
export function applyI18n(root = document) {
  if (root === document) document.documentElement.lang = lang;
  for (const node of root.querySelectorAll('[data-i18n]')) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const node of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((x) => x.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
const dtf = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });

function toDate(value) {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDateTime(value) {
  const d = toDate(value);
  return d ? dtf.format(d) : t('common.never');
}

export function formatDate(value) {
  const d = toDate(value);
  return d ? dateOnly.format(d) : t('common.dash');
}

/** "3 minutes ago", "just now", or "never". */
export function formatRelative(value, now = Date.now()) {
  const d = toDate(value);
  if (!d) return t('common.never');
  const diff = Math.round((d.getTime() - now) / 1000);
  const abs = Math.abs(diff);
  if (abs < 10) return t('common.justNow');
  if (abs < 60) return rtf.format(diff, 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86400), 'day');
}

export function formatMs(ms) {
  return ms === null || ms === undefined ? t('common.dash') : t('common.ms', { n: ms });
}

/** A duration in milliseconds as "2 d 3 h", "3 h 5 min", "4 min" or "< 1 min" (two largest units). */
export function formatDuration(ms) {
  const minutes = Math.max(0, Math.floor((Number(ms) || 0) / 60000));
  if (minutes < 1) return t('dur.lessThanMinute');
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = [];
  if (d) parts.push(t('dur.d', { n: d }));
  if (h && parts.length < 2) parts.push(t('dur.h', { n: h }));
  if (m && !d) parts.push(t('dur.m', { n: m }));
  return parts.join(' ');
}
