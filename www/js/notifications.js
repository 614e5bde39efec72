// Notification settings (issue 28 §1): the user's Telegram and e-mail channels — list, add, edit,
// turn on and off, delete — with "Send test" per channel (the result inline, in plain words) and
// each channel's last delivered alert and last failure from the outbox.
//
// Secrets are write-only: a stored bot token or SMTP password is never shown (the API answers
// with a mask, "****ij", shown as the field's placeholder) and an untouched secret field sends
// the mask back, which the API keeps (docs/notifications.md).
//
// API: GET/POST /api/v1/channels, PUT/DELETE /api/v1/channels/{id},
// POST /api/v1/notify/test?channel_id={id} (docs/api.md, docs/notifications.md).
import { api } from './api.js';
import { initPage } from './shell.js';
import { t, lang, formatDateTime, formatRelative } from './i18n.js';
import { el, toast, busy, isBusy, confirmDialog, clearErrors, showFormAlert, openDialog } from './ui.js';
import { notifyErrorText, channelFieldText } from './messages.js';

const $ = (id) => document.getElementById(id);
const MAX_RECIPIENTS = 10; // limits::kEmailRecipients
const REFRESH_MS = 15_000;
const TYPES = ['messenger', 'email'];
const KINDS = new Set(['service_down', 'service_up', 'cert_expiring', 'owasp_findings']);
const timeFormat = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' });

let channels = [];
let editing = null; // { id } of the channel in the edit dialog (the list is not redrawn meanwhile)
const results = new Map(); // channel id → { kind: 'ok'|'error'|'busy', text, title }

/* ---- names and texts ------------------------------------------------------------------------ */

function recipients(ch) {
  const to = ch.params?.to_addrs;
  return Array.isArray(to) ? to.filter((x) => typeof x === 'string') : [];
}

/** Where the channel sends: "chat 4242", "ops@example.com +1", or "not set up yet". */
function destination(ch) {
  if (ch.type === 'messenger') {
    return ch.params?.chat_id ? t('ntf.chat', { chat: ch.params.chat_id }) : t('ntf.notConfigured');
  }
  const to = recipients(ch);
  if (!to.length) return t('ntf.notConfigured');
  return to.length > 1 ? `${to[0]} +${to.length - 1}` : to[0];
}

function typeLabel(type) {
  return TYPES.includes(type) ? t(`ntf.type.${type}`) : type;
}

/** The channel's name in texts and button labels: "Telegram · chat 4242". */
function channelName(ch) {
  return `${typeLabel(ch.type)} · ${destination(ch)}`;
}

function deliveryText(d) {
  if (!d) return t('ntf.noDelivery');
  const kind = KINDS.has(d.kind) && d.service_name ? d.kind : 'other';
  return t('ntf.deliveryWhat', {
    time: formatDateTime(d.at), what: t(`ntf.kind.${kind}`, { name: d.service_name || '' }),
  });
}

/* ---- the list ------------------------------------------------------------------------------- */

function statusLine(label, field, text, title = null) {
  return el('div', { class: 'channel-status-item' },
    el('dt', {}, label),
    el('dd', { dataset: { field }, title }, text));
}

function failureLine(f) {
  const reason = notifyErrorText(f.error, lang);
  const fate = ['pending', 'sent', 'failed', 'cancelled'].includes(f.message_state) ? t(`ntf.fate.${f.message_state}`) : '';
  const text = `${formatDateTime(f.at)} — ${reason.text} ${fate}`.trim();
  return statusLine(t('ntf.lastFailure'), 'last-failure', text, reason.original);
}

function resultNode(id) {
  const r = results.get(id);
  const node = el('p', { class: 'check-result channel-result', role: 'status', dataset: { field: 'test-result' } });
  if (r) {
    node.textContent = r.text;
    node.classList.add(`check-result-${r.kind}`);
    node.dataset.result = r.kind;
    if (r.title) node.title = r.title;
  } else {
    node.hidden = true;
  }
  return node;
}

