// Small DOM helpers shared by the pages. Text always goes through textContent (never innerHTML),
// so data from the API cannot inject markup.
import { t, formatDate } from './i18n.js';

/**
 * el('button', {class: 'btn', type: 'button', dataset: {id: 3}, onclick: fn}, 'text', child…)
 * Attributes with value false/null/undefined are skipped; true sets an empty attribute.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** Status badge for last_status: up / down / anything else = unknown. */
export function statusKind(status) {
  return status === 'up' || status === 'down' ? status : 'unknown';
}

export function statusBadge(status, extraClass = '') {
  const kind = statusKind(status);
  return el('span', { class: `badge badge-${kind} ${extraClass}`.trim(), dataset: { status: kind } },
    el('span', { class: 'badge-dot', 'aria-hidden': 'true' }), t(`status.${kind}`));
}

/** The colour class of an audit grade (A green, B accent, C amber, D–F red, none grey). */
export function gradeClass(grade) {
  const letter = String(grade || '').charAt(0).toUpperCase();
  if (letter === 'A') return 'grade-a';
  if (letter === 'B') return 'grade-b';
  if (letter === 'C') return 'grade-c';
  if (letter === 'D' || letter === 'E' || letter === 'F') return 'grade-f';
  return 'grade-none';
}

/**
 * The grade of a stored audit ({grade, counts, finished_at} from /api/v1/audit/services or the
 * kiosk state) as a small chip beside a site; null when there is no graded audit.
 */
export function gradeBadge(audit, extraClass = '') {
  if (!audit || !audit.grade) return null;
  const serious = (audit.counts?.high || 0) + (audit.counts?.critical || 0);
  const date = audit.finished_at ? formatDate(audit.finished_at) : '';
  return el('span', {
    class: `grade-chip ${gradeClass(audit.grade)} ${extraClass}`.trim(),
    dataset: { grade: audit.grade, serious: String(serious) },
    title: t('grade.title', { grade: audit.grade, date, serious }),
  }, audit.grade);
}

/** Polite announcements for screen readers plus a visible toast. */
let toastTimer = 0;
export function toast(message, kind = 'info') {
  let region = document.getElementById('toast');
  if (!region) {
    region = el('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(region);
  }
  region.textContent = message;
  region.className = `toast toast-${kind} toast-visible`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { region.className = 'toast'; }, 5000);
}

/**
 * Marks a button as busy (alternate label, aria-busy) until the returned function is called.
 * keepFocus: the button stays focusable (aria-disabled instead of disabled — a disabled button
 * drops keyboard focus to <body>); its click handler must ignore clicks while isBusy(button).
 */
export function busy(button, labelKey, { keepFocus = false } = {}) {
  const original = button.textContent;
  if (keepFocus) button.setAttribute('aria-disabled', 'true');
  else button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  if (labelKey) button.textContent = t(labelKey);
  return () => {
    button.disabled = false;
    button.removeAttribute('aria-disabled');
    button.removeAttribute('aria-busy');
    button.textContent = original;
  };
}

export function isBusy(button) {
  return button.getAttribute('aria-busy') === 'true';
}

/**
 * Confirmation in a modal <dialog>. Resolves true when the confirm button is pressed.
 * The dialog has role dialog, a heading (accessible name) and two buttons.
 */
export function confirmDialog({ title, body, confirmLabel = t('common.delete'), danger = true }) {
  return new Promise((resolve) => {
    const headingId = `dlg-title-${Math.random().toString(36).slice(2)}`;
    const cancel = el('button', { type: 'button', class: 'btn btn-ghost', value: 'cancel' }, t('common.cancel'));
    const confirm = el('button', { type: 'button', class: `btn ${danger ? 'btn-danger' : 'btn-primary'}`, value: 'confirm' }, confirmLabel);
    const dialog = el('dialog', { class: 'dialog', 'aria-labelledby': headingId },
      el('h2', { id: headingId, class: 'dialog-title' }, title),
      body ? el('p', { class: 'dialog-body' }, body) : null,
      el('div', { class: 'dialog-actions' }, cancel, confirm));
    let result = false;
    cancel.addEventListener('click', () => dialog.close());
    confirm.addEventListener('click', () => { result = true; dialog.close(); });
    dialog.addEventListener('close', () => { dialog.remove(); resolve(result); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** Opens an existing <dialog>; resolves when it closes. */
export function openDialog(dialog) {
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
  });
}

/* ---- forms ---------------------------------------------------------------------------------- */

/** Removes every error shown by showErrors. */
export function clearErrors(form) {
  for (const p of form.querySelectorAll('.field-error')) {
    p.textContent = '';
    p.hidden = true;
  }
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  const alert = form.querySelector('.form-alert');
  if (alert) { alert.textContent = ''; alert.hidden = true; }
}

/**
 * Shows an ApiError on a form: 422 field messages next to their inputs (matched by name),
 * everything else in the form's .form-alert. Focuses the first invalid input.
 */
export function showErrors(form, error) {
  clearErrors(form);
  const leftovers = [...(error.formErrors || [])];
  let first = null;
  const fields = error.fields || {};
  for (const [name, messages] of Object.entries(fields)) {
    const input = form.elements.namedItem(name);
    const slot = input && form.querySelector(`.field-error[data-for="${CSS.escape(name)}"]`);
    if (!input || !slot) { leftovers.push(`${name}: ${messages.join(' ')}`); continue; }
    slot.textContent = messages.join(' ');
    slot.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    first ||= input;
  }
  if (!Object.keys(fields).length && !leftovers.length) leftovers.push(error.message);
  showFormAlert(form, leftovers.join('\n'));
  if (first) first.focus();
}

export function showFormAlert(form, message) {
  const alert = form.querySelector('.form-alert');
  if (!alert) return;
  alert.textContent = message || '';
  alert.hidden = !message;
}

/** Wires aria-describedby of each input to its hint and error slot. */
export function linkFieldDescriptions(form) {
  for (const slot of form.querySelectorAll('.field-error[data-for]')) {
    const input = form.elements.namedItem(slot.dataset.for);
    if (!input) continue;
    if (!slot.id) slot.id = `${form.id || 'f'}-${slot.dataset.for}-error`;
    const ids = new Set((input.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean));
    ids.add(slot.id);
    input.setAttribute('aria-describedby', [...ids].join(' '));
  }
}
