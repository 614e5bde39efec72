// Texts for what the server says in English: check errors (`error` of a check, `last_error` of a
// service), known `detail` strings and validation messages. The server's words are recognised by
// pattern and told in the page's language; an unknown text is shown as is only in English —
// other languages get a general sentence in their own language (the original goes to a tooltip).
// No DOM access: Node imports this module in tests.
import { STRINGS, DEFAULT_LANGUAGE, format } from './strings.js';

function translator(lang) {
  return (key, params) => {
    const s = (STRINGS[lang] && STRINGS[lang][key]) ?? STRINGS[DEFAULT_LANGUAGE][key] ?? key;
    return params ? format(s, params) : s;
  };
}

// libcurl's curl_easy_strerror texts (engines/net passes them through) and Dozor's own.
const CHECK_ERRORS = [
  [/^HTTP status (\d{3}) \(expected (.+)\)$/, (m) => ['chk.expected', { code: m[1], expected: m[2] }]],
  [/^HTTP status (\d{3})$/, (m) => ['chk.status', { code: m[1] }]],
  [/^keyword found: (.*)$/s, (m) => ['chk.keywordFound', { keyword: m[1] }]],
  [/^keyword not found: (.*)$/s, (m) => ['chk.keywordMissing', { keyword: m[1] }]],
  [/^timed out after (\d+) ms$/, (m) => ['chk.timeout', { n: m[1] }]],
  [/^Timeout was reached$/i, () => ['chk.timeoutPlain']],
  [/^no answer$/i, () => ['chk.noAnswer']],
  [/^cannot connect: the host has no address/i, () => ['chk.unreachable']],
  [/^Couldn't resolve (host|proxy)/i, () => ['chk.unreachable']],
  [/^Couldn't connect to (server|host)/i, () => ['chk.refused']],
  [/^stopped after (\d+) redirects$/, (m) => ['chk.redirects', { n: m[1] }]],
  [/^invalid redirect location/i, () => ['chk.badRedirect']],
  // The reasons of an unreachable audit target (engines/net/unreachable.cpp).
  [/^connection refused$/i, () => ['chk.refused']],
  [/^timed out$/i, () => ['chk.timeoutPlain']],
  [/^the host name does not resolve/i, () => ['chk.unreachable']],
  [/^TLS handshake failed: (SSL peer certificate|SSL certificate problem|Peer certificate)/i, () => ['chk.certificate']],
  [/^(SSL peer certificate|SSL certificate problem|Peer certificate)/i, () => ['chk.certificate']],
  [/^SSL connect error|^SSL|TLS/i, () => ['chk.tls']],
  [/^(Failure when receiving|Failed sending|Send failure|Recv failure|Server returned nothing)/i, () => ['chk.connectionLost']],
  [/^(Weird server reply|Unsupported protocol|Received HTTP\/0\.9)/i, () => ['chk.badReply']],
];

/**
 * The text of a check error for the user, or null when it says nothing beyond the HTTP status
 * shown next to it (statusCode), so "HTTP 500" never appears twice.
 * @returns {{text: string, original: string|null}|null}
 */
export function checkErrorText(error, statusCode, lang) {
  if (error === null || error === undefined || error === '') return null;
  const raw = String(error);
  const t = translator(lang);
  for (const [pattern, make] of CHECK_ERRORS) {
    const m = pattern.exec(raw);
    if (!m) continue;
    const [key, params] = make(m);
    if (key === 'chk.status' && statusCode !== null && statusCode !== undefined && String(statusCode) === m[1]) return null;
    if (key === 'chk.expected' && String(statusCode) === m[1]) return { text: t('chk.expectedOnly', params), original: raw };
    return { text: t(key, params), original: raw };
  }
  return lang === 'en' ? { text: raw, original: null } : { text: t('chk.failed'), original: raw };
}

// `detail` strings the backend answers with (fcgi/error_mapping.cpp, engines/*).
const DETAILS = [
  [/username or e-mail already exists/i, () => ['error.userExists']],
  [/e-mail already exists/i, () => ['error.emailExists']],
  [/last active admin/i, () => ['error.lastAdmin']],
  [/Service limit reached: at most (\d+)/i, (m) => ['error.serviceLimit', { n: m[1] }]],
  [/Group limit reached: at most (\d+)/i, (m) => ['error.groupLimit', { n: m[1] }]],
  [/^User not found$/i, () => ['error.userNotFound']],
  [/^No such rule$/i, () => ['error.noSuchRule']],
  // An audit or scan whose target gave no HTTP answer (502, docs/audit.md "A target that cannot be reached").
  [/^could not reach (\S+): (.+)$/s, (m, lang) => ['error.targetUnreachable', { host: m[1], reason: checkErrorText(m[2], null, lang).text }]],
  // The vault (engines/vault, fcgi/vault_guard).
  [/^(a file|a folder|a folder or other entry|an entry) with that name exists|^the folder exists$/i, () => ['error.vaultExists']],
  [/^You do not have the (read|write|delete) right here$/i, (m) => [`error.vaultNo.${m[1].toLowerCase()}`]],
  [/^Something inside is protected/i, () => ['error.vaultProtectedInside']],
  [/^Something inside would land in a protected folder/i, () => ['error.vaultProtectedDestination']],
  [/home folder cannot be deleted or moved|folder of the users' homes cannot be/i, () => ['error.vaultHome']],
  [/^the root cannot be (deleted|moved)$/i, () => ['error.vaultRoot']],
  [/^a folder cannot be moved into itself$/i, () => ['error.vaultIntoItself']],
  [/^the file is larger than the limit$/i, () => ['error.vaultTooLarge']],
  [/^the disk is full$/i, () => ['error.vaultDiskFull']],
  [/^(CSRF token missing or invalid|Cross-origin request refused|Cross-site request refused)$/i, () => ['error.vaultStale']],
  [/^document editing is not configured$/i, () => ['error.vaultNoDocedit']],
  [/^not an office document$/i, () => ['error.vaultNotOffice']],
  [/Channel limit reached: at most (\d+)/i, (m) => ['error.channelLimit', { n: m[1] }]],
];

/** Translated text of a known `detail`, or null. */
export function detailText(detail, lang) {
  if (typeof detail !== 'string') return null;
  const t = translator(lang);
  for (const [pattern, make] of DETAILS) {
    const m = pattern.exec(detail);
    if (m) { const [key, params] = make(m, lang); return t(key, params); }
  }
  return null;
}

// Messages of 422 items whose type alone says too little (value_error carries the reason).
const VALIDATION = [
  [/password must have at least (\d+) characters/i, (m) => ['v.passwordShort', { n: m[1] }]],
  [/password is too common/i, () => ['v.passwordCommon']],
  [/password is too easy to guess/i, () => ['v.passwordWeak']],
  [/password must not be the username/i, () => ['v.passwordIsName']],
  [/password must not contain the username/i, () => ['v.passwordHasName']],
  [/not a valid email/i, () => ['v.email']],
  // Vault paths (engines/vault/path.cpp).
  [/'\.' and '\.\.' are not allowed/i, () => ['v.vaultDots']],
  [/empty path component/i, () => ['v.vaultEmptyName']],
  [/backslashes are not allowed/i, () => ['v.vaultBackslash']],
  [/control characters are not allowed|NUL is not allowed/i, () => ['v.vaultControl']],
  [/names starting with '\.vault-' are reserved/i, () => ['v.vaultReserved']],
  [/(path|name) is (too long|longer than)|name is longer than/i, () => ['v.vaultTooLong']],
  [/the path is too deep/i, () => ['v.vaultTooDeep']],
  [/'(.+)' was refused: the malware check found (.+)$/s, (m) => ['v.vaultInfected', { name: m[1], signature: m[2] }]],
  [/bidirectional control characters/i, () => ['v.vaultBidi']],
  [/'\/' is not allowed in a name/i, () => ['v.vaultSlash']],
];

/**
 * Message of one pydantic-style validation item. English uses the server's own text; other
 * languages a known message, else a translation by `type` filled from `ctx`, else a general
 * sentence — never the server's English.
 */
export function validationText(item, lang) {
  // pydantic's "Value error, " prefix says nothing to a person (issue 28 §4).
  if (lang === 'en' && item.msg) return plainMessage(String(item.msg));
  const t = translator(lang);
  const msg = item.msg ? String(item.msg) : '';
  for (const [pattern, make] of VALIDATION) {
    const m = pattern.exec(msg);
    if (m) { const [key, params] = make(m); return t(key, params); }
  }
  const key = `v.${item.type}`;
  const template = STRINGS[lang] && STRINGS[lang][key];
  const params = item.ctx && typeof item.ctx === 'object' ? item.ctx : {};
  const needed = template ? [...template.matchAll(/\{(\w+)\}/g)].map((x) => x[1]) : [];
  if (template && needed.every((name) => params[name] !== undefined)) return t(key, params);
  return lang === 'en' && msg ? plainMessage(msg) : t('v.invalid');
}

/** A server message without pydantic's "Value error, " prefix, starting with a capital letter. */
function plainMessage(msg) {
  const rest = msg.replace(/^Value error,\s*/i, '');
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : msg;
}

/* ---- notification channels (www/js/notifications.js) --------------------------------------- */

// Why a notification was not sent: engines/notify/send's own texts, Telegram's answers and
// libcurl's curl_easy_strerror texts, told in plain words.
const NOTIFY_ERRORS = [
  [/^no answer within (\d+) s/i, (m) => ['ntf.err.timeout', { n: m[1] }]],
  [/^Telegram answered HTTP 401/i, () => ['ntf.err.tgToken']],
  [/^Telegram answered HTTP 404/i, () => ['ntf.err.tgToken']],
  [/^Telegram answered HTTP 400: .*chat not found/i, () => ['ntf.err.tgChat']],
  [/^Telegram answered HTTP 403/i, () => ['ntf.err.tgForbidden']],
  [/^Telegram answered HTTP 429/i, () => ['ntf.err.tgLimit']],
  [/^Telegram answered HTTP (\d+)/i, (m) => ['ntf.err.tgStatus', { code: m[1] }]],
  [/^the channel is not configured/i, () => ['ntf.err.notConfigured']],
  [/^the channel has no recipients/i, () => ['ntf.err.noRecipients']],
  [/^the channel has no sender/i, () => ['ntf.err.noSender']],
  [/save the channel again/i, () => ['ntf.err.saveAgain']],
  [/^cannot connect: the host has no address/i, () => ['ntf.err.unreachable']],
  [/^Couldn't resolve (host|proxy)/i, () => ['ntf.err.unreachable']],
  [/^Couldn't connect to (server|host)/i, () => ['ntf.err.refused']],
  [/^Login denied/i, () => ['ntf.err.login']],
  [/^Requested SSL level failed/i, () => ['ntf.err.starttls']],
  [/\(SMTP (5\d\d)\)$/, (m) => ['ntf.err.smtpRefused', { code: m[1] }]],
  [/^(SSL peer certificate|SSL certificate problem|Peer certificate)/i, () => ['ntf.err.cert']],
  [/^SSL connect error|^SSL|TLS/i, () => ['ntf.err.tls']],
  [/^(Failure when receiving|Failed sending|Send failure|Recv failure|Server returned nothing)/i, () => ['ntf.err.connectionLost']],
  [/^(Weird server reply|Unsupported protocol|Received HTTP\/0\.9)/i, () => ['ntf.err.badReply']],
  [/^Timeout was reached$/i, () => ['ntf.err.timeout', { n: 10 }]],
];

/**
 * Why a test message or an alert was not delivered, in the page's language; the server's text
 * goes to `original` (a tooltip) when it was translated.
 * @returns {{text: string, original: string|null}}
 */
export function notifyErrorText(error, lang) {
  const raw = String(error ?? '');
  const t = translator(lang);
  for (const [pattern, make] of NOTIFY_ERRORS) {
    const m = pattern.exec(raw);
    if (m) { const [key, params] = make(m); return { text: t(key, params), original: raw }; }
  }
  return lang === 'en' && raw ? { text: raw, original: null } : { text: t('ntf.err.failed'), original: raw || null };
}

/**
 * The message of one 422 item about a channel's field (`field`: its loc after "body", joined by
 * dots: "params.token", "params.to_addrs.2"), in the page's language: the channel's own rules
 * (docs/notifications.md "What a channel may hold") first, then validationText.
 */
export function channelFieldText(field, item, lang) {
  const t = translator(lang);
  const msg = String(item.msg || '');
  const type = item.type || '';
  if (/control characters/i.test(msg)) return t('ntf.v.control');
  if (/kept only for the same host/i.test(msg)) return t('ntf.v.secretHost');
  if (/credentials are masked/i.test(msg)) return t('ntf.v.proxyMasked');
  if (type === 'missing') return t('v.missing');
  if (field === 'params.token' && type === 'string_pattern_mismatch') return t('ntf.v.token');
  if (field === 'params.host' && type === 'value_error') return t('ntf.v.host');
  if (field === 'params.proxy' && type !== 'string_too_long') return t('ntf.v.proxy');
  if (field === 'params.port' && /^(int_|less_than|greater_than)/.test(type)) return t('ntf.v.port');
  if (field === 'params.from_addr' && type === 'value_error') return t('v.email');
  if (field === 'params.to_addrs' && type === 'too_long') return t('ntf.v.recipientsMax', { n: item.ctx?.max_length ?? 10 });
  if (field.startsWith('params.to_addrs.') && type === 'value_error') return t('ntf.v.recipient', { value: String(item.input ?? '') });
  return validationText(item, lang);
}