function setResult(id, result) {
  results.set(id, result);
  const card = $('channel-list').querySelector(`[data-channel-id="${id}"]`);
  const old = card?.querySelector('[data-field="test-result"]');
  if (!old) return;
  // The same live region, new text: screen readers announce the change.
  old.className = 'check-result channel-result';
  old.classList.add(`check-result-${result.kind}`);
  old.dataset.result = result.kind;
  old.title = result.title || '';
  old.textContent = result.text;
  old.hidden = false;
}

function card(ch) {
  const name = channelName(ch);
  return el('li', { class: `channel channel-${ch.enabled ? 'on' : 'off'}`, dataset: { channelId: ch.id, type: ch.type } },
    el('div', { class: 'channel-head' },
      el('h3', { class: 'channel-type' }, typeLabel(ch.type)),
      el('span', { class: 'channel-dest', dataset: { field: 'destination' } }, destination(ch)),
      el('span', { class: `tag ${ch.enabled ? 'tag-ok' : ''}`.trim(), dataset: { field: 'enabled' } },
        t(ch.enabled ? 'ntf.on' : 'ntf.off'))),
    el('dl', { class: 'channel-status' },
      statusLine(t('ntf.lastDelivery'), 'last-delivery', deliveryText(ch.last_delivery),
        ch.last_delivery ? formatRelative(ch.last_delivery.at) : null),
      ch.last_failure ? failureLine(ch.last_failure) : null),
    resultNode(ch.id),
    el('div', { class: 'btn-row' },
      el('button', { type: 'button', class: 'btn btn-sm btn-secondary', dataset: { action: 'test' },
        'aria-label': t('ntf.testNamed', { name }), onclick: (e) => sendTest(ch.id, e.currentTarget) }, t('ntf.test')),
      el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'edit' },
        'aria-label': t('ntf.editNamed', { name }), onclick: () => openEdit(ch.id) }, t('ntf.edit')),
      el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'toggle' },
        'aria-label': t(ch.enabled ? 'ntf.disableNamed' : 'ntf.enableNamed', { name }),
        onclick: (e) => toggle(ch.id, e.currentTarget) }, t(ch.enabled ? 'ntf.disable' : 'ntf.enable')),
      el('button', { type: 'button', class: 'btn btn-sm btn-ghost btn-ghost-danger', dataset: { action: 'delete' },
        'aria-label': t('ntf.deleteNamed', { name }), onclick: () => remove(ch.id) }, t('common.delete'))));
}

function render() {
  const list = $('channel-list');
  const active = document.activeElement;
  const focused = list.contains(active)
    ? [active.closest('[data-channel-id]')?.dataset.channelId, active.dataset.action] : null;
  // A test in flight keeps its button (busy) and its live region across a refresh.
  const kept = new Map([...list.querySelectorAll('[data-channel-id]')].map((c) => [c.dataset.channelId, c]));
  list.replaceChildren(...channels.map((ch) => {
    const fresh = card(ch);
    const old = kept.get(String(ch.id));
    if (old) {
      fresh.querySelector('[data-field="test-result"]').replaceWith(old.querySelector('[data-field="test-result"]'));
      const oldTest = old.querySelector('[data-action="test"]');
      if (isBusy(oldTest)) fresh.querySelector('[data-action="test"]').replaceWith(oldTest);
    }
    return fresh;
  }));
  $('channels-empty').hidden = channels.length > 0;
  if (focused && focused[0]) list.querySelector(`[data-channel-id="${focused[0]}"] [data-action="${focused[1]}"]`)?.focus();
}

async function load() {
  try {
    channels = await api('/api/v1/channels');
    $('channels-error').hidden = true;
  } catch (err) {
    if (err.status === 401) return;
    $('channels-error').textContent = t('ntf.loadFailed', { reason: err.message });
    $('channels-error').hidden = false;
  } finally {
    $('channels-loading').hidden = true;
  }
  render();
  document.body.dataset.loaded = 'true';
}

