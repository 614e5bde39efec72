// A public status page: /status/{slug} reads /api/status/{slug} (no token, cached briefly by
// the server) and redraws itself every minute. Self-contained: it shares no state with the
// signed-in pages.
const RU = (navigator.language || '').toLowerCase().startsWith('ru');
const T = RU
  ? {
      operational: 'Все системы работают', partial_outage: 'Частичный сбой', major_outage: 'Серьёзный сбой',
      unknown: 'Состояние уточняется', up: 'Работает', down: 'Не работает', paused: 'Не проверяется',
      unknown_state: 'Нет данных', services: 'Сервисы', incidents: 'Инциденты за 90 дней', none: 'Инцидентов не было.',
      ongoing: 'продолжается', lasted: 'длительность', updated: 'Обновлено', uptime: 'доступность за 90 дней',
      nodata: 'нет данных', notfound: 'Страница статуса не найдена.', offline: 'Нет связи с сервером, показаны данные на',
      powered: 'Работает на Дозоре', days90: '90 дней назад', today: 'сегодня',
    }
  : {
      operational: 'All systems operational', partial_outage: 'Partial outage', major_outage: 'Major outage',
      unknown: 'Status being determined', up: 'Operational', down: 'Down', paused: 'Not monitored',
      unknown_state: 'No data', services: 'Services', incidents: 'Incidents in the last 90 days', none: 'No incidents.',
      ongoing: 'ongoing', lasted: 'lasted', updated: 'Updated', uptime: 'uptime over 90 days', nodata: 'no data',
      notfound: 'This status page does not exist.', offline: 'Cannot reach the server; showing data from',
      powered: 'Powered by Dozor', days90: '90 days ago', today: 'today',
    };
const REFRESH_MS = 60_000;
const slug = decodeURIComponent(location.pathname.replace(/^\/status\//, '').replace(/\/$/, ''));
const api = '/api/status/' + encodeURIComponent(slug);
const $ = (id) => document.getElementById(id);
let lastGood = null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function duration(seconds) {
  const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600), m = Math.floor((seconds % 3600) / 60);
  const u = RU ? ['д', 'ч', 'мин', 'с'] : ['d', 'h', 'min', 's'];
  if (d) return `${d} ${u[0]} ${h} ${u[1]}`;
  if (h) return `${h} ${u[1]} ${m} ${u[2]}`;
  if (m) return `${m} ${u[2]}`;
  return `${seconds} ${u[3]}`;
}

function when(iso) {
  return new Date(iso).toLocaleString(RU ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

// Percent in the reader's language: "99,95 %" in Russian.
function pct(value, digits) {
  return value.toLocaleString(RU ? 'ru-RU' : 'en-GB', { minimumFractionDigits: digits, maximumFractionDigits: 3 }) + ' %';
}

function barClass(uptime) {
  if (uptime === null) return 'bar bar-none';
  if (uptime >= 99.9) return 'bar bar-up';
  if (uptime >= 95) return 'bar bar-warn';
  return 'bar bar-down';
}

function render(page) {
  document.title = page.title;
  $('status-title').textContent = page.title;
  const desc = $('status-description');
  desc.hidden = !page.description;
  desc.textContent = page.description || '';
  const overall = $('status-overall');
  overall.textContent = T[page.status] || T.unknown;
  overall.className = 'status-overall status-' + page.status;
  const ann = $('status-announcement');
  ann.hidden = !page.announcement;
  ann.textContent = page.announcement || '';
  $('status-services-heading').textContent = T.services;
  const list = $('status-services');
  list.replaceChildren();
  for (const s of page.services) {
    const li = el('li', 'status-service');
    const head = el('div', 'status-service-head');
    const name = el('span', 'status-service-name', s.name);
    const state = el('span', 'status-state status-state-' + s.state, T[s.state === 'unknown' ? 'unknown_state' : s.state]);
    head.append(name, state);
    if (s.url) head.append(el('span', 'status-service-url', s.url));
    const bars = el('div', 'status-bars');
    bars.setAttribute('role', 'img');
    const known = s.days.filter((d) => d.uptime !== null).length;
    bars.setAttribute('aria-label', `${s.name}: ${s.uptime_90d === null ? T.nodata : pct(s.uptime_90d, 0)} ${T.uptime}`);
    for (const d of s.days) {
      const b = el('span', barClass(d.uptime));
      b.title = `${d.date}: ${d.uptime === null ? T.nodata : pct(d.uptime, 0)}`;
      bars.append(b);
    }
    const foot = el('div', 'status-service-foot');
    foot.append(el('span', '', T.days90),
      el('span', 'status-uptime', (s.uptime_90d === null ? T.nodata : pct(s.uptime_90d, 2)) + ' · ' + T.uptime),
      el('span', '', T.today));
    li.dataset.knownDays = String(known);
    li.append(head, bars, foot);
    list.append(li);
  }
  $('status-incidents-heading').textContent = T.incidents;
  const inc = $('status-incidents');
  inc.replaceChildren();
  if (!page.incidents.length) inc.append(el('li', 'status-none', T.none));
  for (const i of page.incidents) {
    const li = el('li', 'status-incident' + (i.ended_at ? '' : ' status-incident-open'));
    li.append(el('strong', '', i.service), el('span', '', ' — ' + when(i.started_at) + ', ' +
      (i.ended_at ? `${T.lasted} ${duration(i.duration_seconds)}` : `${T.ongoing} (${duration(i.duration_seconds)})`)));
    if (i.cause) li.append(el('code', 'status-cause', i.cause));
    inc.append(li);
  }
  $('status-updated').textContent = `${T.updated}: ${when(page.generated_at)}`;
  $('status-json').href = api;
  $('status-powered').textContent = T.powered;
  document.documentElement.lang = RU ? 'ru' : 'en';
}

async function refresh() {
  const main = $('main');
  try {
    const r = await fetch(api, { headers: { Accept: 'application/json' } });
    if (r.status === 404) {
      // Nothing but the sentence: no empty headings, no footer with a JSON link to nowhere.
      document.title = T.notfound;
      $('status-title').textContent = T.notfound;
      for (const id of ['status-overall', 'status-announcement', 'status-description']) $(id).hidden = true;
      for (const node of main.querySelectorAll('section, footer')) node.hidden = true;
      main.classList.add('status-missing');
      document.documentElement.lang = RU ? 'ru' : 'en';
      main.setAttribute('aria-busy', 'false');
      return;
    }
    if (!r.ok) throw new Error('HTTP ' + r.status);
    lastGood = await r.json();
    render(lastGood);
    main.classList.remove('status-stale');
  } catch {
    // Keep what was shown, and say how old it is.
    if (lastGood) {
      main.classList.add('status-stale');
      $('status-updated').textContent = `${T.offline} ${when(lastGood.generated_at)}`;
    }
  }
  main.setAttribute('aria-busy', 'false');
  setTimeout(refresh, REFRESH_MS);
}

refresh();
