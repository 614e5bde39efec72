// Groups and public status pages on the dashboard (issue 28 §1): create, rename and delete
// groups, move services between them, publish a group as a status page (address, title,
// announcement), see its public link and a preview of what visitors see, unpublish.
//
// API: GET/POST /api/v1/groups, PUT/DELETE /api/v1/groups/{id} (status_slug, status_public,
// status_title, status_announcement, status_show_urls), PUT /api/v1/services/{id} {group_id},
// and the public GET /api/status/{slug} for the preview (docs/status-pages.md).
import { api } from './api.js';
import { t, lang } from './i18n.js';
import { el, toast, busy, confirmDialog, clearErrors, showErrors, linkFieldDescriptions, openDialog } from './ui.js';

const $ = (id) => document.getElementById(id);
const PREVIEW_TRIES = 8; // the server keeps a "no such page" answer for 10 s: wait it out
const PREVIEW_WAIT_MS = 2_000;

let ctx = null; // { services(), groups(), reload() }
let editing = null; // the group in the dialog
const previews = new Set(); // group ids whose preview is open

export function publicUrl(slug) {
  return `${location.origin}/status/${encodeURIComponent(slug)}`;
}

function isPublished(g) {
  return Boolean(g.status_public && g.status_slug);
}

/** A slug from a name: lower-case Latin letters and digits joined by single hyphens. */
function slugFrom(name) {
  const map = {
    а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
    н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sch',
    ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
  };
  const latin = [...name.toLowerCase()].map((c) => map[c] ?? c).join('');
  return latin.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
}

/* ---- the list ------------------------------------------------------------------------------- */

function previewBox(g) {
  const box = el('div', { class: 'status-preview', id: `grp-${g.id}-preview`, dataset: { preview: g.id }, role: 'region',
    'aria-label': t('grp.previewOf', { name: g.name }) }, el('p', { class: 'muted small' }, t('common.loading')));
  fillPreview(box, g.status_slug);
  return box;
}

const STATE_KEYS = { up: 'status.up', down: 'status.down', paused: 'status.paused', unknown: 'status.unknown' };

/** Draws what visitors of /status/{slug} see (its public JSON), retrying while the page is new. */
async function fillPreview(box, slug) {
  for (let i = 0; i < PREVIEW_TRIES; i += 1) {
    let r;
    try {
      r = await fetch(`/api/status/${encodeURIComponent(slug)}`, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    } catch {
      r = null;
    }
    if (!box.isConnected) return;
    if (r && r.ok) {
      const page = await r.json();
      box.replaceChildren(
        el('p', { class: 'status-preview-title' }, page.title),
        el('p', { class: `status-preview-overall status-preview-${page.status}`, dataset: { overall: page.status } },
          t(`grp.overall.${page.status}`)),
        page.announcement ? el('p', { class: 'status-preview-announcement' }, page.announcement) : null,
        el('ul', { class: 'status-preview-services' }, page.services.map((s) => el('li', {},
          el('span', {}, s.name), ' ',
          el('span', { class: `badge badge-${s.state === 'paused' ? 'paused' : s.state}` }, t(STATE_KEYS[s.state] || 'status.unknown'))))),
      );
      box.dataset.ready = 'true';
      return;
    }
    box.replaceChildren(el('p', { class: 'muted small' }, t('grp.previewWait')));
    await new Promise((resolve) => { setTimeout(resolve, PREVIEW_WAIT_MS); });
    if (!box.isConnected) return;
  }
  box.replaceChildren(el('p', { class: 'muted small' }, t('grp.previewNone')));
}

function groupItem(g) {
  const published = isPublished(g);
  const open = published && previews.has(g.id);
  const url = published ? publicUrl(g.status_slug) : null;
  return el('li', { class: 'group-item', dataset: { groupId: g.id } },
    el('div', { class: 'group-item-head' },
      el('span', { class: 'group-swatch', dataset: { color: g.color }, 'aria-hidden': 'true' }),
      el('span', { class: 'group-item-name' }, g.name),
      el('span', { class: 'group-count' }, t('dash.groupCount', { n: g.services_count ?? 0 })),
      published
        ? el('span', { class: 'tag tag-ok', dataset: { field: 'published' } }, t('grp.published'))
        : el('span', { class: 'tag', dataset: { field: 'published' } }, t('grp.private'))),
    published ? el('p', { class: 'group-link' }, el('span', { class: 'visually-hidden' }, `${t('grp.publicLink')}: `),
      el('a', { href: url, target: '_blank', rel: 'noopener', dataset: { field: 'public-link' } }, url)) : null,
    el('div', { class: 'btn-row' },
      el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'edit-group' },
        'aria-label': t('grp.editNamed', { name: g.name }), onclick: () => openGroup(g.id) }, t('grp.edit')),
      published ? el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'preview' },
        'aria-expanded': String(open), 'aria-controls': `grp-${g.id}-preview`,
        'aria-label': t('grp.previewNamed', { name: g.name }), onclick: () => togglePreview(g.id) }, t('grp.preview')) : null,
      published ? el('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { action: 'unpublish' },
        'aria-label': t('grp.unpublishNamed', { name: g.name }), onclick: (e) => unpublish(g.id, e.currentTarget) }, t('grp.unpublish')) : null,
      el('button', { type: 'button', class: 'btn btn-sm btn-ghost btn-ghost-danger', dataset: { action: 'delete-group' },
        'aria-label': t('grp.deleteNamed', { name: g.name }), onclick: () => removeGroup(g.id) }, t('svc.delete'))),
    open ? previewBox(g) : null);
}

