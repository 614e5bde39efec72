// Active-scans panel (issue 9): the OWASP Top 10 scan, API check, auth scan, endpoint discovery and
// template scanner of the chosen target, run as background tasks through the queue:
//   POST   /api/security/queue/{target}?task_type=<kind>  (JSON options; handlers/tasks.cpp, engines/tasks/kinds.cpp)
//   GET    /api/security/queue/{task_id}                   (state, progress, phase; the result when done)
//   DELETE /api/security/queue/{task_id}                   (cancel: a running task stops at its next checkpoint)
//   GET    /api/security/tasks                             (the caller's tasks, newest first)
// The watched task is polled until it ends; a queued or running task of this target is picked up
// again after a reload from the task list. Findings use the audit panel's rendering.
import { api } from './api.js';
import { t, lang, formatRelative, formatDateTime } from './i18n.js';
import { detailText } from './messages.js';
import { el, busy, isBusy, clearErrors, showErrors, showFormAlert, linkFieldDescriptions } from './ui.js';
import { targetSegment, notice, facts, table, gradeBlock, SEVERITIES, CRAWL_LIMITS } from './sec-common.js';
import { findingsView, renderAudit } from './sec-audit.js';
import { renderCrawl, more, SHOWN } from './sec-crawl.js';

export const KINDS = ['owasp', 'api-check', 'auth-scan', 'endpoints', 'scanner'];
const ACTIVE = new Set(['queued', 'running']);
const POLL_MS = 1000;
const POLL_RETRY_MS = 3000;
const RECENT = 10; // tasks listed
const PICKUP = 100; // tasks searched for a running one after a reload (the route's page maximum)

// Each kind's options as engines/tasks/kinds.cpp declares them (bounds from engines/limits.hpp);
// an empty field is not sent, so the server's default applies.
const OPTIONS = {
  owasp: [
    { name: 'depth', type: 'int', ...CRAWL_LIMITS.depth },
    { name: 'max_pages', type: 'int', ...CRAWL_LIMITS.max_pages },
  ],
  'api-check': [{ name: 'max_operations', type: 'int', min: 1, max: 60, fallback: 60 }],
  'auth-scan': [
    { name: 'username', type: 'text', autocomplete: 'off' },
    { name: 'password', type: 'password', autocomplete: 'new-password' },
  ],
  endpoints: [{ name: 'timeout', type: 'int', min: 1, max: 60, fallback: 5 }],
  scanner: [],
};

const kindLabel = (kind) => t(`sec.active.kind.${kind}`);
const stateLabel = (state) => t(`sec.active.state.${state}`);
const STATE_TAG = { queued: 'tag-accent', running: 'tag-accent', succeeded: 'tag-ok', failed: 'tag-off', cancelled: 'tag-warn' };

function stateTag(state) {
  return el('span', { class: `tag ${STATE_TAG[state] || ''}`.trim(), dataset: { state } }, stateLabel(state));
}

/** Same site as the page's target (scheme, host, port, path without trailing slashes). */
function sameTarget(a, b) {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const strip = (u) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
    return strip(x) === strip(y);
  } catch {
    return false;
  }
}

/** The user's text for a refused start (the 422 field messages go next to their fields). */
export function startErrorText(err) {
  switch (err && err.status) {
    case 403: return t('sec.active.forbidden');
    case 409: return t('sec.active.conflict');
    case 429: return err.retryAfter !== null && err.retryAfter !== undefined
      ? t('sec.active.tooMany', { seconds: err.retryAfter }) : t('sec.active.tooManyLater');
    case 422: return t('sec.active.invalid');
    default: return err && err.message ? err.message : String(err);
  }
}

/* ---- results -------------------------------------------------------------------------------- */

function findingsBlock(result) {
  const findings = Array.isArray(result.findings) ? result.findings : [];
  return findings.length ? findingsView(findings, { prefix: 'active' })
    : el('p', { class: 'empty' }, t('sec.audit.noFindings'));
}

