// The vault's routes (docs/vault.md): decode + validate → one Vault call → encode.
#include <boost/json/serialize.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include "engines/analyzer/remote.hpp"
#include "engines/auth/device_cookie.hpp"
#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"
#include "engines/vault/multipart.hpp"
#include "engines/vault/serve.hpp"
#include "fcgi/vault_guard.hpp"
#include "fcgi/vault_page.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

http::FieldIssue path_issue(boost::json::array loc, const std::string& msg, const std::string& input) {
  return {"value_error", std::move(loc), "Value error, " + msg, boost::json::value(input), {}};
}

// A vault path from the query string ("/" when absent and optional).
vault::VaultPath query_path(const Context& ctx, const char* name, bool required = true) {
  auto raw = ctx.request.query_param(name);
  if (!raw) {
    if (!required) return {};
    throw http::ValidationFailed({{"missing", {"query", name}, "Field required", {}, {}}});
  }
  try {
    return vault::VaultPath::parse(*raw);
  } catch (const vault::InvalidPath& e) {
    throw http::ValidationFailed({path_issue({"query", name}, e.what(), text::to_valid_utf8(*raw))});
  }
}

// A vault path from a JSON body field; issues go to `f`.
std::optional<vault::VaultPath> body_path(Fields& f, const char* name) {
  auto raw = f.string(name, true, {1, vault::kMaxPathBytes * 4});
  if (!raw) return std::nullopt;
  try {
    return vault::VaultPath::parse(*raw);
  } catch (const vault::InvalidPath& e) {
    f.add(path_issue({"body", name}, e.what(), *raw));
    return std::nullopt;
  }
}

vault::Actor actor(const UserContext& ctx) { return {ctx.caller, ctx.request.remote_addr}; }

boost::json::object encode_entry(const vault::Entry& e) {
  return {{"name", e.name}, {"type", e.is_dir ? "folder" : "file"}, {"size", e.size}, {"modified", e.mtime}};
}

boost::json::object encode_rights(const vault::Rights& r) {
  return {{"read", r.read}, {"write", r.write}, {"delete", r.del}};
}

bool wants_json(const Context& ctx) {
  auto accept = ctx.request.header("accept");
  return !accept || accept->find("text/html") == std::string::npos ||
         accept->find("application/json") != std::string::npos;
}

boost::json::object encode_page_user(const UserContext& ctx) {
  return {{"username", ctx.caller.username}, {"is_admin", ctx.caller.is_admin}};
}

Response file_answer(const vault::FileRef& f, const std::string& content_type, bool as_inline) {
  Response r;
  r.content_type = content_type;
  r.cache_control = "private, no-cache";
  r.headers.emplace_back("X-Accel-Redirect", vault::accel_uri(f.path));
  r.headers.emplace_back("Content-Disposition", vault::content_disposition(as_inline, f.path.name()));
  return r;
}

}  // namespace

Response vault_login(Context& ctx) {
  // Login CSRF: a foreign page must not log the browser into an account of its choosing.
  http::require_same_origin(ctx.request, ctx.app.cfg.vault.origins);
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto username = f.string("username", true);
  auto password = f.string("password", true);
  f.finish();
  auth::LoginAttempt attempt{*username, *password, ctx.request.remote_addr, {}};
  if (auto c = ctx.request.cookies.find(auth::DeviceCookies::kName); c != ctx.request.cookies.end())
    attempt.device_cookie = c->second;
  auto result = ctx.app.auth.login(attempt);  // the same accounts, hashing and throttle as /api
  auto created = ctx.app.vault_sessions.create(result.user, ctx.request.remote_addr);
  return Response::json({{"user", encode(result.user)}, {"csrf", created.csrf}})
      .with_header("Set-Cookie", ctx.app.vault_sessions.set_cookie(created.cookie_value))
      .with_header("Set-Cookie", std::string(auth::DeviceCookies::kName) + "=" + result.device_cookie +
                                     "; Max-Age=" + std::to_string(result.device_cookie_max_age) +
                                     "; Path=/; Secure; HttpOnly; SameSite=Strict");
}

Response vault_logout(VaultContext& ctx) {
  ctx.app.vault_sessions.revoke(ctx.session.cookie_value);
  return Response::json({{"ok", true}}).with_header("Set-Cookie", ctx.app.vault_sessions.set_cookie(""));
}

Response vault_browse(VaultContext& ctx) {
  auto path = query_path(ctx, "path", false);
  auto listing = ctx.app.vault.browse(actor(ctx), path);
  boost::json::array entries;
  entries.reserve(listing.entries.size());
  for (const auto& e : listing.entries) entries.push_back(encode_entry(e));
  boost::json::object data{
      {"path", listing.path.display()}, {"rights", encode_rights(listing.rights)}, {"entries", std::move(entries)}};
  if (wants_json(ctx)) return Response::json(data);
  data["csrf"] = ctx.session.csrf;
  data["user"] = encode_page_user(ctx);
  // Office formats get the document server's editor only when one is configured.
  data["docedit"] = !ctx.app.cfg.vault.docserver_url.empty();
  return http::vault_page("vault.js", "vault.title", data);
}

// GET /vault: the vault's start page — the caller's home folder (made at the account's first
// vault request), or the top when there is none to open.
Response vault_start(VaultContext& ctx) {
  auto folder = ctx.app.vault.start_folder(ctx.caller);
  Response r;
  r.status = 303;
  r.content_type = "text/plain";
  r.headers.emplace_back("Location",
                         "/vault/browse?path=" + boost::urls::encode(folder.display(), boost::urls::unreserved_chars));
  return r;
}