/** Draws the groups panel from the page's groups (call after every load). */
export function renderGroups(supported) {
  const panel = $('groups-panel');
  if (!panel || !ctx) return;
  panel.hidden = !supported;
  if (!supported) return;
  const groups = ctx.groups();
  const list = $('groups-list');
  const focused = list.contains(document.activeElement)
    ? [document.activeElement.closest('[data-group-id]')?.dataset.groupId, document.activeElement.dataset.action] : null;
  // An open preview keeps its box across redraws (no refetch every refresh).
  const kept = new Map([...list.querySelectorAll('[data-preview]')].map((b) => [b.dataset.preview, b]));
  list.replaceChildren(...groups.map((g) => {
    const item = groupItem(g);
    const old = kept.get(String(g.id));
    const fresh = item.querySelector('[data-preview]');
    if (old && fresh) fresh.replaceWith(old);
    return item;
  }));
  $('groups-empty').hidden = groups.length > 0;
  if (focused && focused[0]) list.querySelector(`[data-group-id="${focused[0]}"] [data-action="${focused[1]}"]`)?.focus();
}

function togglePreview(id) {
  if (previews.has(id)) previews.delete(id); else previews.add(id);
  const list = $('groups-list');
  const g = ctx.groups().find((x) => x.id === id);
  const old = list.querySelector(`[data-group-id="${id}"]`);
  if (!g || !old) return;
  const item = groupItem(g);
  old.replaceWith(item);
  item.querySelector('[data-action="preview"]')?.focus();
}

/* ---- create, delete, unpublish -------------------------------------------------------------- */

async function onCreate(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearErrors(form);
  const name = form.elements.name.value.trim();
  const done = busy(form.querySelector('button[type="submit"]'), 'common.saving');
  let group;
  try {
    group = await api('/api/v1/groups', { method: 'POST', body: { name } });
  } catch (err) {
    done();
    if (err.status !== 401) showErrors(form, err);
    return;
  }
  done();
  form.reset();
  toast(t('grp.created', { name: group.name }), 'success');
  await ctx.reload();
  $('groups-list').querySelector(`[data-group-id="${group.id}"] [data-action="edit-group"]`)?.focus();
}

async function removeGroup(id) {
  const g = ctx.groups().find((x) => x.id === id);
  if (!g) return;
  const ok = await confirmDialog({
    title: t('grp.confirmTitle'), body: t('grp.confirmBody', { name: g.name }), confirmLabel: t('svc.delete'),
  });
  if (!ok) return;
  try {
    await api(`/api/v1/groups/${id}`, { method: 'DELETE' });
  } catch (err) {
    if (err.status === 401) return;
    if (err.status !== 404) { toast(err.message, 'error'); return; }
  }
  previews.delete(id);
  toast(t('grp.deleted', { name: g.name }), 'success');
  await ctx.reload();
  $('groups-heading').focus();
}

async function unpublish(id, button) {
  const g = ctx.groups().find((x) => x.id === id);
  if (!g) return;
  const done = busy(button, null);
  try {
    await api(`/api/v1/groups/${id}`, { method: 'PUT', body: { status_public: false } });
  } catch (err) {
    done();
    if (err.status !== 401) toast(err.message, 'error');
    return;
  }
  previews.delete(id);
  toast(t('grp.unpublished', { name: g.name }), 'success');
  await ctx.reload();
  $('groups-list').querySelector(`[data-group-id="${id}"] [data-action="edit-group"]`)?.focus();
}

/* ---- the group dialog: rename, members, status page ----------------------------------------- */

function slugHint(form) {
  const slug = form.elements.status_slug.value.trim();
  $('gd-slug-hint').textContent = t('grp.slugHint', { url: publicUrl(slug || t('grp.slugExample')) });
}

