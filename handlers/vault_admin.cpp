// Admin routes of the vault (bearer token, admins only): rules and the audit log.
#include <algorithm>

#include "engines/vault/vault.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

boost::json::object encode_rule(const db::vault::RuleRow& r) {
  return {{"id", r.id},     {"user_id", r.user_id}, {"username", r.username}, {"path", "/" + r.path},
          {"read", r.read}, {"write", r.write},     {"delete", r.del}};
}

std::optional<vault::VaultPath> rule_path(Fields& f, const std::optional<std::string>& raw) {
  if (!raw) return std::nullopt;
  try {
    return vault::VaultPath::parse(*raw);
  } catch (const vault::InvalidPath& e) {
    f.add({"value_error", {"body", "path"}, std::string("Value error, ") + e.what(), boost::json::value(*raw), {}});
    return std::nullopt;
  }
}

}  // namespace

Response admin_vault_rules(UserContext& ctx) {
  boost::json::array out;
  for (const auto& r : ctx.app.vault.rules()) out.push_back(encode_rule(r));
  return Response::json(out);
}

// Grants (or with every right false, denies) rights on a path prefix; replaces the user's rule there.
Response admin_vault_grant(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto user_id = f.integer("user_id", true, 1);
  auto path = rule_path(f, f.string("path", true, {1, vault::kMaxPathBytes * 4}));
  auto read = f.boolean("read", false);
  auto write = f.boolean("write", false);
  auto del = f.boolean("delete", false);
  f.finish();
  vault::Rights r{read.value_or(false), write.value_or(false), del.value_or(false)};
  auto id = ctx.app.vault.grant({ctx.caller, ctx.request.remote_addr}, *user_id, *path, r);
  return Response::json({{"id", id},
                         {"user_id", *user_id},
                         {"path", path->display()},
                         {"read", r.read},
                         {"write", r.write},
                         {"delete", r.del}});
}

Response admin_vault_revoke(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto user_id = f.integer("user_id", true, 1);
  auto path = rule_path(f, f.string("path", true, {1, vault::kMaxPathBytes * 4}));
  f.finish();
  ctx.app.vault.revoke({ctx.caller, ctx.request.remote_addr}, *user_id, *path);
  return Response::json({{"ok", true}});
}

Response admin_vault_audit(UserContext& ctx) {
  std::int64_t before = 0;
  int limit = 100;
  if (auto b = ctx.request.query_param("before")) before = parse_int_text(*b).value_or(0);
  if (auto l = ctx.request.query_param("limit"))
    limit = static_cast<int>(std::clamp<std::int64_t>(parse_int_text(*l).value_or(100), 1, 1000));
  boost::json::array out;
  for (const auto& a : ctx.app.vault.audit_log(before, limit)) {
    boost::json::object o{
        {"id", a.id},         {"at", a.at},     {"username", a.username}, {"remote_addr", a.remote_addr},
        {"action", a.action}, {"path", a.path}, {"target", a.target},     {"outcome", a.outcome}};
    o["user_id"] = a.user_id ? boost::json::value(*a.user_id) : boost::json::value(nullptr);
    out.push_back(std::move(o));
  }
  return Response::json(out);
}

}  // namespace dozor::handlers
