// The editors' routes (docs/vault.md "Document editing"): decode → one DocEdit call → encode.
#include "handlers/vault_docedit.hpp"

#include <boost/json/serialize.hpp>
#include <ctime>
#include <iostream>

#include "engines/errors.hpp"
#include "engines/text/utf8.hpp"
#include "engines/vault/docedit.hpp"
#include "engines/vault/serve.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/vault_page.hpp"

namespace dozor::handlers {
namespace {

std::int64_t now_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

vault::VaultPath required_path(const Context& ctx) {
  auto raw = ctx.request.query_param("path");
  if (!raw) throw http::ValidationFailed({{"missing", {"query", "path"}, "Field required", {}, {}}});
  try {
    return vault::VaultPath::parse(*raw);
  } catch (const vault::InvalidPath& e) {
    throw http::ValidationFailed({{"value_error",
                                   {"query", "path"},
                                   std::string("Value error, ") + e.what(),
                                   boost::json::value(text::to_valid_utf8(*raw)),
                                   {}}});
  }
}

// Where the document server reaches the vault: the first of vault.origins, else https://Host.
std::string vault_origin(const Context& ctx) {
  const auto& origins = ctx.app.cfg.vault.origins;
  auto end = origins.find(' ');
  if (!origins.empty()) return origins.substr(0, end);
  return "https://" + ctx.request.header("host").value_or("localhost");
}

boost::json::object page_user(const VaultContext& ctx) {
  return {{"username", ctx.caller.username}, {"is_admin", ctx.caller.is_admin}};
}

}  // namespace

// GET /vault/edit?path=: the text editor; the page reads the file through /vault/download and
// saves through POST /vault/save_file (the read right to open, the write right to save).
http::Response vault_edit(VaultContext& ctx) {
  auto path = required_path(ctx);
  auto f = ctx.app.vault.open_for_download({ctx.caller, ctx.request.remote_addr}, path);
  boost::json::object data{{"path", f.path.display()},
                           {"size", f.size},
                           {"can_write", ctx.app.vault.access_for(ctx.caller).rights_on(path).write},
                           {"csrf", ctx.session.csrf},
                           {"max_bytes", ctx.app.cfg.vault.max_upload},
                           {"user", page_user(ctx)}};
  return http::vault_page("vault-edit.js", "vaultEdit.title", data, "page-vault-editor");
}

// GET /vault/docedit_edit?path=: the document server's editor with its signed config.
http::Response vault_docedit_edit(VaultContext& ctx) {
  auto path = required_path(ctx);
  vault::DocEdit docedit(ctx.app.vault, ctx.app.cfg.vault);
  auto launch = docedit.open({ctx.caller, ctx.request.remote_addr}, path, vault_origin(ctx), now_seconds());
  boost::json::object data{{"path", path.display()},
                           {"api_js", launch.api_js},
                           {"config", launch.config},
                           {"docserver", ctx.app.cfg.vault.docserver_url},
                           {"user", page_user(ctx)}};
  auto page = http::vault_page("vault-docedit.js", "vaultDocedit.title", data, "page-vault-editor");
  page.headers.emplace_back("Content-Security-Policy", vault::editor_csp(ctx.app.cfg.vault.docserver_url));
  return page;
}

// GET /vault/docedit_download?path=&exp=&sig=: the document server fetches the file (nginx lets
// only vault.docserver_networks reach it; the signature is the right).
http::Response vault_docedit_download(Context& ctx) {
  vault::DocEdit docedit(ctx.app.vault, ctx.app.cfg.vault);
  auto f =
      docedit.signed_download(ctx.request.query_param("path").value_or(""), ctx.request.query_param("exp").value_or(""),
                              ctx.request.query_param("sig").value_or(""), now_seconds());
  http::Response r;
  r.content_type = "application/octet-stream";
  r.cache_control = "private, no-cache";
  r.headers.emplace_back("X-Accel-Redirect", vault::accel_uri(f.path));
  r.headers.emplace_back("Content-Disposition", vault::content_disposition(false, f.path.name()));
  return r;
}

// POST /vault/docedit_callback: the ONLYOFFICE protocol's answer, {"error":0} when accepted
// (written or not), 403 {"error":1} when refused or when the save failed (the reason goes to the
// log only: the document server reads nothing else).
http::Response vault_docedit_callback(Context& ctx) {
  vault::DocEdit docedit(ctx.app.vault, ctx.app.cfg.vault);
  auto auth = ctx.request.header("authorization");
  vault::CallbackResult result;
  try {
    result =
        docedit.callback(ctx.request.body, auth ? std::optional<std::string_view>(*auth) : std::nullopt, now_seconds());
  } catch (const std::exception& e) {
    result = {1, false, std::string("the callback failed: ") + e.what()};
  }
  if (result.error != 0) {
    std::cerr << "vault: document server callback refused from " << ctx.request.remote_addr << ": " << result.reason
              << "\n";
    return http::Response::json({{"error", result.error}}, 403);
  }
  return http::Response::json({{"error", 0}});
}

}  // namespace dozor::handlers
