// Shared helpers of the browser tests: configuration, browser launch, page wrapper with
// console/CSP capture and failure screenshots, an API client for setup/cleanup, a local target.
import { chromium, request as pwRequest } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');

export const BASE_URL = (process.env.DOZOR_TEST_BASE_URL || 'https://127.0.0.1:8443').replace(/\/+$/, '');
export const ADMIN_USER = process.env.DOZOR_TEST_ADMIN_USER || 'admin';
export const ADMIN_PASSWORD = process.env.DOZOR_TEST_ADMIN_PASSWORD || '';
export const CHROMIUM = process.env.DOZOR_TEST_CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = process.env.DOZOR_TEST_ARTIFACTS || path.join(REPO_ROOT, 'build', 'e2e-artifacts');
export const HEADED = process.env.DOZOR_TEST_HEADED === '1';

export const TEST_TIMEOUT = 120_000;

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export function requireConfig() {
  if (!ADMIN_PASSWORD) {
    throw new Error('DOZOR_TEST_ADMIN_PASSWORD is not set (password of the admin user of the stack under test)');
  }
}

export function uniqueName(prefix = 'e2e') {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export async function launchBrowser() {
  requireConfig();
  return chromium.launch({ executablePath: CHROMIUM, headless: !HEADED, args: CHROMIUM_ARGS });
}

export async function newContext(browser, options = {}) {
  return browser.newContext({
    baseURL: BASE_URL,
    ignoreHTTPSErrors: true,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
    ...options,
  });
}

function safeFileName(name) {
  return name.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 120);
}

/**
 * Records what a page says about itself: console errors and warnings, uncaught exceptions,
 * CSP violations (console text and the securitypolicyviolation event), failed requests and
 * same-origin responses with status ≥ 400 (API answers are excluded: tests provoke those on purpose).
 */
export function watchPage(page) {
  const log = { console: [], errors: [], csp: [], failedRequests: [], badResponses: [] };
  page.on('console', (msg) => {
    const entry = `[${msg.type()}] ${msg.text()}`;
    log.console.push(entry);
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(msg.text())) log.csp.push(entry);
    if (msg.type() === 'error') log.errors.push(entry);
  });
  page.on('pageerror', (err) => log.errors.push(`[pageerror] ${err.message}`));
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText || 'failed';
    if (failure === 'net::ERR_ABORTED') return; // navigation away while loading
    log.failedRequests.push(`${req.method()} ${req.url()} ${failure}`);
  });
  page.on('response', (res) => {
    const url = res.url();
    if (url.startsWith(BASE_URL) && res.status() >= 400 && !new URL(url).pathname.startsWith('/api/')) {
      log.badResponses.push(`${res.status()} ${url}`);
    }
  });
  return log;
}

export const CSP_PROBE = () => {
  window.__dozorCsp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__dozorCsp.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
};

/**
 * Runs fn(page, ctx) in a fresh browser context. On failure: a full-page screenshot and the page's
 * console into ARTIFACTS, then rethrows. options.token: start signed in (token put in localStorage).
 */
export async function withPage(t, browser, fn, { token = null, lang = null, contextOptions = {} } = {}) {
  const context = await newContext(browser, contextOptions);
  await context.addInitScript(CSP_PROBE);
  if (token || lang) {
    await context.addInitScript(([tok, lng]) => {
      if (tok && !sessionStorage.getItem('dozor.e2e.seeded')) {
        localStorage.setItem('dozor.token', tok);
        sessionStorage.setItem('dozor.e2e.seeded', '1');
      }
      if (lng) localStorage.setItem('dozor.lang', lng);
    }, [token, lang]);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const log = watchPage(page);
  try {
    await fn(page, { context, log });
  } catch (err) {
    await mkdir(ARTIFACTS, { recursive: true });
    const base = path.join(ARTIFACTS, safeFileName(t.fullName || t.name || 'test'));
    await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => {});
    await writeFile(`${base}.log`, [
      `url: ${page.url()}`, `error: ${err && err.stack}`, '', '# console', ...log.console,
      '', '# page errors', ...log.errors, '', '# failed requests', ...log.failedRequests,
      '', '# bad responses', ...log.badResponses,
    ].join('\n')).catch(() => {});
    throw err;
  } finally {
    await context.close().catch(() => {});
  }
}

/* ---- API client (setup and cleanup through the real API) ----------------------------------- */

export class Api {
  constructor(req, token) {
    this.req = req;
    this.token = token;
  }

  static async create() {
    const req = await pwRequest.newContext({ baseURL: BASE_URL, ignoreHTTPSErrors: true });
    return new Api(req, null);
  }