const duration = (ms) => (ms === undefined || ms === null ? null : t('common.ms', { n: ms }));
const yesNo = (v) => (v === undefined || v === null ? null : t(v ? 'sec.active.yes' : 'sec.active.no'));

function byCategory(result) {
  const entries = Object.entries(result.by_category || {});
  if (!entries.length) return null;
  return el('p', { class: 'muted small' }, `${t('sec.active.byCategory')}: `,
    entries.map(([k, n]) => `${k === 'none' ? t('common.dash') : k} × ${n}`).join(', '));
}

function renderOwasp(r) {
  return [
    el('div', { class: 'result-head' },
      r.grade ? gradeBlock(r.grade, r.score) : null,
      facts([
        [t('sec.active.pages'), r.pages ?? null],
        [t('sec.active.points'), r.points ?? null],
        [t('sec.active.requests'), r.requests ?? null],
        [t('sec.audit.duration'), duration(r.duration_ms)],
        [t('sec.active.stopped'), r.stopped || null],
      ])),
    byCategory(r),
    findingsBlock(r),
  ];
}

function renderApiCheck(r) {
  const docs = r.documents || [];
  const graphql = r.graphql || [];
  return [
    facts([
      [t('sec.active.documents'), docs.length],
      [t('sec.active.operations'), r.operations ?? null],
      [t('sec.active.requests'), r.requests ?? null],
      [t('sec.audit.duration'), duration(r.duration_ms)],
      [t('sec.active.stopped'), r.stopped || null],
    ]),
    docs.length ? el('ul', { class: 'compact-list' }, docs.map((d) => el('li', { class: 'break' },
      `${d.spec || ''} ${d.title || ''} — ${d.url}`.trim()))) : null,
    graphql.length ? el('ul', { class: 'compact-list' }, graphql.map((g) => el('li', { class: 'break' },
      `GraphQL ${g.url} — ${t('sec.active.introspection')}: ${yesNo(g.introspection)}`))) : null,
    byCategory(r),
    findingsBlock(r),
  ];
}

function renderAuthScan(r) {
  const userOnly = r.user_only || [];
  return [
    facts([
      [t('sec.active.mode'), r.mode || null],
      [t('sec.active.username'), r.username || null],
      [t('sec.active.loggedIn'), r.username ? yesNo(r.logged_in) : null],
      [t('sec.active.loginError'), r.login_error || null],
      [t('sec.active.loginForms'), (r.login_forms || []).length],
      [t('sec.active.technologies'), (r.technologies || []).join(', ') || null],
    ]),
    userOnly.length ? el('div', {}, el('h5', {}, t('sec.active.userOnly')),
      el('ul', { class: 'compact-list' }, userOnly.slice(0, SHOWN).map((u) => el('li', { class: 'break' }, u)))) : null,
    findingsBlock(r),
  ];
}

function renderEndpoints(r) {
  const list = r.endpoints || [];
  const catchAll = r.catch_all || {};
  return [
    facts([
      [t('sec.active.endpointCount'), r.count ?? list.length],
      [t('sec.active.requests'), r.requests ?? null],
      [t('sec.audit.duration'), duration(r.duration_ms)],
      [t('sec.active.stopped'), r.stopped || null],
      [t('sec.active.catchAll'), yesNo(catchAll.detected)],
    ]),
    list.length ? table(['sec.col.url', 'sec.col.method', 'sec.col.status', 'sec.active.col.type', 'sec.active.col.params', 'sec.active.col.source'],
      list.slice(0, SHOWN).map((e) => [
        el('span', { class: 'break' }, e.url), (e.methods || []).join(', '), e.status === null || e.status === undefined ? t('common.dash') : String(e.status),
        e.content_type || '', (e.parameters || []).map((p) => `${p.name} (${p.in})`).join(', '), (e.found_by || []).join(', ')]),
      { caption: t('sec.active.endpointsCaption') })
      : el('p', { class: 'empty' }, t('sec.active.noEndpoints')),
    more(list),
  ];
}