function openGroup(id) {
  const g = ctx.groups().find((x) => x.id === id);
  if (!g) return;
  const form = $('group-form');
  const dialog = $('group-dialog');
  editing = { id, opener: document.activeElement };
  clearErrors(form);
  $('group-dialog-title').textContent = t('grp.editTitle', { name: g.name });
  const f = form.elements;
  f.name.value = g.name;
  f.status_public.checked = Boolean(g.status_public);
  f.status_slug.value = g.status_slug || '';
  f.status_title.value = g.status_title || '';
  f.status_title.placeholder = g.name;
  f.status_announcement.value = g.status_announcement || '';
  f.status_show_urls.checked = Boolean(g.status_show_urls);
  slugHint(form);
  const services = [...ctx.services()].sort((a, b) => a.name.localeCompare(b.name, lang));
  $('gd-members').replaceChildren(...(services.length ? services.map((s) => {
    const other = s.group_id !== null && s.group_id !== undefined && s.group_id !== id
      ? ctx.groups().find((x) => x.id === s.group_id) : null;
    return el('div', { class: 'filter-check group-member' },
      el('input', { type: 'checkbox', id: `gd-m-${s.id}`, name: 'member', value: s.id, checked: s.group_id === id }),
      el('label', { for: `gd-m-${s.id}` }, s.name, other ? el('span', { class: 'muted small' }, ` (${other.name})`) : null));
  }) : [el('p', { class: 'muted small' }, t('grp.noServices'))]));
  openDialog(dialog).then(() => {
    const back = editing?.opener;
    editing = null;
    const again = $('groups-list').querySelector(`[data-group-id="${id}"] [data-action="edit-group"]`);
    (again || back)?.focus?.();
  });
  f.name.focus();
}

function optText(v) {
  const x = v.trim();
  return x === '' ? null : x;
}

async function onSave(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const id = editing?.id;
  const g = ctx.groups().find((x) => x.id === id);
  if (!g) { $('group-dialog').close(); return; }
  clearErrors(form);
  const f = form.elements;
  const publish = f.status_public.checked;
  let slug = optText(f.status_slug.value);
  if (publish && !slug) slug = slugFrom(f.name.value) || null; // a sensible address by default
  const next = {
    name: f.name.value.trim(),
    status_public: publish,
    status_slug: slug,
    status_title: optText(f.status_title.value),
    status_announcement: optText(f.status_announcement.value),
    status_show_urls: f.status_show_urls.checked,
  };
  const changes = {};
  for (const [k, v] of Object.entries(next)) if ((g[k] ?? null) !== v) changes[k] = v;
  if (publish && !slug) {
    showErrors(form, { fields: { status_slug: [t('grp.slugNeeded')] } });
    return;
  }
  const done = busy(form.querySelector('button[type="submit"]'), 'common.saving');
  try {
    if (Object.keys(changes).length) await api(`/api/v1/groups/${id}`, { method: 'PUT', body: changes });
    // Services ticked in or out: each moves by its own PUT (into this group, or out to none).
    const ticked = new Set([...form.querySelectorAll('input[name="member"]:checked')].map((x) => Number(x.value)));
    for (const s of ctx.services()) {
      const inside = s.group_id === id;
      if (inside === ticked.has(s.id)) continue;
      await api(`/api/v1/services/${s.id}`, { method: 'PUT', body: { group_id: inside ? null : id } });
    }
  } catch (err) {
    done();
    // A group edit's only conflict is an address another page has (the wording is the server's).
    if (err.status === 409 && 'status_slug' in changes) {
      showErrors(form, { fields: { status_slug: [t('grp.slugTaken')] } });
    } else if (err.status !== 401) {
      showErrors(form, err);
    }
    return;
  }
  done();
  if (publish) previews.add(id);
  $('group-dialog').close('saved');
  toast(t(publish && !isPublished(g) ? 'grp.publishedToast' : 'grp.saved', { name: next.name }), 'success');
  await ctx.reload();
}

/** Wires the panel; context gives the page's services and groups and a reload. */
export function initGroups(context) {
  ctx = context;
  const form = $('group-form');
  if (!form) return;
  linkFieldDescriptions(form);
  linkFieldDescriptions($('add-group'));
  $('add-group').addEventListener('submit', onCreate);
  form.addEventListener('submit', onSave);
  form.elements.status_slug.addEventListener('input', () => slugHint(form));
  form.elements.status_public.addEventListener('change', () => {
    if (form.elements.status_public.checked && !form.elements.status_slug.value.trim()) {
      form.elements.status_slug.value = slugFrom(form.elements.name.value);
      slugHint(form);
    }
  });
  $('group-cancel').addEventListener('click', () => $('group-dialog').close());
}
