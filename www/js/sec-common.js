// Shared parts of the security page's result panels (security.js mounts them): the target in a
// route path, a panel frame with a run button and a live result area, grade and severity badges.
import { t, lang } from './i18n.js';
import { el, busy, isBusy, gradeClass } from './ui.js';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];

/** The crawl's ?depth= and ?max_pages= bounds and defaults (engines/limits.hpp kCrawl*). */
export const CRAWL_LIMITS = {
  depth: { min: 0, max: 10, fallback: 2 },
  max_pages: { min: 1, max: 2000, fallback: 50 },
};

/** The target as one path segment: the whole URL percent-encoded (as the API and tests expect). */
export function targetSegment(target) {
  return encodeURIComponent(target.href);
}

/** A {ru, en} text of the API in the page's language (plain strings pass through). */
export function localized(text) {
  if (text && typeof text === 'object') return text[lang] || text.en || text.ru || '';
  return text === null || text === undefined ? '' : String(text);
}

/** The grade as a large badge with its accessible name ("Grade: A+"). */
export function gradeBlock(grade, score) {
  const shown = grade || t('common.dash');
  return el('span', { class: `grade ${gradeClass(grade)}`, dataset: { grade: grade || '' } },
    el('span', { class: 'visually-hidden' }, t('sec.gradeLabel', { grade: shown })),
    el('span', { class: 'grade-letter', 'aria-hidden': 'true' }, shown),
    score === null || score === undefined ? null
      : el('span', { class: 'grade-score', 'aria-hidden': 'true' }, t('sec.scoreShort', { score })));
}

export function severityTag(severity) {
  const s = SEVERITIES.includes(severity) ? severity : 'info';
  return el('span', { class: `sev sev-${s}`, dataset: { severity: s } }, t(`sec.sev.${s}`));
}

export function notice(message, kind = 'error') {
  return el('p', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : null }, message);
}

/** Rows of a <dl class="kv">: [[label, value], …]; null values are left out. */
export function facts(rows) {
  return el('dl', { class: 'kv' }, rows.filter(([, v]) => v !== null && v !== undefined && v !== '')
    .flatMap(([k, v]) => [el('dt', {}, k), el('dd', { class: 'break' }, v)]));
}

/**
 * A result panel: heading, hint, a run button and a live region the result replaces.
 * run(): Promise<Node> — the rendered result; a thrown error is shown in the panel.
 */
export function runPanel({ id, titleKey, hintKey, buttonKey, busyKey = 'sec.running', run, extra = null, controls = null }) {
  const headingId = `panel-${id}-heading`;
  const output = el('div', { class: 'panel-output', id: `panel-${id}-output`, 'aria-live': 'polite', 'aria-busy': 'false' });
  const button = el('button', { type: 'button', class: 'btn btn-secondary', dataset: { run: id } }, t(buttonKey));
  button.addEventListener('click', async () => {
    if (isBusy(button)) return;
    const done = busy(button, busyKey, { keepFocus: true });
    output.setAttribute('aria-busy', 'true');
    output.replaceChildren(el('p', { class: 'muted' }, t('sec.runningLong')));
    try {
      output.replaceChildren(await run());
    } catch (err) {
      output.replaceChildren(notice(err && err.message ? err.message : String(err)));
    } finally {
      output.setAttribute('aria-busy', 'false');
      done();
    }
  });
  return el('section', { class: 'audit-section', 'aria-labelledby': headingId, dataset: { section: id } },
    el('div', { class: 'audit-section-head' },
      el('h3', { id: headingId }, t(titleKey)),
      el('div', { class: 'btn-row' }, button, extra)),
    hintKey ? el('p', { class: 'hint' }, t(hintKey)) : null,
    controls,
    output);
}

/**
 * The crawl's depth and page-count inputs of a crawling panel (the routes' ?depth= and
 * ?max_pages=, bounds as in engines/limits.hpp); empty fields leave the route's defaults.
 * query(): "?depth=…&max_pages=…" or "" — out-of-range values go to the route, whose 422 is shown.
 */
export function crawlLimits(panelId) {
  const field = (name, labelKey) => {
    const { min, max, fallback } = CRAWL_LIMITS[name];
    const id = `${panelId}-${name}`;
    const input = el('input', {
      id, name, type: 'number', inputmode: 'numeric', min, max, step: 1, placeholder: fallback,
      'aria-describedby': `${id}-hint`,
    });
    return { name, input, node: el('div', { class: 'field' },
      el('label', { for: id }, t(labelKey)), input,
      el('p', { class: 'hint', id: `${id}-hint` }, t('sec.active.range', { min, max, fallback }))) };
  };
  const fields = [field('depth', 'sec.limits.depth'), field('max_pages', 'sec.limits.pages')];
  return {
    node: el('div', { class: 'crawl-limits', dataset: { limits: panelId } }, fields.map((f) => f.node)),
    query() {
      const q = new URLSearchParams();
      for (const f of fields) if (f.input.value.trim() !== '') q.set(f.name, f.input.value.trim());
      const text = q.toString();
      return text ? `?${text}` : '';
    },
  };
}

/** A table with a header row; rows are arrays of cells (Node or text). */
export function table(headKeys, rows, { caption = null, className = 'table table-compact' } = {}) {
  return el('div', { class: 'table-wrap' },
    el('table', { class: className },
      caption ? el('caption', { class: 'visually-hidden' }, caption) : null,
      el('thead', {}, el('tr', {}, headKeys.map((k) => el('th', { scope: 'col' }, t(k))))),
      el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c)))))));
}
