// The personal-data policy page (www/privacy.html): both languages are in the markup, so crawlers
// and readers without scripts see the whole policy; with scripts, the visitor's language comes first.
import { lang } from './i18n.js';

const ru = document.getElementById('policy-ru');
const en = document.getElementById('policy-en');
const other = document.getElementById('policy-other');
if (lang === 'en') {
  ru.before(en);
  document.documentElement.lang = 'en';
  document.title = 'Personal data policy — Dozor';
  other.href = '#policy-ru';
  other.hreflang = 'ru';
  other.lang = 'ru';
  other.textContent = 'Русская версия';
}
document.body.dataset.loaded = 'true';
