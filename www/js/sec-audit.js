// Full-audit panel: POST /api/v1/audit/{target} — grade, counts by severity and the findings
// (filterable by severity) with evidence and recommendation; and the DOCX report of the latest
// stored audit (GET /api/v1/audit/{target}/report?lang=…), fetched with the bearer token.
import { api } from './api.js';
import { t, lang } from './i18n.js';
import { el, toast, busy, isBusy } from './ui.js';
import { targetSegment, gradeBlock, runPanel, notice, severityTag, SEVERITIES, facts, crawlLimits } from './sec-common.js';

/** A curl command that replays a request, folded away in a <details> (copyable text). */
export function replayBlock(command) {
  if (!command) return null;
  return el('details', { class: 'replay' }, el('summary', {}, t('sec.audit.replay')),
    el('pre', { class: 'excerpt replay-command' }, command));
}

function evidenceItem(ev) {
  const x = ev.exchange;
  return el('li', { class: 'evidence' },
    ev.url ? el('div', { class: 'break' }, el('span', { class: 'muted' }, `${t('sec.audit.url')}: `), ev.url) : null,
    ev.note ? el('div', { class: 'muted small' }, ev.note) : null,
    ev.excerpt ? el('pre', { class: 'excerpt' }, ev.excerpt) : null,
    x ? el('pre', { class: 'excerpt exchange' }, [x.request_line, x.status_line, x.body_excerpt ? `\n${x.body_excerpt.slice(0, 600)}` : '']
      .filter(Boolean).join('\n')) : null,
    replayBlock(ev.replay));
}

/** One finding (the audit's shape, engines/audit/finding.cpp; templates add `curl`). */
export function findingItem(f) {
  const meta = [f.owasp, f.cwe ? `CWE-${f.cwe}` : null, f.confidence ? t('sec.audit.confidence', { c: f.confidence }) : null]
    .filter(Boolean).join(' · ');
  return el('li', { class: `audit-finding sev-border-${f.severity}`, dataset: { severity: f.severity, check: f.check } },
    el('details', {},
      el('summary', {}, severityTag(f.severity), ' ', el('span', { class: 'finding-title' }, f.title)),
      el('div', { class: 'finding-body' },
        meta ? el('div', { class: 'muted small' }, meta) : null,
        f.description ? el('p', {}, f.description) : null,
        f.recommendation ? el('p', { class: 'recommendation' },
          el('strong', {}, `${t('sec.audit.recommendation')}: `), f.recommendation) : null,
        (f.evidence || []).length ? el('div', {}, el('h5', {}, t('sec.audit.evidence')),
          el('ul', { class: 'plain-list' }, f.evidence.map(evidenceItem))) : null,
        replayBlock(f.curl))));
}

/**
 * The findings with a severity filter (checkboxes); the list and its count update together.
 * prefix names the ids (two views on one page must differ); initial: the severities shown first.
 */
export function findingsView(findings, { prefix = 'audit', initial = SEVERITIES } = {}) {
  const shown = new Set(initial);
  const list = el('ul', { class: 'audit-findings', id: `${prefix}-findings` });
  const count = el('p', { class: 'muted', id: `${prefix}-findings-count`, role: 'status', 'aria-live': 'polite' });
  const draw = () => {
    const visible = findings.filter((f) => shown.has(f.severity));
    list.replaceChildren(...visible.map(findingItem));
    count.textContent = t('sec.audit.showing', { n: visible.length, total: findings.length });
  };
  const boxes = SEVERITIES.map((s) => {
    const id = `${prefix}-filter-${s}`;
    const n = findings.filter((f) => f.severity === s).length;
    const input = el('input', { type: 'checkbox', id, checked: shown.has(s), dataset: { severity: s } });
    input.addEventListener('change', () => { if (input.checked) shown.add(s); else shown.delete(s); draw(); });
    return el('span', { class: 'filter-check' }, input, el('label', { for: id }, `${t(`sec.sev.${s}`)} (${n})`));
  });
  draw();
  return el('div', {},
    el('fieldset', { class: 'severity-filter' }, el('legend', {}, t('sec.audit.filter')), boxes),
    count, list);
}

