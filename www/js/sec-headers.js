// Security-header check panel: GET /api/v1/audit/headers/{target} (MDN Observatory's grading).
import { api } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';
import { targetSegment, gradeBlock, runPanel, notice, table, facts } from './sec-common.js';

export function renderHeaders(report) {
  if (!report || typeof report !== 'object') return notice(t('sec.badAnswer'));
  const tests = Object.entries(report.tests || {});
  const rows = tests.map(([name, r]) => [
    el('code', {}, name),
    el('span', { class: `tag ${r.pass ? 'tag-ok' : 'tag-off'}`, dataset: { pass: String(Boolean(r.pass)) } },
      t(r.pass ? 'sec.pass' : 'sec.fail')),
    el('span', { class: 'num' }, r.score_modifier > 0 ? `+${r.score_modifier}` : String(r.score_modifier ?? 0)),
    el('div', {}, el('div', {}, r.result || ''), r.recommendation && !r.pass
      ? el('div', { class: 'muted small' }, r.recommendation) : null),
  ]);
  const advisories = (report.advisories || []).map((a) => el('li', {},
    el('code', {}, a.name), ` — ${a.status}${a.value ? `: ${a.value}` : ''}${a.note ? ` (${a.note})` : ''}`));
  return el('div', { class: 'result', dataset: { result: 'headers' } },
    el('div', { class: 'result-head' },
      gradeBlock(report.grade, report.score),
      facts([
        [t('sec.score'), report.score ?? t('common.dash')],
        [t('sec.testsPassed'), report.tests_quantity ? `${report.tests_passed} / ${report.tests_quantity}` : null],
        [t('sec.gradedUrl'), report.graded_url || null],
        [t('sec.httpStatus'), report.status_code ?? null],
      ])),
    report.error ? notice(report.error) : null,
    rows.length ? table(['sec.col.test', 'sec.col.outcome', 'sec.col.modifier', 'sec.col.result'], rows,
      { caption: t('sec.headers.title') }) : null,
    advisories.length ? el('div', {}, el('h4', {}, t('sec.advisories')), el('ul', { class: 'compact-list' }, advisories)) : null);
}

export const headersPanel = {
  id: 'headers',
  render(target) {
    return runPanel({
      id: 'headers', titleKey: 'sec.headers.title', hintKey: 'sec.headers.hint', buttonKey: 'sec.headers.run',
      run: async () => renderHeaders(await api(`/api/v1/audit/headers/${targetSegment(target)}`)),
    });
  },
};
