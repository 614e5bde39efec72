// No browser: the server's English texts (check errors, `detail`, validation messages) become
// page texts — every key they name exists, a status is never said twice, and an unknown text
// reaches a Russian page only as a Russian sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { STRINGS } from '../../www/js/strings.js';
import { checkErrorText, detailText, validationText } from '../../www/js/messages.js';

test('every key messages.js names exists in every language', async () => {
  const text = await readFile(path.join(REPO_ROOT, 'www', 'js', 'messages.js'), 'utf8');
  const keys = [...text.matchAll(/\['((?:chk|error|v)\.[A-Za-z_.]+)'/g)].map((m) => m[1]);
  assert.ok(keys.length > 20);
  for (const lang of Object.keys(STRINGS)) {
    assert.deepEqual(keys.filter((k) => !(k in STRINGS[lang])), [], `${lang}: missing keys`);
  }
});

test('check errors: translated, the HTTP status not repeated, unknown English kept out of Russian', () => {
  assert.equal(checkErrorText('HTTP status 500', 500, 'ru'), null);
  assert.equal(checkErrorText('HTTP status 500', 500, 'en'), null);
  assert.equal(checkErrorText('HTTP status 301 (expected 200)', 301, 'ru').text, 'ожидался 200');
  assert.equal(checkErrorText("Couldn't connect to server", null, 'ru').text, 'соединение отклонено');
  assert.equal(checkErrorText('timed out after 10000 ms', null, 'ru').text, 'нет ответа за 10000 мс');
  assert.equal(checkErrorText('keyword not found: Welcome', 200, 'en').text, 'the page lacks “Welcome”');
  const unknown = checkErrorText('Something new from libcurl', null, 'ru');
  assert.equal(unknown.text, 'проверка не удалась');
  assert.equal(unknown.original, 'Something new from libcurl');
  assert.equal(checkErrorText('Something new from libcurl', null, 'en').text, 'Something new from libcurl');
  assert.equal(checkErrorText(null, 200, 'ru'), null);
});

test('details and validation messages in Russian', () => {
  assert.equal(detailText('Service limit reached: at most 1000 services per user', 'ru'),
    'Достигнут предел: не больше 1000 сервисов на пользователя.');
  assert.equal(detailText('No idea', 'ru'), null);
  assert.equal(validationText({ type: 'value_error', msg: 'Value error, The password is too common: it is in a list' }, 'ru'),
    STRINGS.ru['v.passwordCommon']);
  assert.equal(validationText({ type: 'greater_than_equal', msg: 'x', ctx: { ge: 10 } }, 'ru'), 'Не меньше 10.');
  assert.equal(validationText({ type: 'greater_than_equal', msg: 'Input should be >= 10' }, 'ru'), 'Недопустимое значение.');
  assert.equal(validationText({ type: 'brand_new', msg: 'Brand new' }, 'ru'), 'Недопустимое значение.');
  assert.equal(validationText({ type: 'brand_new', msg: 'Brand new' }, 'en'), 'Brand new');
});

test('vault rule errors in Russian: the reason a path is refused, a missing user or rule', () => {
  const item = (reason) => ({ type: 'value_error', loc: ['body', 'path'], msg: `Value error, ${reason}` });
  assert.equal(validationText(item("'.' and '..' are not allowed in a path"), 'ru'), STRINGS.ru['v.vaultDots']);
  assert.equal(validationText(item('empty path component'), 'ru'), STRINGS.ru['v.vaultEmptyName']);
  assert.equal(validationText(item("names starting with '.vault-' are reserved"), 'ru'), STRINGS.ru['v.vaultReserved']);
  assert.equal(validationText(item('the path is longer than 1024 bytes'), 'ru'), STRINGS.ru['v.vaultTooLong']);
  assert.equal(validationText(item('empty path component'), 'en'), 'Value error, empty path component');
  assert.equal(detailText('User not found', 'ru'), STRINGS.ru['error.userNotFound']);
  assert.equal(detailText('No such rule', 'ru'), STRINGS.ru['error.noSuchRule']);
});

test('an unreachable audit target: the host and the reason in the page\'s language (issue 28 §3)', () => {
  assert.equal(detailText('could not reach 127.0.0.1:9: connection refused', 'ru'),
    'Сайт недоступен (127.0.0.1:9): соединение отклонено. Проверка не проводилась, ничего не сохранено.');
  assert.equal(detailText('could not reach 127.0.0.1:9: connection refused', 'en'),
    'The site could not be reached (127.0.0.1:9): connection refused. Nothing was checked and nothing was saved.');
  assert.match(detailText('could not reach example.com:443: timed out after 10000 ms', 'ru'), /нет ответа за 10000 мс/);
  assert.match(detailText('could not reach example.com:443: timed out', 'ru'), /нет ответа вовремя/);
  assert.match(detailText('could not reach a.example:443: TLS handshake failed: SSL connect error', 'ru'),
    /не удалось установить соединение TLS/);
  assert.match(detailText('could not reach a.example:443: TLS handshake failed: SSL certificate problem: self-signed certificate', 'ru'),
    /сертификат TLS недействителен/);
  assert.match(detailText('could not reach x.example:443: the host name does not resolve, or only to addresses the egress policy refuses', 'ru'),
    /хост недоступен/);
  assert.equal(detailText('Backend unavailable', 'ru'), null, 'nginx\'s own 502 is not this');
});