Response vault_download(VaultContext& ctx) {
  auto f = ctx.app.vault.open_for_download(actor(ctx), query_path(ctx, "path"));
  return file_answer(f, "application/octet-stream", false);
}

Response vault_view(VaultContext& ctx) {
  auto f = ctx.app.vault.open_for_view(actor(ctx), query_path(ctx, "path"));
  auto decision = vault::view_policy(f.mime);
  return file_answer(f, decision.content_type, decision.as_inline);
}

// GET /vault/analyze?path=: the file read by dozor-analyzer as the caller (docs/vault.md "Check
// for personal data"); the analyzer's answer with every value masked, or its 413/415/422.
Response vault_analyze(VaultContext& ctx) {
  const auto& cfg = ctx.app.cfg.analyzer;
  auto path = query_path(ctx, "path");
  std::string base = analyzer::remote::base_url(cfg.listen);
  if (base.empty()) throw Unavailable("No analyzer is configured (analyzer.listen)");
  // Held until the analyzer answers: the file is read whole into this process's memory.
  auto slot = ctx.app.vault_check_slots.acquire(ctx.caller.id);
  auto bytes = ctx.app.vault.read_whole(actor(ctx), path, cfg.max_document);
  if (!bytes)
    throw http::HttpError(413, "The file is larger than the analyzer reads (" + std::to_string(cfg.max_document) +
                                   " bytes, analyzer.max_document)");
  const std::chrono::seconds budget(limits::analyzer::kVaultCheckSeconds);
  auto a = analyzer::remote::analyze(base, *bytes, "",
                                     analyzer::remote::token_for(ctx.app.jwt_key, ctx.caller.id, budget), budget);
  if (!a.answered) throw Unavailable("The analyzer cannot be reached: " + a.error);
  bool passed_on = a.status == 200 || a.status == 413 || a.status == 415 || a.status == 422;
  if (!passed_on || !a.body.is_object())
    throw Unavailable("The analyzer could not check the file (HTTP " + std::to_string(a.status) + ")");
  auto body = std::move(a.body.as_object());
  if (a.status == 200) body["path"] = path.display();
  return Response::json(body, a.status);
}

Response vault_upload(VaultContext& ctx) {
  auto folder = query_path(ctx, "path");
  bool overwrite = false;
  if (auto o = ctx.request.query_param("overwrite")) {
    auto b = parse_bool_text(*o);
    if (!b)
      throw http::ValidationFailed({{"bool_parsing",
                                     {"query", "overwrite"},
                                     "Input should be a valid boolean, unable to interpret input",
                                     boost::json::value(*o),
                                     {}}});
    overwrite = *b;
  }
  auto boundary = vault::multipart_boundary(ctx.request.header("content-type").value_or(""));
  if (!boundary) throw http::HttpError(415, "Expected multipart/form-data with a boundary");
  if (!ctx.request.body_stream) throw http::HttpError(400, "Upload body not streamed");
  auto* stream = ctx.request.body_stream;
  auto saved = ctx.app.vault.upload(actor(ctx), folder, overwrite, *boundary,
                                    [stream](char* buf, std::size_t n) { return stream->read(buf, n); });
  boost::json::array files;
  for (const auto& s : saved) {
    boost::json::object f{{"path", s.path.display()}, {"size", s.size}, {"replaced", s.replaced}};
    if (!s.malware_check.empty()) f["malware_check"] = s.malware_check;
    files.push_back(std::move(f));
  }
  return Response::json({{"files", std::move(files)}});
}

Response vault_create_folder(VaultContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto path = body_path(f, "path");
  f.finish();
  auto made = ctx.app.vault.create_folder(actor(ctx), *path);
  return Response::json({{"path", made.display()}});
}

Response vault_save_file(VaultContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto path = body_path(f, "path");
  auto content = f.string("content", true);
  f.finish();
  auto saved = ctx.app.vault.save_file(actor(ctx), *path, *content);
  return Response::json({{"path", saved.path.display()}, {"size", saved.size}, {"replaced", saved.replaced}});
}

Response vault_rename(VaultContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto from = body_path(f, "from");
  auto to = body_path(f, "to");
  f.finish();
  vault::VaultPath moved_to;
  ctx.app.vault.rename(actor(ctx), *from, *to, &moved_to);
  return Response::json({{"from", from->display()}, {"to", moved_to.display()}});
}

Response vault_delete(VaultContext& ctx) {
  auto path = query_path(ctx, "path");
  auto id = ctx.app.vault.remove(actor(ctx), path);
  return Response::json({{"path", path.display()}, {"trash_id", id}});
}

Response vault_trash(VaultContext& ctx) {
  boost::json::array items;
  for (const auto& t : ctx.app.vault.trash(actor(ctx)))
    items.push_back({{"id", t.id},
                     {"path", t.original_path},
                     {"type", t.is_dir ? "folder" : "file"},
                     {"size", t.size},
                     {"deleted", t.trashed_at}});
  return Response::json({{"items", std::move(items)}, {"days", ctx.app.cfg.vault.trash_days}});
}

Response vault_restore(VaultContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto id = f.integer("id", true, 1);
  f.finish();
  auto to = ctx.app.vault.restore(actor(ctx), *id);
  return Response::json({{"path", to.display()}});
}

Response vault_me(VaultContext& ctx) {
  return Response::json({{"user", encode(ctx.caller)}, {"csrf", ctx.session.csrf}});
}

}  // namespace dozor::handlers