function renderScanner(r) {
  const tpl = r.templates || {};
  const errors = r.errors || [];
  return [
    facts([
      [t('sec.active.templates'), tpl.loaded === undefined ? null
        : t('sec.active.templateCounts', { loaded: tpl.loaded, run: tpl.run ?? 0, skipped: tpl.skipped ?? 0 })],
      [t('sec.active.severity'), (r.severity || []).length ? r.severity.map((x) => t(`sec.sev.${x}`)).join(', ') : null],
      [t('sec.active.requests'), r.requests ?? null],
      [t('sec.audit.duration'), duration(r.duration_ms)],
      [t('sec.active.complete'), yesNo(r.complete)],
    ]),
    errors.length ? el('details', { class: 'audit-errors' }, el('summary', {}, t('sec.active.errors', { n: errors.length })),
      el('ul', { class: 'compact-list' }, errors.slice(0, SHOWN).map((e) => el('li', {}, e)))) : null,
    findingsBlock(r),
  ];
}

/** The finished task's result by kind; null result (e.g. a cancelled task) says so. */
export function renderResult(task) {
  const r = task.result;
  if (!r || typeof r !== 'object') return el('p', { class: 'muted' }, t('sec.active.noResult'));
  let body;
  switch (task.kind) {
    case 'owasp': body = renderOwasp(r); break;
    case 'api-check': body = renderApiCheck(r); break;
    case 'auth-scan': body = renderAuthScan(r); break;
    case 'endpoints': body = renderEndpoints(r); break;
    case 'scanner': body = renderScanner(r); break;
    case 'crawl': return renderCrawl(r);
    default: return renderAudit(r, { prefix: 'active' }); // scan, audit
  }
  return el('div', { class: 'result', dataset: { result: `active-${task.kind}` } }, body);
}

/* ---- the panel ------------------------------------------------------------------------------ */

function optionField(kind, o) {
  const id = `active-opt-${o.name}`;
  const hintId = `${id}-hint`;
  const hint = o.type === 'int' ? t('sec.active.range', { min: o.min, max: o.max, fallback: o.fallback }) : t(`sec.active.opt.${o.name}.hint`);
  return el('div', { class: 'field', dataset: { kind } },
    el('label', { for: id }, t(`sec.active.opt.${o.name}`)),
    el('input', {
      id, name: o.name, type: o.type === 'int' ? 'number' : o.type, inputmode: o.type === 'int' ? 'numeric' : null,
      min: o.min ?? null, max: o.max ?? null, step: o.type === 'int' ? 1 : null, placeholder: o.fallback ?? null,
      autocomplete: o.autocomplete || 'off', spellcheck: 'false', autocapitalize: 'none', 'aria-describedby': hintId,
    }),
    el('p', { class: 'hint', id: hintId }, hint),
    el('p', { class: 'field-error', dataset: { for: o.name }, hidden: true }));
}

function severityField() {
  return el('fieldset', { class: 'severity-filter', dataset: { kind: 'scanner' } },
    el('legend', {}, t('sec.active.severity')),
    SEVERITIES.map((s) => {
      const id = `active-sev-${s}`;
      return el('span', { class: 'filter-check' },
        el('input', { type: 'checkbox', id, name: 'severity-choice', value: s, checked: true }),
        el('label', { for: id }, t(`sec.sev.${s}`)));
    }),
    el('p', { class: 'hint' }, t('sec.active.severityHint')));
}

/**
 * Proof of control (docs/scan.md "Proof of control"): active scans need it for a site that is not
 * granted by an admin. POST /api/v1/scan-verifications gives the value to publish as a file or a
 * DNS TXT record; POST …/{id}/verify checks it now.
 */
