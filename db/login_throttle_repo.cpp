#include "db/login_throttle_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::login_throttle {

std::int64_t seconds_blocked(Connection& c, const std::string& username) {
  auto& st = c.prepare(
      "SELECT CEIL(TIMESTAMPDIFF(MICROSECOND, NOW(3), blocked_until) / 1000000) AS wait"
      " FROM login_throttle WHERE username = ? AND blocked_until > NOW(3)");
  st.setString(1, username);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return 0;
  return std::max<std::int64_t>(1, get_int(*rs, 1));
}

std::int64_t add_failure(Connection& c, const std::string& username, int window_s) {
  auto& up = c.prepare(
      "INSERT INTO login_throttle (username, failures) VALUES (?, 1) ON DUPLICATE KEY UPDATE"
      " failures = IF(updated_at < NOW(3) - INTERVAL ? SECOND AND (blocked_until IS NULL OR blocked_until < NOW(3)),"
      " 1, failures + 1), updated_at = NOW(3)");
  up.setString(1, username);
  up.setInt(2, window_s);
  up.executeUpdate();
  auto& get = c.prepare("SELECT failures FROM login_throttle WHERE username = ?");
  get.setString(1, username);
  std::unique_ptr<sql::ResultSet> rs(get.executeQuery());
  return rs->next() ? get_int(*rs, 1) : 1;
}

void block_for(Connection& c, const std::string& username, std::int64_t seconds) {
  auto& st = c.prepare("UPDATE login_throttle SET blocked_until = NOW(3) + INTERVAL ? SECOND WHERE username = ?");
  st.setInt64(1, seconds);
  st.setString(2, username);
  st.executeUpdate();
}

void clear(Connection& c, const std::string& username) {
  auto& st = c.prepare("DELETE FROM login_throttle WHERE username = ?");
  st.setString(1, username);
  st.executeUpdate();
}

}  // namespace dozor::db::login_throttle
