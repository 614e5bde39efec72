// No browser: the server's English texts (check errors, `detail`, validation messages) become
// page texts — every key they name exists, a status is never said twice, and an unknown text
// reaches a Russian page only as a Russian sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { STRINGS } from '../../www/js/strings.js';
import { checkErrorText, detailText, validationText, notifyErrorText, channelFieldText } from '../../www/js/messages.js';

test('every key messages.js names exists in every language', async () => {
  const text = await readFile(path.join(REPO_ROOT, 'www', 'js', 'messages.js'), 'utf8');
  const keys = [...text.matchAll(/\['((?:chk|error|v|ntf)\.[A-Za-z_.]+)'/g)].map((m) => m[1]);
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
  assert.equal(validationText(item('empty path component'), 'en'), 'Empty path component'); // issue 28 §4: no prefix
  assert.equal(detailText('User not found', 'ru'), STRINGS.ru['error.userNotFound']);
  assert.equal(detailText('No such rule', 'ru'), STRINGS.ru['error.noSuchRule']);
});

test('why a notification was not sent, in plain words in both languages (issue 28 §1)', () => {
  const cases = [
    ["Couldn't connect to server", 'ntf.err.refused'],
    ['no answer within 10 s; the message may still arrive', 'ntf.err.timeout'],
    ['Telegram answered HTTP 401: Unauthorized', 'ntf.err.tgToken'],
    ['Telegram answered HTTP 400: Bad Request: chat not found', 'ntf.err.tgChat'],
    ['Telegram answered HTTP 403: Forbidden: bot was blocked by the user', 'ntf.err.tgForbidden'],
    ['Telegram answered HTTP 500: Internal Server Error', 'ntf.err.tgStatus'],
    ['the channel is not configured: it needs a host', 'ntf.err.notConfigured'],
    ['the channel has no sender: set from_addr (the operator may also set notify.smtp_from)', 'ntf.err.noSender'],
    ["the channel's token holds characters a Telegram token never has; save the channel again", 'ntf.err.saveAgain'],
    ['cannot connect: the host has no address the egress policy allows', 'ntf.err.unreachable'],
    ['Login denied (SMTP 535)', 'ntf.err.login'],
    ['Requested SSL level failed', 'ntf.err.starttls'],
    ['Failed sending data to the peer (SMTP 550)', 'ntf.err.smtpRefused'],
  ];
  for (const lang of ['en', 'ru']) {
    for (const [raw, key] of cases) {
      const got = notifyErrorText(raw, lang);
      assert.equal(got.original, raw);
      assert.equal(got.text.split(/[0-9]/)[0], STRINGS[lang][key].split('{')[0].split(/[0-9]/)[0], `${lang}: ${raw}`);
    }
  }
  assert.equal(notifyErrorText('Telegram answered HTTP 500: x', 'ru').text, 'Telegram отклонил сообщение (HTTP 500).');
  assert.equal(notifyErrorText('something new', 'ru').text, STRINGS.ru['ntf.err.failed']);
  assert.equal(notifyErrorText('something new', 'en').text, 'something new');
});

test('channel field errors: the channel rules in the page language, no "Value error," prefix (issue 28 §1, §4)', () => {
  const token = { type: 'string_pattern_mismatch', loc: ['body', 'params', 'token'], msg: "String should match pattern '^[A-Za-z0-9:_-]+$'" };
  assert.equal(channelFieldText('params.token', token, 'ru'), STRINGS.ru['ntf.v.token']);
  assert.equal(channelFieldText('params.token', token, 'en'), STRINGS.en['ntf.v.token']);
  const host = { type: 'value_error', msg: 'Value error, the host must be a DNS name or an IP address' };
  assert.equal(channelFieldText('params.host', host, 'en'), STRINGS.en['ntf.v.host']);
  const rcpt = { type: 'value_error', msg: 'value is not a valid email address', input: 'x@' };
  assert.equal(channelFieldText('params.to_addrs.1', rcpt, 'ru'), '«x@» — не адрес эл. почты.');
  const control = { type: 'value_error', msg: 'Value error, control characters (CR, LF, NUL …) are not allowed' };
  assert.equal(channelFieldText('params.username', control, 'en'), STRINGS.en['ntf.v.control']);
  const moved = { type: 'value_error', msg: 'Value error, the stored password is kept only for the same host: send it again to change host' };
  assert.equal(channelFieldText('params.password', moved, 'ru'), STRINGS.ru['ntf.v.secretHost']);
  assert.equal(channelFieldText('params.port', { type: 'less_than_equal', msg: 'Input should be less than or equal to 65535', ctx: { le: 65535 } }, 'ru'),
    STRINGS.ru['ntf.v.port']);
  // Any page: pydantic's prefix is dropped from English server messages.
  assert.equal(validationText({ type: 'value_error', msg: 'Value error, something the page does not know' }, 'en'),
    'Something the page does not know');
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