  async call(method, url, body) {
    const headers = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const res = await this.req.fetch(url, { method, headers, data: body === undefined ? undefined : body, failOnStatusCode: false });
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = null; }
    return { status: res.status(), json, headers: res.headers(), text };
  }

  async login(username, password) {
    const r = await this.call('POST', '/api/auth/login', { username, password });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${r.text}`);
    return r.json.access_token;
  }

  /** A client signed in as the given user. */
  async as(username, password) {
    return new Api(this.req, await this.login(username, password));
  }

  async mustOk(method, url, body) {
    const r = await this.call(method, url, body);
    if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
    return r.json;
  }

  async createUser({ username = uniqueName('e2e'), password = `Pw-${randomBytes(8).toString('hex')}`, isAdmin = false } = {}) {
    const user = await this.mustOk('POST', '/api/admin/users', {
      username, email: `${username}@example.test`, password, is_admin: isAdmin,
    });
    return { ...user, password };
  }

  async deleteUser(id) {
    if (id === undefined || id === null) return;
    await this.call('DELETE', `/api/admin/users/${id}`);
  }

  async dispose() {
    await this.req.dispose();
  }
}

/* ---- vault session (cookie + CSRF token, as the browse page uses them) ------------------------ */

/**
 * A vault session of one user through POST /vault/login; its request context keeps the cookie.
 * browse(path) answers {status, json}; mkdir(path) and remove(path) (to the trash) the status.
 */
export async function vaultSession(username, password) {
  const req = await pwRequest.newContext({ baseURL: BASE_URL, ignoreHTTPSErrors: true });
  const res = await req.post('/vault/login', { data: { username, password }, headers: { Origin: BASE_URL }, failOnStatusCode: false });
  if (res.status() !== 200) {
    const text = await res.text();
    await req.dispose();
    throw new Error(`vault login ${username}: ${res.status()} ${text}`);
  }
  const { csrf } = await res.json();
  const write = { Origin: BASE_URL, 'X-CSRF-Token': csrf };
  return {
    browse: async (path) => {
      const r = await req.get(`/vault/browse?path=${encodeURIComponent(path)}`,
        { headers: { Accept: 'application/json' }, failOnStatusCode: false });
      const text = await r.text();
      let json = null;
      try { json = JSON.parse(text); } catch { json = null; }
      return { status: r.status(), json };
    },
    mkdir: async (path) => {
      const r = await req.post('/vault/create_folder', { data: { path }, headers: write, failOnStatusCode: false });
      return r.status();
    },
    remove: async (path) => {
      const r = await req.delete(`/vault/delete?path=${encodeURIComponent(path)}`, { headers: write, failOnStatusCode: false });
      return r.status();
    },
    dispose: () => req.dispose(),
  };
}

/** Signs `user` in on /vault/login and opens the vault page of `folder`. */
export async function openVaultFolder(page, user, folder) {
  await page.goto('/vault/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/vault\/browse/);
  await page.goto(`/vault/browse?path=${encodeURIComponent(folder)}`);
  await waitLoaded(page);
}

/* ---- local target for checks ---------------------------------------------------------------- */

/**
 * A tiny HTTP server on 127.0.0.1 (random port); counts the requests it got. Answers 200, except
 * /status/NNN (that status) and /slow/MS (200 after MS milliseconds), so one target serves every
 * case a test needs. setDown(true) takes the whole site down (503 to everything) until
 * setDown(false): a site that goes down while it is being monitored.
 */
export async function startTarget() {
  const hits = [];
  let down = false;
  const load = { inFlight: 0, maxInFlight: 0 }; // requests being answered at once (the slow ones)
  const server = createServer((req, res) => {
    hits.push({ method: req.method, url: req.url, userAgent: req.headers['user-agent'] || '' });
    load.inFlight += 1;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    const answer = (status) => {
      load.inFlight -= 1;
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>e2e target</title><p>ok</p>');
    };
    const status = /^\/status\/([1-5]\d\d)\b/.exec(req.url || '');
    const slow = /^\/slow\/(\d+)\b/.exec(req.url || '');
    if (down) answer(503);
    else if (status) answer(Number(status[1]));
    else if (slow) setTimeout(() => answer(200), Math.min(Number(slow[1]), 30_000));
    else answer(200);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    hits,
    load,
    setDown: (value) => { down = Boolean(value); },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

/* ---- fake Telegram Bot API and SMTP sink (notifications) ------------------------------------- */

/**
 * The port of the stack's notify.telegram_api_base: scripts/test points it at 127.0.0.1, HTTPS
 * port + 7 (scripts/lib/test_stack.sh), where the test that needs it starts a fake Bot API.
 */
export function telegramPort() {
  const base = process.env.DOZOR_NOTIFY_TELEGRAM_API_BASE;
  if (base) return Number(new URL(base).port);
  return Number(new URL(BASE_URL).port || 443) + 7;
}

/**
 * A fake Telegram Bot API on 127.0.0.1:port: POST /bot<token>/sendMessage answers like Telegram —
 * ok for the tokens in `tokens`, 401 Unauthorized for any other. failNext(n): the next n requests
 * answer 500. messages: {token, body} of every accepted message. close() stops it (a stopped
 * server refuses connections); start() again on the same port.
 */
export async function startFakeTelegram({ port = telegramPort(), tokens = [] } = {}) {
  const messages = [];
  const known = new Set(tokens);
  let failing = 0;
  let server = null;
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body = null;
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { body = null; }
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(req.url || '');
      let code = 200;
      let answer;
      if (failing > 0) {
        failing -= 1;
        code = 500;
        answer = { ok: false, error_code: 500, description: 'Internal Server Error' };
      } else if (!m || !known.has(decodeURIComponent(m[1]))) {
        code = 401;
        answer = { ok: false, error_code: 401, description: 'Unauthorized' };
      } else {
        messages.push({ token: decodeURIComponent(m[1]), body });
        answer = { ok: true, result: { message_id: messages.length } };
      }
      const data = JSON.stringify(answer);
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) });
      res.end(data);
    });
  };
  const fake = {
    port,
    messages,
    addToken: (token) => known.add(token),
    failNext: (n) => { failing = n; },
    async start() {
      server = createServer(handler);
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
    },
    close: () => new Promise((resolve) => {
      if (!server) { resolve(); return; }
      server.closeAllConnections?.();
      server.close(() => resolve());
      server = null;
    }),
  };
  await fake.start();
  return fake;
}

/**
 * A tiny SMTP server on 127.0.0.1 (random port) that keeps every message it is given. It offers
 * AUTH PLAIN and LOGIN and accepts only the credentials in `logins` ({user: password}); without
 * a login a message is taken too. setHanging(true): connections are accepted and never answered
 * (a server that hangs). messages: {from, to, data, user}; subjectOf(data) decodes the Subject.
 */
export async function startSmtpSink({ logins = {} } = {}) {
  const messages = [];
  const sockets = new Set();
  let hanging = false;
  const server = createTcpServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    if (hanging) return;
    const send = (line) => sock.write(`${line}\r\n`);
    let buf = '';
    let stage = 'command'; // command | data | auth-plain | auth-user | auth-pass
    let mail = { from: null, to: [], data: '', user: null };
    let user = null;
    let pendingUser = null;
    const check = (name, password) => {
      if (Object.prototype.hasOwnProperty.call(logins, name) && logins[name] === password) {
        user = name;
        send('235 2.7.0 Authentication successful');
      } else {
        send('535 5.7.8 Authentication credentials invalid');
      }
    };
    const plain = (b64) => {
      const [, name, password] = Buffer.from(b64, 'base64').toString('utf8').split('\0');
      check(name, password);
    };
    send('220 sink ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (stage === 'data') {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = Buffer.from(buf.slice(0, end), 'latin1').toString('utf8');
          mail.user = user;
          buf = buf.slice(end + 5);
          messages.push(mail);
          mail = { from: null, to: [], data: '', user: null };
          stage = 'command';
          send('250 2.0.0 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        if (stage === 'auth-plain') { stage = 'command'; plain(line); continue; }
        if (stage === 'auth-user') { pendingUser = Buffer.from(line, 'base64').toString('utf8'); stage = 'auth-pass'; send('334 UGFzc3dvcmQ6'); continue; }
        if (stage === 'auth-pass') { stage = 'command'; check(pendingUser, Buffer.from(line, 'base64').toString('utf8')); continue; }
        const [verb, ...rest] = line.split(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO': send('250-sink'); send('250 AUTH PLAIN LOGIN'); break;
          case 'HELO': send('250 sink'); break;
          case 'AUTH':
            if (/^PLAIN$/i.test(rest[0] || '') && rest[1]) plain(rest[1]);
            else if (/^PLAIN$/i.test(rest[0] || '')) { stage = 'auth-plain'; send('334 '); }
            else if (/^LOGIN$/i.test(rest[0] || '')) { stage = 'auth-user'; send('334 VXNlcm5hbWU6'); }
            else send('504 5.5.4 Unrecognized authentication type');
            break;
          case 'MAIL': mail.from = line; send('250 2.1.0 ok'); break;
          case 'RCPT': mail.to.push(line); send('250 2.1.5 ok'); break;
          case 'DATA': stage = 'data'; send('354 go on'); break;
          case 'QUIT': sock.end('221 bye\r\n'); return;
          default: send('250 ok');
        }
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    messages,
    setHanging: (value) => { hanging = Boolean(value); },
    subjectOf: (data) => {
      const m = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(data);
      if (!m) return null;
      return m[1].replace(/\r\n[ \t]/g, ' ')
        .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64) => Buffer.from(b64, 'base64').toString('utf8'));
    },
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/* ---- page helpers --------------------------------------------------------------------------- */

export async function loginViaForm(page, username, password, { next } = {}) {
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits until the page's script has drawn its data (body[data-loaded="true"]). */
export async function waitLoaded(page) {
  await page.waitForSelector('body[data-loaded="true"]', { state: 'attached' });
}

/**
 * Keeps a screenshot of what a test looked at (ARTIFACTS/pages/<name>.png), so the pages a change
 * touched can be looked at in both languages and sizes after the run.
 */
export async function keepScreenshot(page, name, { fullPage = true } = {}) {
  const dir = path.join(ARTIFACTS, 'pages');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${safeFileName(name)}.png`), fullPage });
}

/** The viewports of issue 28's proof: a laptop and a phone. */
export const VIEWPORTS = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };
