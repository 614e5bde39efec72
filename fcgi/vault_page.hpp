#pragma once
// The HTML pages dozor-fcgi renders under /vault (docs/vault.md "Pages"): the browse page, the
// two editors and the error page a browser's page request gets instead of a JSON error. One
// shell in the app's layout — skip link, top bar (#topbar), <main> — with the page's data as
// JSON in #vault-data and one module script that draws it from the strings table in the
// page's language (www/js/strings.js; the server holds no page text of its own).
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"

namespace dozor::http {

// JSON for a <script type="application/json"> element: '<', '>' and '&' escaped, so no
// "</script>" or comment opener in a file name can end the element.
std::string script_safe_json(const boost::json::value& v);

// A vault page: `script` is the module under /js/, `title_key` the strings key of its <title>,
// `body_class` added to "page-app page-vault".
Response vault_page(std::string_view script, std::string_view title_key, const boost::json::value& data,
                    std::string_view body_class = {});

// A path the vault's pages live under: /vault or /vault/… (raw, still percent-encoded).
bool is_vault_path(std::string_view raw_path);

// A browser's page navigation, not a script's call: GET or HEAD, and Sec-Fetch-Dest: document
// (or Sec-Fetch-Mode: navigate) — or, from a client without fetch metadata, an Accept naming
// text/html but not application/json. fetch()/XHR calls (Sec-Fetch-Mode: cors/same-origin,
// Accept: application/json) are not.
bool is_page_request(const Request& req);

// The answer to a page request under /vault that failed (`failed.status` ≥ 400): 401 becomes a
// 303 to the vault's login page; any other status an HTML page of that status (its headers,
// such as a 405's Allow or a 429's Retry-After, kept) that says in the page's language what
// happened and leads on: to the user's files, back, to the app.
Response vault_error_page(const Request& req, Response failed);

}  // namespace dozor::http
