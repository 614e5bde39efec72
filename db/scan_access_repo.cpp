#include "db/scan_access_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::scan_access {

bool has_grant(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT 1 FROM scan_grants WHERE user_id = ?");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next();
}

bool grant(Connection& c, std::int64_t user_id, std::int64_t admin_id) {
  auto& st = c.prepare(
      "INSERT INTO scan_grants (user_id, granted_by, granted_at) SELECT id, ?, NOW(3) FROM users WHERE id = ?"
      " ON DUPLICATE KEY UPDATE granted_by = VALUES(granted_by), granted_at = VALUES(granted_at)");
  st.setInt64(1, admin_id);
  st.setInt64(2, user_id);
  return st.executeUpdate() > 0;
}

bool revoke(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("DELETE FROM scan_grants WHERE user_id = ?");
  st.setInt64(1, user_id);
  return st.executeUpdate() > 0;
}

void log(Connection& c, const LogEntry& e) {
  auto& st = c.prepare(
      "INSERT INTO scan_log (user_id, kind, target, via, allowed, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, "
      "NOW(3))");
  st.setInt64(1, e.user_id);
  st.setString(2, e.kind);
  st.setString(3, e.target);
  st.setString(4, e.via);
  st.setBoolean(5, e.allowed);
  st.setString(6, e.reason);
  st.executeUpdate();
}

std::vector<LogEntry> list(Connection& c, std::optional<std::int64_t> user_id, std::optional<std::int64_t> before_id,
                           int limit) {
  auto& st = c.prepare("SELECT id, user_id, kind, target, via, allowed, reason, " + iso_ms_column("created_at") +
                       " FROM scan_log WHERE (? IS NULL OR user_id = ?) AND (? IS NULL OR id < ?)"
                       " ORDER BY id DESC LIMIT ?");
  bind_optional(st, 1, user_id);
  bind_optional(st, 2, user_id);
  bind_optional(st, 3, before_id);
  bind_optional(st, 4, before_id);
  st.setInt(5, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<LogEntry> out;
  while (rs->next())
    out.push_back({get_int(*rs, 1), get_int(*rs, 2), get_string(*rs, 3), get_string(*rs, 4), get_string(*rs, 5),
                   get_bool(*rs, 6), get_string(*rs, 7), get_string(*rs, 8)});
  return out;
}

std::int64_t purge(Connection& c, int days) {
  auto& st = c.prepare("DELETE FROM scan_log WHERE created_at < NOW(3) - INTERVAL ? DAY");
  st.setInt(1, days);
  return st.executeUpdate();
}

}  // namespace dozor::db::scan_access