/* ---- actions -------------------------------------------------------------------------------- */

async function sendTest(id, button) {
  if (isBusy(button)) return;
  const done = busy(button, 'ntf.testing', { keepFocus: true });
  setResult(id, { kind: 'busy', text: t('ntf.testing') });
  let result;
  const time = timeFormat.format(new Date()); // a result says when it was true
  try {
    const answer = await api(`/api/v1/notify/test?channel_id=${encodeURIComponent(id)}`, { method: 'POST' });
    const r = (answer?.results || []).find((x) => x.channel_id === id);
    if (r && r.status === 'ok') {
      let key = 'ntf.testOk';
      if (r.sender) key = r.default_sender ? 'ntf.testOkDefaultSender' : 'ntf.testOkSender';
      result = { kind: 'ok', text: t(key, { time, sender: r.sender }) };
    } else if (r && r.status === 'timeout') {
      const n = /within (\d+) s/.exec(r.error || '')?.[1] ?? answer.deadline_seconds ?? 10;
      result = { kind: 'error', text: t('ntf.testTimeout', { n, time }), title: r.error };
    } else {
      const reason = notifyErrorText(r?.error, lang);
      result = { kind: 'error', text: t('ntf.testFailed', { reason: reason.text, time }), title: reason.original };
    }
  } catch (err) {
    if (err.status === 401) return;
    if (err.status === 429 && err.retryAfter !== null) result = { kind: 'error', text: t('ntf.testBusy', { n: err.retryAfter }) };
    else result = { kind: 'error', text: err.message };
    if (err.status === 404) load();
  } finally {
    done();
  }
  setResult(id, result);
}

async function toggle(id, button) {
  const ch = channels.find((x) => x.id === id);
  if (!ch || isBusy(button)) return;
  const done = busy(button, null, { keepFocus: true });
  try {
    // A PUT replaces the channel: send back what was read (masked secrets are kept by the API).
    await api(`/api/v1/channels/${id}`, { method: 'PUT', body: { type: ch.type, enabled: !ch.enabled, params: ch.params || {} } });
  } catch (err) {
    done();
    if (err.status !== 401) toast(err.message, 'error');
    return;
  }
  done();
  toast(t(ch.enabled ? 'ntf.turnedOff' : 'ntf.turnedOn', { name: channelName(ch) }), 'success');
  await load();
}

async function remove(id) {
  const ch = channels.find((x) => x.id === id);
  if (!ch) return;
  const name = channelName(ch);
  const ok = await confirmDialog({ title: t('ntf.confirmTitle'), body: t('ntf.confirmBody', { name }), confirmLabel: t('common.delete') });
  if (!ok) return;
  try {
    await api(`/api/v1/channels/${id}`, { method: 'DELETE' });
  } catch (err) {
    if (err.status === 401) return;
    if (err.status !== 404) { toast(err.message, 'error'); return; }
  }
  results.delete(id);
  toast(t('ntf.deleted', { name }), 'success');
  await load();
  $('list-heading').focus();
}

/* ---- the form (add and edit) ---------------------------------------------------------------- */

/** A labelled input with its hint and error slot; `name` is the API's field ("params.token"). */
function field(prefix, { name, label, type = 'text', hint = null, attrs = {}, wide = false, textarea = false }) {
  const id = `${prefix}-${name.replace(/^params\./, '').replace(/_/g, '-')}`;
  const hintId = hint ? `${id}-hint` : null;
  const errorId = `${id}-error`;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  const input = textarea
    ? el('textarea', { id, name, rows: 3, 'aria-describedby': describedBy, spellcheck: 'false', ...attrs })
    : el('input', { id, name, type, autocomplete: 'off', spellcheck: 'false', 'aria-describedby': describedBy, ...attrs });
  return el('div', { class: `field${wide ? ' field-wide' : ''}` },
    el('label', { for: id }, label),
    input,
    hint ? el('p', { class: 'hint', id: hintId }, hint) : null,
    el('p', { class: 'field-error', id: errorId, dataset: { for: name }, hidden: true }));
}

