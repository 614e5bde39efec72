#include "db/scan_verify_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::scan_verify {
namespace {

std::string columns() {
  return "id, user_id, host, origin, token, method, scope, " + iso_ms_column("created_at") + ", " +
         iso_ms_column("checked_at") + ", " + iso_ms_column("verified_at") + ", " + iso_ms_column("expires_at") +
         ", last_error, (verified_at IS NOT NULL AND expires_at > NOW(3))";
}

Verification row(sql::ResultSet& rs) {
  Verification v;
  v.id = get_int(rs, 1);
  v.user_id = get_int(rs, 2);
  v.host = get_string(rs, 3);
  v.origin = get_string(rs, 4);
  v.token = get_string(rs, 5);
  v.method = opt_string(rs, 6);
  v.scope = opt_string(rs, 7);
  v.created_at = get_string(rs, 8);
  v.checked_at = opt_string(rs, 9);
  v.verified_at = opt_string(rs, 10);
  v.expires_at = opt_string(rs, 11);
  v.last_error = opt_string(rs, 12);
  v.valid = !rs.isNull(13) && get_bool(rs, 13);
  return v;
}

std::optional<Verification> one(sql::PreparedStatement& st) {
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return row(*rs);
}

}  // namespace

std::optional<Verification> find(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare("SELECT " + columns() + " FROM scan_verifications WHERE user_id = ? AND id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  return one(st);
}

std::optional<Verification> find_by_origin(Connection& c, std::int64_t user_id, const std::string& origin) {
  auto& st = c.prepare("SELECT " + columns() + " FROM scan_verifications WHERE user_id = ? AND origin = ?");
  st.setInt64(1, user_id);
  st.setString(2, origin);
  return one(st);
}

std::vector<Verification> list(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT " + columns() + " FROM scan_verifications WHERE user_id = ? ORDER BY id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Verification> out;
  while (rs->next()) out.push_back(row(*rs));
  return out;
}

std::int64_t count(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT COUNT(*) FROM scan_verifications WHERE user_id = ?");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? get_int(*rs, 1) : 0;
}

std::int64_t insert(Connection& c, std::int64_t user_id, const std::string& host, const std::string& origin,
                    const std::string& token) {
  auto& st = c.prepare(
      "INSERT INTO scan_verifications (user_id, host, origin, token, created_at) VALUES (?, ?, ?, ?, NOW(3))");
  st.setInt64(1, user_id);
  st.setString(2, host);
  st.setString(3, origin);
  st.setString(4, token);
  st.executeUpdate();
  return c.last_insert_id();
}

void record_proof(Connection& c, std::int64_t id, const std::string& method, const std::string& scope, int valid_days) {
  auto& st = c.prepare(
      "UPDATE scan_verifications SET method = ?, scope = ?, checked_at = NOW(3), verified_at = NOW(3),"
      " expires_at = NOW(3) + INTERVAL ? DAY, last_error = NULL WHERE id = ?");
  st.setString(1, method);
  st.setString(2, scope);
  st.setInt(3, valid_days);
  st.setInt64(4, id);
  st.executeUpdate();
}

void record_failure(Connection& c, std::int64_t id, const std::string& error) {
  auto& st = c.prepare("UPDATE scan_verifications SET checked_at = NOW(3), last_error = ? WHERE id = ?");
  st.setString(1, error);  // the engine bounds it to the column
  st.setInt64(2, id);
  st.executeUpdate();
}

bool remove(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM scan_verifications WHERE user_id = ? AND id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  return st.executeUpdate() > 0;
}

bool is_verified(Connection& c, std::int64_t user_id, const std::string& host, const std::string& origin) {
  auto& st = c.prepare(
      "SELECT 1 FROM scan_verifications WHERE user_id = ? AND host = ? AND verified_at IS NOT NULL"
      " AND expires_at > NOW(3) AND (scope = 'host' OR origin = ?) LIMIT 1");
  st.setInt64(1, user_id);
  st.setString(2, host);
  st.setString(3, origin);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next();
}

std::vector<std::string> grace_urls(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(
      "SELECT s.url FROM scan_ownership_grace g JOIN services s ON s.id = g.service_id"
      " WHERE s.user_id = ? AND s.url = g.url COLLATE utf8mb4_bin AND g.until > NOW(3)");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<std::string> out;
  while (rs->next()) out.push_back(get_string(*rs, 1));
  return out;
}

}  // namespace dozor::db::scan_verify