/** prefix: as findingsView's (the Active scans panel shows stored audit tasks beside this panel). */
export function renderAudit(report, { prefix = 'audit' } = {}) {
  if (!report || typeof report !== 'object') return notice(t('sec.badAnswer'));
  const findings = Array.isArray(report.findings) ? report.findings : [];
  const counts = report.counts || {};
  const errors = Array.isArray(report.errors) ? report.errors : [];
  const skipped = Array.isArray(report.skipped) ? report.skipped : [];
  return el('div', { class: 'result', dataset: { result: 'audit' } },
    el('div', { class: 'result-head' },
      gradeBlock(report.grade, report.score),
      facts([
        [t('sec.score'), report.score ?? t('common.dash')],
        [t('sec.audit.headerGrade'), report.headers && report.headers.grade ? report.headers.grade : null],
        [t('sec.audit.pages'), report.crawl ? report.crawl.pages : null],
        [t('sec.audit.duration'), report.duration_ms === undefined ? null : t('common.ms', { n: report.duration_ms })],
      ])),
    el('dl', { class: 'sev-counts' }, SEVERITIES.flatMap((s) => [
      el('dt', {}, severityTag(s)), el('dd', { dataset: { count: s } }, String(counts[s] ?? 0))])),
    errors.length ? el('details', { class: 'audit-errors' }, el('summary', {}, t('sec.audit.errors', { n: errors.length })),
      el('ul', { class: 'compact-list' }, errors.map((e) => el('li', {}, el('code', {}, e.check), ` — ${e.error}`)))) : null,
    // Probing unlinked paths needs the scan permission (docs/audit.md): say what was not asked.
    skipped.length ? el('div', { class: 'notice', dataset: { skipped: skipped.map((s) => s.check).join(' ') } },
      el('p', {}, t('sec.audit.skipped')),
      el('ul', { class: 'compact-list' }, skipped.map((s) => el('li', {}, el('code', {}, s.check), ` — ${s.detail}`)))) : null,
    findings.length ? findingsView(findings, { prefix }) : el('p', { class: 'empty' }, t('sec.audit.noFindings')));
}

/** "dozor-audit-….docx" from Content-Disposition (filename* first, RFC 6266), else a default. */
export function fileNameFrom(header, fallback) {
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header || '');
  if (star) { try { return decodeURIComponent(star[1].trim()); } catch { /* fall through */ } }
  const plain = /filename\s*=\s*"([^"]+)"/i.exec(header || '');
  return plain ? plain[1] : fallback;
}

async function downloadReport(target, reportLang) {
  const res = await api(`/api/v1/audit/${targetSegment(target)}/report?lang=${encodeURIComponent(reportLang)}`, {
    raw: true, accept: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  });
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = el('a', { href, download: fileNameFrom(res.headers.get('Content-Disposition'), `dozor-audit-${target.url.hostname}.docx`), hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function reportControls(target) {
  const select = el('select', { id: 'report-lang' },
    el('option', { value: 'ru', selected: lang === 'ru' }, 'Русский'),
    el('option', { value: 'en', selected: lang !== 'ru' }, 'English'));
  const status = el('span', { class: 'muted small', role: 'status', 'aria-live': 'polite' });
  const button = el('button', { type: 'button', class: 'btn btn-ghost', id: 'report-download' }, t('sec.report.download'));
  button.addEventListener('click', async () => {
    if (isBusy(button)) return;
    const done = busy(button, null, { keepFocus: true });
    status.textContent = t('sec.report.preparing');
    try {
      await downloadReport(target, select.value);
      status.textContent = t('sec.report.done');
    } catch (err) {
      status.textContent = err.message;  // stays beside the button (an unreachable site's reason)
      toast(err.message, 'error');
    } finally {
      done();
    }
  });
  return el('span', { class: 'report-controls' }, el('label', { for: 'report-lang', class: 'visually-hidden' }, t('sec.report.lang')),
    select, button, status);
}

export const auditPanel = {
  id: 'audit',
  render(target) {
    const limits = crawlLimits('audit');
    return runPanel({
      id: 'audit', titleKey: 'sec.audit.title', hintKey: 'sec.audit.hint', buttonKey: 'sec.audit.run',
      run: async () => renderAudit(await api(`/api/v1/audit/${targetSegment(target)}${limits.query()}`, { method: 'POST' })),
      controls: limits.node,
      extra: reportControls(target),
    });
  },
};
