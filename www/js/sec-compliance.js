// Compliance panel: GET /api/v1/compliance/{target}?profile=auto — per requirement set (152-FZ,
// 8-FZ, FSTEC) its score and the checklist with each item's status, reference and evidence.
import { api } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';
import { targetSegment, runPanel, notice, table, localized, severityTag } from './sec-common.js';

const STATUSES = ['passed', 'failed', 'manual', 'not_applicable'];

function statusTag(status) {
  const s = STATUSES.includes(status) ? status : 'manual';
  return el('span', { class: `status-tag status-${s}`, dataset: { status: s } }, t(`sec.status.${s}`));
}

function evidenceOf(item) {
  const ev = (item.evidence || [])[0];
  return el('div', { class: 'small' },
    item.note ? el('div', {}, item.note) : null,
    ev ? el('div', { class: 'muted break' }, ev.url || '', ev.excerpt ? ` — ${ev.excerpt}` : '') : null,
    item.status === 'failed' || item.status === 'manual'
      ? el('div', { class: 'recommendation' }, localized(item.recommendation)) : null);
}

function renderSet(set) {
  const headingId = `compliance-${set.id}`;
  return el('section', { class: 'compliance-set', 'aria-labelledby': headingId, dataset: { set: set.id } },
    el('h4', { id: headingId }, `${set.id}: ${localized(set.title)}`),
    el('p', { class: 'compliance-score' },
      el('strong', {}, set.score === null || set.score === undefined
        ? t('sec.compliance.noScore') : t('sec.compliance.score', { score: set.score })),
      ' · ', t('sec.compliance.counts', {
        passed: set.passed ?? 0, failed: set.failed ?? 0, manual: set.manual ?? 0, na: set.not_applicable ?? 0,
      })),
    table(['sec.col.id', 'sec.col.requirement', 'sec.col.status', 'sec.col.severity', 'sec.col.reference', 'sec.col.details'],
      (set.items || []).map((item) => [el('code', {}, item.id), localized(item.title), statusTag(item.status),
        severityTag(item.severity), item.legal_reference || '', evidenceOf(item)]),
      { caption: localized(set.title) }));
}

export function renderCompliance(report) {
  if (!report || typeof report !== 'object') return notice(t('sec.badAnswer'));
  const sets = Array.isArray(report.sets) ? report.sets : [];
  return el('div', { class: 'result', dataset: { result: 'compliance' } },
    report.error ? notice(report.error) : null,
    report.governmental && report.governmental.applies
      ? el('p', { class: 'notice notice-info' }, t('sec.compliance.gov')) : null,
    sets.length ? sets.map(renderSet) : el('p', { class: 'empty' }, t('sec.compliance.none')));
}

export const compliancePanel = {
  id: 'compliance',
  render(target) {
    return runPanel({
      id: 'compliance', titleKey: 'sec.compliance.title', hintKey: 'sec.compliance.hint', buttonKey: 'sec.compliance.run',
      run: async () => renderCompliance(await api(`/api/v1/compliance/${targetSegment(target)}?profile=auto`)),
    });
  },
};