function checkbox(prefix, name, label, checked) {
  const id = `${prefix}-${name.replace(/^params\./, '').replace(/_/g, '-')}`;
  return el('div', { class: 'field field-check' },
    el('input', { id, name, type: 'checkbox', checked }),
    el('label', { for: id }, label),
    el('p', { class: 'field-error', dataset: { for: name }, hidden: true }));
}

/**
 * Draws the channel form into `form`. add: a type choice and empty fields; edit: the channel's
 * values, its secrets only as placeholders.
 */
function buildForm(form, prefix, ch = null) {
  const p = ch?.params || {};
  // A stored secret: its mask as the placeholder and a hint that an empty field keeps it.
  const storedToken = ch?.type === 'messenger' && p.token ? p.token : null;
  const typeChoice = ch ? el('input', { type: 'hidden', name: 'type', value: ch.type })
    : el('fieldset', { class: 'type-choice' },
      el('legend', {}, t('ntf.type')),
      ...TYPES.map((type) => el('label', { class: 'type-option' },
        el('input', { type: 'radio', name: 'type', value: type, checked: type === 'messenger' }),
        el('span', {}, t(`ntf.type.${type}`)))));
  const messenger = el('div', { class: 'channel-fields', dataset: { kind: 'messenger' } },
    field(prefix, { name: 'params.token', label: t('ntf.token'), type: 'password',
      hint: storedToken ? t('ntf.secretKept', { mask: storedToken }) : t('ntf.tokenHint'),
      attrs: { autocomplete: 'new-password', maxlength: 256, placeholder: storedToken } }),
    field(prefix, { name: 'params.chat_id', label: t('ntf.chatId'), hint: t('ntf.chatIdHint'), attrs: { maxlength: 64, value: p.chat_id ?? null } }),
    field(prefix, { name: 'params.proxy', label: t('ntf.proxy'), type: 'url', hint: t('ntf.proxyHint'),
      attrs: { inputmode: 'url', maxlength: 2083, value: p.proxy ?? null, placeholder: 'socks5://host:1080' } }));
  const storedPassword = ch?.type === 'email' && p.password ? p.password : null;
  const email = el('div', { class: 'channel-fields', dataset: { kind: 'email' } },
    field(prefix, { name: 'params.host', label: t('ntf.host'), hint: t('ntf.hostHint'),
      attrs: { maxlength: 253, value: p.host ?? null, placeholder: 'smtp.example.com' } }),
    field(prefix, { name: 'params.port', label: t('ntf.port'), type: 'number', hint: t('ntf.portHint'),
      attrs: { min: 1, max: 65535, step: 1, inputmode: 'numeric', value: p.port ?? 587 } }),
    checkbox(prefix, 'params.use_tls', t('ntf.useTls'), p.use_tls ?? true),
    field(prefix, { name: 'params.username', label: t('ntf.username'), attrs: { maxlength: 256, value: p.username ?? null } }),
    field(prefix, { name: 'params.password', label: t('ntf.password'), type: 'password',
      hint: storedPassword ? t('ntf.secretKept', { mask: storedPassword }) : null,
      attrs: { autocomplete: 'new-password', maxlength: 256, placeholder: storedPassword } }),
    storedPassword ? checkbox(prefix, 'forget_password', t('ntf.forgetPassword'), false) : null,
    field(prefix, { name: 'params.from_addr', label: t('ntf.fromAddr'), type: 'email', hint: t('ntf.fromHint'),
      attrs: { maxlength: 320, value: p.from_addr ?? null, placeholder: 'dozor@example.com' } }),
    field(prefix, { name: 'params.to_addrs', label: t('ntf.toAddrs'), hint: t('ntf.toHint', { n: MAX_RECIPIENTS }), textarea: true, wide: true }));
  const to = email.querySelector('textarea');
  to.value = recipients({ params: p }).join('\n');
  form.replaceChildren(
    el('div', { class: 'form-alert', role: 'alert', tabindex: '-1', hidden: true }),
    typeChoice, messenger, email,
    checkbox(prefix, 'enabled', t('ntf.enabled'), ch ? ch.enabled : true),
    ch
      ? el('div', { class: 'dialog-actions form-actions' },
        el('button', { type: 'button', class: 'btn btn-ghost', onclick: () => $('edit-dialog').close() }, t('common.cancel')),
        el('button', { type: 'submit', class: 'btn btn-primary' }, t('common.save')))
      : el('div', { class: 'form-actions' }, el('button', { type: 'submit', class: 'btn btn-primary' }, t('ntf.add'))));
  showType(form, ch ? ch.type : 'messenger');
}

