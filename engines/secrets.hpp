#pragma once
// What counts as a secret in data Dozor echoes or shows: one rule for masking channel
// parameters, redacting validation echoes and scrubbing logs.
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace dozor::secrets {

// True for field names that hold credentials: password, passwd, pass, token, secret, key,
// api_key, apikey, authorization, auth, cookie, credential(s), private_key, session, … in any
// case and with -, _ or . separators ("bot_token", "X-Api-Key", "smtp.password").
bool is_secret_name(std::string_view name);

// A masked form that shows at most the last 2 characters: "****34"; short values become "****".
std::string mask(std::string_view value);

// True for a value that mask() produced (a write that sends it back keeps the stored secret).
bool is_masked(std::string_view value);

// A URL that carries credentials in its userinfo ("socks5://ann:pa55word@proxy.example:1080")
// with the password masked ("socks5://ann:****rd@proxy.example:1080") — or the whole userinfo
// when it has no password (a bare token) — and the rest of the URL kept; nullopt for a string
// that is not an absolute URL with userinfo.
std::optional<std::string> mask_url_userinfo(std::string_view url);
// True for a URL whose userinfo mask_url_userinfo() masked (a write that sends it back keeps
// the stored URL, when nothing else in it changed).
bool has_masked_userinfo(std::string_view url);

// `v` with every member named like a secret masked, at any depth (objects inside arrays too);
// a secret that is not a string (a number, an object) becomes "****" as a whole. Every other
// string that is a URL with userinfo has its credentials masked (mask_url_userinfo).
boost::json::value mask_json(const boost::json::value& v);

// Secrets in free text (an evidence excerpt, an answer's body as shown; issue 26 §2), masked with
// "****" where they are recognised: private key blocks (the body), credentials in URLs and DSNs
// (scheme://user:****@), AWS access key ids, GitHub/Slack/Google/Stripe token formats (their
// prefix kept), JWT signatures (header and claims kept: they are the evidence), PHP
// define('…PASSWORD…', '****'), and the value of every `name = value`, `name: value` or
// `"name": "value"` whose name is secret-like (password, pwd, pass, secret, token, key,
// api_key, auth, authorization, credential, dsn, salt, session id, cookie …, as a word of the
// name: DB_PASSWORD, APP_KEY, aws_secret_access_key; an "Authorization: Bearer" keeps its
// scheme). Unquoted values run to the end of the line or the next & ; , < > or quote. Idempotent.
// The one function every stored or returned excerpt goes through (engines/audit/finding.cpp,
// engines/audit/store.cpp).
std::string redact_text(std::string_view text);

}  // namespace dozor::secrets
