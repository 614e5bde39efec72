#include "fcgi/vault_guard.hpp"

#include <string_view>

#include "engines/errors.hpp"
#include "fcgi/http_error.hpp"

namespace dozor::http {
namespace {

// "https://host:port" of an absolute URL (scheme and authority), or "" when it has none.
std::string origin_of_url(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {};
  auto path = url.find_first_of("/?#", scheme_end + 3);
  return std::string(url.substr(0, path));
}

bool listed(std::string_view origin, const Request& req, const std::string& configured) {
  if (origin.empty()) return false;
  if (configured.empty()) {
    auto host = req.header("host");
    return host && !host->empty() && origin == "https://" + *host;
  }
  std::string_view list = configured;
  while (!list.empty()) {
    auto sp = list.find(' ');
    auto item = list.substr(0, sp);
    if (!item.empty() && item == origin) return true;
    list = sp == std::string_view::npos ? std::string_view{} : list.substr(sp + 1);
  }
  return false;
}

bool wants_html(const Request& req) {
  auto accept = req.header("accept");
  return req.method == "GET" && accept && accept->find("text/html") != std::string::npos &&
         accept->find("application/json") == std::string::npos;
}

Response not_authenticated(const Request& req) {
  if (wants_html(req)) {
    Response r;
    r.status = 303;
    r.content_type = "text/plain";
    r.headers.emplace_back("Location", "/vault/login");
    return r;
  }
  // No WWW-Authenticate: Bearer — the vault takes no bearer token.
  return Response::error(401, "Not authenticated");
}

}  // namespace

bool same_origin(const Request& req, const std::string& configured) {
  if (auto origin = req.header("origin")) return listed(*origin, req, configured);
  if (auto referer = req.header("referer")) return listed(origin_of_url(*referer), req, configured);
  return false;
}

void require_same_origin(const Request& req, const std::string& configured) {
  if (auto site = req.header("sec-fetch-site"); site && *site == "cross-site")
    throw Forbidden("Cross-site request refused");
  if (!same_origin(req, configured)) throw Forbidden("Cross-origin request refused");
}

Response dispatch_vault(const Route& route, std::map<std::string, std::string> params, App& app, const Request& req) {
  auto cookie = req.cookies.find(vault::Sessions::kCookie);
  if (cookie == req.cookies.end()) return not_authenticated(req);
  auto session = app.vault_sessions.authenticate(cookie->second);
  if (!session) return not_authenticated(req);
  if (route.access == Access::VaultWrite) {
    require_same_origin(req, app.cfg.vault.origins);
    auto token = req.header(vault::Sessions::kCsrfHeader);
    if (!token || !vault::Sessions::csrf_matches(cookie->second, *token))
      throw Forbidden("CSRF token missing or invalid");
  }
  handlers::VaultContext ctx{{{req, std::move(params), app}, session->user}, *session};
  return std::get<VaultHandler>(route.handler)(ctx);
}

}  // namespace dozor::http
