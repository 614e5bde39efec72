// Technology detection panel: GET /api/v1/cms/{target} — technologies with versions and
// categories, and vulnerable JavaScript libraries with their advisories.
import { api } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';
import { targetSegment, runPanel, notice, table, severityTag } from './sec-common.js';

export function renderTechnologies(report) {
  if (!report || typeof report !== 'object') return notice(t('sec.badAnswer'));
  const techs = Array.isArray(report.technologies) ? report.technologies : [];
  const vulns = Array.isArray(report.vulnerable_libraries) ? report.vulnerable_libraries : [];
  const techTable = techs.length
    ? table(['sec.col.technology', 'sec.col.version', 'sec.col.categories', 'sec.col.confidence'],
      techs.map((x) => [x.name || x.slug, x.version || t('common.dash'),
        (x.categories || []).join(', '), x.confidence === undefined ? t('common.dash') : `${x.confidence}%`]),
      { caption: t('sec.tech.title') })
    : el('p', { class: 'empty' }, t('sec.tech.none'));
  const vulnList = vulns.map((lib) => el('li', { class: 'vuln' },
    el('div', { class: 'finding-title' }, `${lib.name} ${lib.version || ''}`.trim()),
    el('ul', { class: 'compact-list' }, (lib.advisories || []).map((a) => el('li', {},
      severityTag(a.severity), ' ', el('code', {}, a.id || ''),
      a.fixed_in ? ` — ${t('sec.tech.fixedIn', { version: a.fixed_in })}` : '',
      a.summary ? el('div', { class: 'muted small' }, a.summary) : null)))));
  return el('div', { class: 'result', dataset: { result: 'technologies' } },
    techTable,
    el('h4', {}, t('sec.tech.vulnerable')),
    vulns.length ? el('ul', { class: 'plain-list' }, vulnList) : el('p', { class: 'muted' }, t('sec.tech.noVulnerable')));
}

export const techPanel = {
  id: 'technologies',
  render(target) {
    return runPanel({
      id: 'technologies', titleKey: 'sec.tech.title', hintKey: 'sec.tech.hint', buttonKey: 'sec.tech.run',
      run: async () => renderTechnologies(await api(`/api/v1/cms/${targetSegment(target)}`)),
    });
  },
};