function verifyBlock(target) {
  const out = el('div', { id: 'active-verify-out', 'aria-live': 'polite' });
  const getButton = el('button', { type: 'button', class: 'btn btn-sm', id: 'active-verify-get' }, t('sec.verify.get'));
  const show = (v) => {
    const status = v.verified
      ? el('p', { class: 'notice', id: 'active-verify-status', dataset: { verified: 'true' } }, t('sec.verify.ok', { until: formatDateTime(v.expires_at) }))
      : el('p', { class: 'muted small', id: 'active-verify-status', dataset: { verified: 'false' } }, v.last_error ? t('sec.verify.failed', { error: v.last_error }) : t('sec.verify.pending'));
    const check = (method) => {
      const b = el('button', { type: 'button', class: 'btn btn-sm', dataset: { method } }, t(`sec.verify.check.${method}`));
      b.addEventListener('click', async () => {
        if (isBusy(b)) return;
        const done = busy(b, null, { keepFocus: true });
        try {
          show(await api(`/api/v1/scan-verifications/${v.id}/verify`, { method: 'POST', body: { method } }));
        } catch (err) {
          out.append(notice(err.message));
        } finally {
          done();
        }
      });
      return b;
    };
    out.replaceChildren(
      el('p', {}, t('sec.verify.file')), el('p', {}, el('code', { class: 'break', id: 'active-verify-url' }, v.http.url)),
      el('p', {}, t('sec.verify.body')), el('p', {}, el('code', { class: 'break', id: 'active-verify-body' }, v.http.body)),
      el('p', {}, t('sec.verify.dns', { name: v.dns.name })), el('p', {}, el('code', { class: 'break' }, v.dns.value)),
      el('div', { class: 'btn-row' }, check('http'), check('dns')), status);
  };
  getButton.addEventListener('click', async () => {
    if (isBusy(getButton)) return;
    const done = busy(getButton, null, { keepFocus: true });
    try {
      show(await api('/api/v1/scan-verifications', { method: 'POST', body: { url: target } }));
    } catch (err) {
      out.replaceChildren(notice(err.message));
    } finally {
      done();
    }
  });
  return el('details', { class: 'active-verify', id: 'active-verify' },
    el('summary', {}, t('sec.verify.title')),
    el('p', { class: 'hint' }, t('sec.verify.hint')), getButton, out);
}

