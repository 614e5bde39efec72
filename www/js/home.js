// The landing page at / (spec §4.8: 200 text/html, leads to the login page). Static markup that
// works without scripts; with them, the visitor's language and a language switch.
import { applyI18n } from './i18n.js';
import { languageButton } from './shell.js';

applyI18n();
document.getElementById('home-footer').append(languageButton());
document.body.dataset.loaded = 'true';
