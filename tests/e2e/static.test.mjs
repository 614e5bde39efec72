// Checks of www/ that need no browser or server: the markup obeys the CSP (no inline scripts,
// styles or event handlers), every page loads only its own module and the one stylesheet, and the
// string dictionaries are complete (every key in every language, same placeholders, every key used
// by the HTML and the scripts exists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { STRINGS, DEFAULT_LANGUAGE } from '../../www/js/strings.js';

const WWW = path.join(REPO_ROOT, 'www');
const PAGES = ['index.html', 'login.html', 'dashboard.html', 'admin.html', 'security.html', 'notifications.html', 'kiosk.html',
  'vault/login.html', 'privacy.html', 'vault/error-403.html', 'vault/error-502.html'];

async function read(rel) {
  return readFile(path.join(WWW, rel), 'utf8');
}

async function scripts() {
  const dir = path.join(WWW, 'js');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.js'));
  return Promise.all(names.map(async (n) => ({ name: n, text: await readFile(path.join(dir, n), 'utf8') })));
}

test('every page exists and obeys the CSP in its markup', async () => {
  for (const page of PAGES) {
    const html = await read(page);
    assert.match(html, /^<!doctype html>/i, `${page}: doctype`);
    assert.match(html, /<html lang="[a-z]{2}">/, `${page}: html lang`);
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/, `${page}: viewport`);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, `${page}: inline <script>`);
    assert.doesNotMatch(html, /<style[\s>]/i, `${page}: <style> block`);
    assert.doesNotMatch(html, /\sstyle\s*=/i, `${page}: style attribute`);
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, `${page}: event-handler attribute`);
    assert.doesNotMatch(html, /javascript:/i, `${page}: javascript: URL`);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i, `${page}: loads something from another origin`);
    const modules = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    assert.equal(modules.length, 1, `${page}: exactly one module script`);
    await assert.doesNotReject(read(modules[0].replace(/^\//, '')), `${page}: ${modules[0]} exists`);
    const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(sheets, ['/css/dozor.css'], `${page}: the one stylesheet`);
  }
});

test('scripts build DOM without innerHTML, eval or inline styles strings', async () => {
  for (const { name, text } of await scripts()) {
    assert.doesNotMatch(text, /\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write/, `${name}: HTML string injection`);
    assert.doesNotMatch(text, /\beval\(|new Function\(/, `${name}: eval`);
    assert.doesNotMatch(text, /setAttribute\(\s*['"]style['"]/, `${name}: style attribute`);
    assert.doesNotMatch(text, /window\.confirm|\balert\(|\bprompt\(/, `${name}: native dialogs`);
  }
});

test('every language has every string with the same placeholders', () => {
  const base = STRINGS[DEFAULT_LANGUAGE];
  const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [lang, dict] of Object.entries(STRINGS)) {
    const missing = Object.keys(base).filter((k) => !(k in dict));
    const extra = Object.keys(dict).filter((k) => !(k in base));
    assert.deepEqual(missing, [], `${lang}: missing keys`);
    assert.deepEqual(extra, [], `${lang}: keys unknown in ${DEFAULT_LANGUAGE}`);
    for (const key of Object.keys(base)) {
      assert.equal(typeof dict[key], 'string', `${lang}.${key}`);
      assert.notEqual(dict[key].trim(), '', `${lang}.${key} is empty`);
      assert.deepEqual(placeholders(dict[key]), placeholders(base[key]), `${lang}.${key}: placeholders`);
    }
  }
});

test('every string key used by the pages and scripts exists', async () => {
  const base = STRINGS[DEFAULT_LANGUAGE];
  const used = new Set();
  for (const page of PAGES) {
    const html = await read(page);
    for (const m of html.matchAll(/data-i18n="([^"]+)"/g)) used.add(m[1]);
    for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
      for (const pair of m[1].split(';')) used.add(pair.split(':')[1].trim());
    }
  }
  for (const { text } of await scripts()) {
    for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\b(?:key|labelKey):\s*'([^']+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/busy\([^,]+,\s*'([^']+)'\)/g)) used.add(m[1]);
  }
  const unknown = [...used].filter((k) => !(k in base));
  assert.deepEqual(unknown, [], 'keys used but not defined');
});

test('the vendored uPlot is the version the lockfile pins, with its licence', async () => {
  const lock = JSON.parse(await readFile(path.join(REPO_ROOT, 'scripts', 'vendor-www.d', 'package-lock.json'), 'utf8'));
  const pinned = lock.packages['node_modules/uplot'];
  assert.ok(pinned && pinned.integrity, 'uplot pinned with an integrity hash');
  const js = await read('vendor/uplot/uPlot.iife.min.js');
  assert.ok(js.startsWith(`/*! https://github.com/leeoniya/uPlot (v${pinned.version}) */`), `www/vendor/uplot is uPlot ${pinned.version}`);
  assert.match(await read('vendor/uplot/LICENSE'), /MIT License/);
  await assert.doesNotReject(read('vendor/uplot/uPlot.min.css'));
  // When scripts/vendor-www has installed the package here, the copies must be byte-identical.
  const installed = path.join(REPO_ROOT, 'scripts', 'vendor-www.d', 'node_modules', 'uplot', 'dist');
  const fromNpm = await readFile(path.join(installed, 'uPlot.iife.min.js'), 'utf8').catch(() => null);
  if (fromNpm !== null) assert.equal(js, fromNpm, 'www/vendor/uplot/uPlot.iife.min.js equals the npm dist file');
  // Pages load it from this site only (no CDN).
  for (const { name, text } of await scripts()) {
    assert.doesNotMatch(text, /https?:\/\/[^'"\s]*(cdn|unpkg|jsdelivr)/i, `${name}: loads from a CDN`);
  }
});