function formType(form) {
  const v = form.elements.namedItem('type');
  return v instanceof RadioNodeList ? v.value : v.value;
}

/** Shows the fields of one type; the other type's fields are hidden and disabled (not focusable). */
function showType(form, type) {
  for (const group of form.querySelectorAll('.channel-fields')) {
    const on = group.dataset.kind === type;
    group.hidden = !on;
    for (const input of group.querySelectorAll('input, textarea')) input.disabled = !on;
  }
}

function value(form, name) {
  return form.elements.namedItem(name)?.value ?? '';
}

/** ChannelIn from the form, or {errors} (field → message) for what the page can tell by itself. */
function collect(form, ch) {
  const type = formType(form);
  const errors = {};
  const stored = ch && ch.type === type ? ch.params || {} : {};
  const params = {};
  if (type === 'messenger') {
    // An untouched secret sends the mask back: the API keeps the stored token.
    const token = value(form, 'params.token').trim();
    params.token = token || stored.token || '';
    params.chat_id = value(form, 'params.chat_id').trim();
    params.proxy = value(form, 'params.proxy').trim() || null;
    if (!params.token) errors['params.token'] = t('v.missing');
    if (!params.chat_id) errors['params.chat_id'] = t('v.missing');
  } else {
    params.host = value(form, 'params.host').trim();
    const port = value(form, 'params.port').trim();
    params.port = port === '' ? 587 : (/^\d+$/.test(port) ? Number(port) : port);
    params.use_tls = form.elements.namedItem('params.use_tls').checked;
    params.username = value(form, 'params.username').trim() || null;
    const password = value(form, 'params.password');
    const forget = form.elements.namedItem('forget_password')?.checked;
    params.password = password || (forget ? null : stored.password || null);
    params.from_addr = value(form, 'params.from_addr').trim() || null;
    params.to_addrs = value(form, 'params.to_addrs').split(/[\s,;]+/).filter(Boolean);
    if (!params.host) errors['params.host'] = t('v.missing');
    if (!params.to_addrs.length) errors['params.to_addrs'] = t('ntf.v.recipientsNone');
    else if (params.to_addrs.length > MAX_RECIPIENTS) errors['params.to_addrs'] = t('ntf.v.recipientsMax', { n: MAX_RECIPIENTS });
  }
  const enabled = form.elements.namedItem('enabled').checked;
  return { body: { type, enabled, params }, errors };
}

/** Field messages next to their fields (the first focused); the rest in the form's alert. */
function showFieldErrors(form, errors, rest = []) {
  clearErrors(form);
  let first = null;
  for (const [name, messages] of Object.entries(errors)) {
    const slot = form.querySelector(`.field-error[data-for="${CSS.escape(name)}"]`);
    const input = form.elements.namedItem(name);
    if (!slot || !input || slot.parentElement.closest('[hidden]')) { rest.push(...[messages].flat()); continue; }
    slot.textContent = [messages].flat().join(' ');
    slot.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    first ||= input;
  }
  showFormAlert(form, rest.join('\n'));
  (first || form.querySelector('.form-alert:not([hidden])'))?.focus?.();
}

