#include "fcgi/dispatch.hpp"

#include "engines/errors.hpp"
#include "fcgi/error_mapping.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/vault_guard.hpp"
#include "fcgi/vault_page.hpp"

namespace dozor::http {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

Response dispatch_body(const Router& router, App& app, const Request& req);

}  // namespace

Response dispatch(const Router& router, App& app, const Request& req) {
  Response r = dispatch_body(router, app, req);
  // A browser's page request under /vault never shows raw JSON: a failure becomes the vault's
  // HTML error page (a 401 the login page); scripts' calls keep the JSON shape.
  if (r.status >= 400 && is_vault_path(req.raw_path) && is_page_request(req)) r = vault_error_page(req, std::move(r));
  r.head_only = req.method == "HEAD";
  return r;
}

namespace {

Response dispatch_body(const Router& router, App& app, const Request& req) {
  try {
    auto m = router.match(req.method, req.raw_path);
    if (!m.route) {
      if (m.allowed.empty()) throw HttpError(404, "Not Found");
      HttpError e(405, "Method Not Allowed");
      e.headers.emplace_back("Allow", join(m.allowed));
      throw e;
    }
    if (const auto* open = std::get_if<PublicHandler>(&m.route->handler)) {
      handlers::Context ctx{req, std::move(m.params), app};
      return (*open)(ctx);
    }
    if (m.route->access == Access::Vault || m.route->access == Access::VaultWrite)
      return dispatch_vault(*m.route, std::move(m.params), app, req);
    auto token = bearer_token(req);
    if (token.empty()) throw Unauthenticated("no token");
    auto user = app.auth.authenticate(token);
    if (m.route->access == Access::Admin && !user.is_admin) throw Forbidden("Admin privileges required");
    handlers::UserContext ctx{{req, std::move(m.params), app}, user};
    return std::get<UserHandler>(m.route->handler)(ctx);
  } catch (...) {
    return response_for_current_exception();
  }
}

}  // namespace

}  // namespace dozor::http