export const activePanel = {
  id: 'active',
  render(target) {
    const headingId = 'panel-active-heading';
    const kindSelect = el('select', { id: 'active-kind', name: 'kind' },
      KINDS.map((k) => el('option', { value: k }, kindLabel(k))));
    const kindHint = el('p', { class: 'hint', id: 'active-kind-hint' });
    const groups = KINDS.flatMap((k) => OPTIONS[k].map((o) => optionField(k, o)));
    const sevField = severityField();
    const startButton = el('button', { type: 'submit', class: 'btn btn-primary', id: 'active-start' }, t('sec.active.start'));
    const form = el('form', { class: 'form active-form', id: 'active-form', novalidate: true },
      el('div', { class: 'form-alert', role: 'alert', hidden: true }),
      el('div', { class: 'field' }, el('label', { for: 'active-kind' }, t('sec.active.kindLabel')), kindSelect, kindHint),
      groups, sevField,
      el('div', { class: 'btn-row' }, startButton));
    const current = el('div', { class: 'active-task', id: 'active-task' });
    const recentBody = el('div', { id: 'active-recent' });
    const refresh = el('button', { type: 'button', class: 'btn btn-sm btn-ghost', id: 'active-refresh' }, t('sec.active.refresh'));
    const root = el('section', { class: 'audit-section', 'aria-labelledby': headingId, dataset: { section: 'active' } },
      el('div', { class: 'audit-section-head' }, el('h3', { id: headingId }, t('sec.active.title'))),
      el('p', { class: 'hint' }, t('sec.active.hint')),
      verifyBlock(target),
      form, current,
      el('div', { class: 'audit-section-head active-recent-head' }, el('h4', {}, t('sec.active.recent')), refresh),
      recentBody);

    let watching = null; // { id, timer, stopped }

    const showKind = () => {
      const kind = kindSelect.value;
      for (const node of form.querySelectorAll('[data-kind]')) node.hidden = node.dataset.kind !== kind;
      kindHint.textContent = t(`sec.active.kind.${kind}.hint`);
      clearErrors(form);
    };
    kindSelect.addEventListener('change', showKind);
    showKind();
    linkFieldDescriptions(form);

    function stopWatching() {
      if (!watching) return;
      watching.stopped = true;
      clearTimeout(watching.timer);
      watching = null;
    }

    /** Draws a task into #active-task and keeps it current until it ends. */
    function watch(task) {
      stopWatching();
      const me = { id: task.task_id, timer: null, stopped: false };
      watching = me;
      const view = taskView(task);
      current.replaceChildren(view.node);
      const poll = async () => {
        if (me.stopped) return;
        if (!root.isConnected) { me.stopped = true; return; }
        try {
          const next = await api(`/api/security/queue/${encodeURIComponent(me.id)}`);
          if (me.stopped) return;
          view.update(next);
          if (ACTIVE.has(next.status)) me.timer = setTimeout(poll, POLL_MS);
          else { me.stopped = true; loadRecent(); }
        } catch (err) {
          if (me.stopped) return;
          view.problem(err.message);
          if (err.status === 404 || err.status === 403) me.stopped = true;
          else me.timer = setTimeout(poll, POLL_RETRY_MS);
        }
      };
      if (ACTIVE.has(task.status) || task.result === undefined) me.timer = setTimeout(poll, ACTIVE.has(task.status) ? POLL_MS : 0);
      else view.update(task);
    }

    function taskView(task) {
      const id = task.task_id;
      const titleId = `active-task-${id}-title`;
      const tag = el('span', {});
      const bar = el('div', { class: 'progress-fill' });
      const progress = el('div', {
        class: 'progress', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': '0',
        'aria-labelledby': titleId, id: 'active-progress',
      }, bar);
      const phase = el('p', { class: 'muted small', id: 'active-phase', role: 'status', 'aria-live': 'polite' });
      const problem = el('div', {});
      const cancel = el('button', { type: 'button', class: 'btn btn-sm btn-danger', id: 'active-cancel' }, t('sec.active.cancel'));
      const output = el('div', { class: 'panel-output', id: 'active-result', 'aria-live': 'polite' });
      let last = task;
      cancel.addEventListener('click', async () => {
        if (isBusy(cancel)) return;
        const done = busy(cancel, null, { keepFocus: true });
        try {
          const path = `/api/security/queue/${encodeURIComponent(id)}`;
          const answer = await api(path, { method: 'DELETE' });
          // A task that finished meanwhile comes back unchanged, without its result: read it whole.
          update(answer && answer.status === 'succeeded' ? await api(path) : { ...last, ...answer, result: undefined });
          loadRecent();
        } catch (err) {
          problem.replaceChildren(notice(err.message));
        } finally {
          done();
        }
      });
      const heading = el('h4', { id: titleId, tabindex: '-1' }, t('sec.active.taskTitle', { kind: kindLabel(task.kind), target: task.target }));
      const node = el('div', { class: 'task-view', dataset: { taskId: id } },
        el('div', { class: 'task-head' }, heading, tag, cancel),
        progress, phase, problem, output);

      function update(next) {
        last = next;
        const state = next.status;
        const pct = Math.max(0, Math.min(100, Number(next.progress) || 0));
        node.dataset.state = state;
        tag.replaceChildren(stateTag(state));
        progress.setAttribute('aria-valuenow', String(pct));
        const words = next.cancel_requested && ACTIVE.has(state) ? t('sec.active.cancelling')
          : next.phase && ACTIVE.has(state) ? t('sec.active.phase', { state: stateLabel(state), phase: next.phase, pct })
            : t('sec.active.phaseState', { state: stateLabel(state), pct });
        progress.setAttribute('aria-valuetext', words);
        bar.style.width = `${pct}%`;
        if (phase.textContent !== words) phase.textContent = words;
        const hadFocus = document.activeElement === cancel;
        cancel.hidden = !ACTIVE.has(state) || Boolean(next.cancel_requested);
        if (hadFocus && cancel.hidden) heading.focus(); // the button is gone: keep the keyboard user in the task
        problem.replaceChildren();
        if (state === 'succeeded' && next.result !== undefined) {
          output.replaceChildren(renderResult(next));
        } else if (state === 'failed') {
          // A known reason (the site could not be reached …) in the page's language, else the raw text.
          const known = next.error ? detailText(next.error, lang) : null;
          output.replaceChildren(el('div', { class: 'notice notice-error', role: 'alert' },
            t('sec.active.failed'), known ? [' ', el('span', { title: next.error }, known)]
              : next.error ? [' ', el('code', { class: 'break' }, next.error)] : null));
        } else if (state === 'cancelled') {
          output.replaceChildren(notice(t('sec.active.cancelled'), 'info'));
        } else {
          output.replaceChildren();
        }
      }
      update(task);
      return { node, update, problem: (message) => problem.replaceChildren(notice(message)) };
    }

    async function loadRecent({ attach = false } = {}) {
      let list;
      try {
        // On a reload the running task is looked for among more than the listed ones.
        list = await api(`/api/security/tasks?limit=${attach ? PICKUP : RECENT}`);
      } catch (err) {
        recentBody.replaceChildren(notice(err.message));
        return;
      }
      const all = list && Array.isArray(list.items) ? list.items : [];
      const items = all.slice(0, RECENT);
      if (attach && !watching) {
        const running = all.find((x) => ACTIVE.has(x.status) && KINDS.includes(x.kind) && sameTarget(x.target, target.href));
        if (running) watch(running);
      }
      if (!items.length) { recentBody.replaceChildren(el('p', { class: 'empty' }, t('sec.active.noTasks'))); return; }
      recentBody.replaceChildren(table(
        ['sec.active.col.kind', 'sec.col.url', 'sec.col.status', 'sec.active.col.progress', 'sec.active.col.created', 'svc.col.actions'],
        items.map((x) => [
          kindLabel(x.kind),
          el('span', { class: 'break' }, x.target),
          stateTag(x.status),
          `${x.progress ?? 0}%`,
          x.created_at ? el('time', { datetime: x.created_at, title: formatDateTime(x.created_at) }, formatRelative(x.created_at)) : '',
          el('button', {
            type: 'button', class: 'btn btn-sm btn-secondary', dataset: { showTask: x.task_id },
            'aria-label': t('sec.active.showNamed', { kind: kindLabel(x.kind), target: x.target }),
            onclick: () => { watch({ ...x, result: undefined }); current.querySelector('h4')?.focus(); },
          }, t('sec.active.show')),
        ]),
        { caption: t('sec.active.recent') }));
    }

    refresh.addEventListener('click', () => loadRecent());

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (isBusy(startButton)) return;
      clearErrors(form);
      const kind = kindSelect.value;
      const body = {};
      for (const o of OPTIONS[kind]) {
        const input = form.elements.namedItem(o.name);
        const raw = o.type === 'password' ? input.value : input.value.trim();
        if (raw === '') continue;
        body[o.name] = o.type === 'int' ? Number(raw) : raw;
      }
      if (kind === 'scanner') {
        // Only the chosen severities' templates run (the task option "severity"); all or none: every template.
        const chosen = [...form.querySelectorAll('input[name="severity-choice"]:checked')].map((x) => x.value);
        if (chosen.length && chosen.length < SEVERITIES.length) body.severity = chosen.join(',');
      }
      const done = busy(startButton, 'sec.active.starting', { keepFocus: true });
      try {
        const task = await api(`/api/security/queue/${targetSegment(target)}?task_type=${encodeURIComponent(kind)}`,
          { method: 'POST', body: Object.keys(body).length ? body : undefined });
        const password = form.elements.namedItem('password');
        if (password) password.value = ''; // not kept on the page once sent
        watch({ ...task, result: undefined });
        loadRecent();
      } catch (err) {
        if (err.status === 422) {
          showErrors(form, err);
          const alert = form.querySelector('.form-alert');
          if (alert && alert.hidden) showFormAlert(form, startErrorText(err));
          else if (alert) alert.textContent = `${startErrorText(err)}\n${alert.textContent}`;
        } else {
          showFormAlert(form, startErrorText(err));
        }
      } finally {
        done();
      }
    });

    loadRecent({ attach: true });
    return root;
  },
};