/** An ApiError on the form: 422 items in the page's language next to their fields. */
function showApiError(form, err) {
  if (err.status !== 422 || !Array.isArray(err.detail)) { showFieldErrors(form, {}, [err.message]); return; }
  const errors = {};
  const rest = [];
  for (const item of err.detail) {
    if (!item || typeof item !== 'object') continue;
    const loc = Array.isArray(item.loc) ? item.loc.slice() : [];
    if (['body', 'query', 'path'].includes(loc[0])) loc.shift();
    const key = loc.join('.');
    const text = channelFieldText(key, item, lang);
    const name = key.startsWith('params.to_addrs') ? 'params.to_addrs' : key;
    if (name) (errors[name] ||= []).push(text); else rest.push(text);
  }
  showFieldErrors(form, errors, rest);
}

function resetAdd(form) {
  buildForm(form, 'add');
}

async function onAdd(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const { body, errors } = collect(form, null);
  if (Object.keys(errors).length) { showFieldErrors(form, errors); return; }
  clearErrors(form);
  const done = busy(form.querySelector('button[type="submit"]'), 'common.saving');
  let ch;
  try {
    ch = await api('/api/v1/channels', { method: 'POST', body });
  } catch (err) {
    done();
    if (err.status !== 401) showApiError(form, err);
    return;
  }
  done();
  resetAdd(form);
  toast(t('ntf.added', { name: channelName(ch) }), 'success');
  await load();
  // The next step of a new channel: try it.
  $('channel-list').querySelector(`[data-channel-id="${ch.id}"] [data-action="test"]`)?.focus();
}

function openEdit(id) {
  const ch = channels.find((x) => x.id === id);
  if (!ch) return;
  const form = $('edit-channel');
  editing = { id };
  buildForm(form, 'edit', ch);
  $('edit-title').textContent = t('ntf.editTitle', { name: channelName(ch) });
  openDialog($('edit-dialog')).then(() => {
    editing = null;
    $('channel-list').querySelector(`[data-channel-id="${id}"] [data-action="edit"]`)?.focus();
  });
  form.querySelector('.channel-fields:not([hidden]) input')?.focus();
}

async function onEdit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const ch = channels.find((x) => x.id === editing?.id);
  if (!ch) { $('edit-dialog').close(); return; }
  const { body, errors } = collect(form, ch);
  if (Object.keys(errors).length) { showFieldErrors(form, errors); return; }
  clearErrors(form);
  const done = busy(form.querySelector('button[type="submit"]'), 'common.saving');
  let saved;
  try {
    saved = await api(`/api/v1/channels/${ch.id}`, { method: 'PUT', body });
  } catch (err) {
    done();
    if (err.status === 404) { $('edit-dialog').close(); toast(err.message, 'error'); await load(); return; }
    if (err.status !== 401) showApiError(form, err);
    return;
  }
  done();
  $('edit-dialog').close('saved');
  toast(t('ntf.saved', { name: channelName(saved) }), 'success');
  await load();
}

/* ---- start ---------------------------------------------------------------------------------- */

async function main() {
  await initPage({ active: 'notifications' });
  const add = $('add-channel');
  resetAdd(add);
  add.addEventListener('change', (e) => {
    if (e.target.name === 'type') { showType(add, e.target.value); clearErrors(add); }
  });
  add.addEventListener('submit', onAdd);
  $('edit-channel').addEventListener('submit', onEdit);
  $('refresh').addEventListener('click', () => load());
  await load();
  setInterval(() => { if (document.visibilityState === 'visible' && !editing) load(); }, REFRESH_MS);
}

main();
