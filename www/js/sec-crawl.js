// Crawl panel: POST /api/crawl/{target} — pages, forms, scripts and the site's structure.
import { api } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';
import { targetSegment, runPanel, notice, table, facts, crawlLimits } from './sec-common.js';

export const SHOWN = 100; // rows drawn per list (the answer holds up to thousands)

function tree(node, depth = 0) {
  if (!node || depth > 6) return null;
  const children = (node.children || []).slice(0, SHOWN);
  return el('li', {}, el('code', {}, node.name || node.path || '/'),
    children.length ? el('ul', {}, children.map((c) => tree(c, depth + 1))) : null);
}

/** "… and N more" under a list cut at SHOWN rows; null when nothing was cut. */
export function more(list) {
  return list.length > SHOWN ? el('p', { class: 'muted small' }, t('sec.crawl.more', { n: list.length - SHOWN })) : null;
}

export function renderCrawl(report) {
  if (!report || typeof report !== 'object') return notice(t('sec.badAnswer'));
  const pages = report.pages || [];
  const forms = report.forms || [];
  const scripts = report.scripts || [];
  const stats = report.stats || {};
  return el('div', { class: 'result', dataset: { result: 'crawl' } },
    facts([
      [t('sec.crawl.pages'), pages.length],
      [t('sec.crawl.forms'), forms.length],
      [t('sec.crawl.scripts'), scripts.length],
      [t('sec.crawl.requests'), stats.requests ?? null],
      [t('sec.crawl.stopped'), stats.stopped ?? null],
    ]),
    el('h4', {}, t('sec.crawl.pagesHeading')),
    table(['sec.col.url', 'sec.col.status', 'sec.col.title'], pages.slice(0, SHOWN).map((p) => [
      el('span', { class: 'break' }, p.final_url || p.url), p.error ? p.error : String(p.status ?? ''), p.title || ''])),
    more(pages),
    el('h4', {}, t('sec.crawl.formsHeading')),
    forms.length ? table(['sec.col.page', 'sec.col.method', 'sec.col.action', 'sec.col.fields'],
      forms.slice(0, SHOWN).map((f) => [el('span', { class: 'break' }, f.page || ''), (f.method || 'get').toUpperCase(),
        el('span', { class: 'break' }, f.action || ''), (f.fields || []).map((x) => x.name).filter(Boolean).join(', ')]))
      : el('p', { class: 'muted' }, t('sec.crawl.noForms')),
    el('h4', {}, t('sec.crawl.scriptsHeading')),
    scripts.length ? el('ul', { class: 'compact-list' }, scripts.slice(0, SHOWN).map((s) => el('li', { class: 'break' },
      s.inline ? t('sec.crawl.inline', { page: s.page || '' }) : s.src))) : el('p', { class: 'muted' }, t('sec.crawl.noScripts')),
    el('h4', {}, t('sec.crawl.structureHeading')),
    report.structure ? el('ul', { class: 'tree' }, tree(report.structure)) : el('p', { class: 'muted' }, t('common.dash')));
}

export const crawlPanel = {
  id: 'crawl',
  render(target) {
    const limits = crawlLimits('crawl');
    return runPanel({
      id: 'crawl', titleKey: 'sec.crawl.title', hintKey: 'sec.crawl.hint', buttonKey: 'sec.crawl.run',
      run: async () => renderCrawl(await api(`/api/crawl/${targetSegment(target)}${limits.query()}`, { method: 'POST' })),
      controls: limits.node,
    });
  },
};
