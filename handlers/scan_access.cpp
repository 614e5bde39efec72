// Who may scan what (docs/scan.md "Who may scan what"): admins grant or revoke a user's scans of
// any target; the scan log, one's own or (admins) everyone's.
#include <boost/json/array.hpp>

#include "db/scan_access_repo.hpp"
#include "engines/errors.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

constexpr int kLogDefault = 50;
constexpr int kLogMax = 500;

Response grant_state(std::int64_t user_id, bool granted) {
  return Response::json({{"user_id", user_id}, {"scan_any_target", granted}});
}

Response log_page(UserContext& ctx, std::optional<std::int64_t> user_id) {
  auto limit = static_cast<int>(query_int(ctx.request, "limit", kLogDefault, 1, kLogMax));
  std::optional<std::int64_t> before;
  if (ctx.request.query_param("before")) before = query_int(ctx.request, "before", 0, 1, INT64_MAX);
  std::vector<db::scan_access::LogEntry> rows;
  ctx.app.db.run([&](db::Connection& c) { rows = db::scan_access::list(c, user_id, before, limit); },
                 db::Retry::OnLostConnection);
  boost::json::array items;
  for (const auto& e : rows)
    items.push_back({{"id", e.id},
                     {"user_id", e.user_id},
                     {"kind", e.kind},
                     {"target", e.target},
                     {"via", e.via},
                     {"allowed", e.allowed},
                     {"reason", e.reason},
                     {"created_at", e.created_at}});
  boost::json::value next = nullptr;
  if (static_cast<int>(rows.size()) == limit && !rows.empty()) next = rows.back().id;
  return Response::json({{"items", std::move(items)}, {"next_before", std::move(next)}});
}

}  // namespace

// PUT /api/admin/users/{user_id}/scan-grant
Response admin_scan_grant(UserContext& ctx) {
  auto id = path_int(ctx.path.at("user_id"), "user_id", 1);
  bool done = false;
  ctx.app.db.run([&](db::Connection& c) { done = db::scan_access::grant(c, id, ctx.caller.id); },
                 db::Retry::OnLostConnection);  // idempotent: the grant is the same row
  if (!done) throw NotFound("User not found");
  return grant_state(id, true);
}

// DELETE /api/admin/users/{user_id}/scan-grant
Response admin_scan_revoke(UserContext& ctx) {
  auto id = path_int(ctx.path.at("user_id"), "user_id", 1);
  ctx.app.db.run([&](db::Connection& c) { db::scan_access::revoke(c, id); }, db::Retry::OnLostConnection);
  return grant_state(id, false);
}

// GET /api/admin/scan-log?user_id=&before=&limit=
Response admin_scan_log(UserContext& ctx) {
  std::optional<std::int64_t> user;
  if (ctx.request.query_param("user_id")) user = query_int(ctx.request, "user_id", 0, 1, INT64_MAX);
  return log_page(ctx, user);
}

// GET /api/security/scan-log?before=&limit=: the caller's own entries.
Response scan_log(UserContext& ctx) { return log_page(ctx, ctx.caller.id); }

}  // namespace dozor::handlers
