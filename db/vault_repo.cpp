#include "db/vault_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::vault {
namespace {

std::unique_ptr<sql::ResultSet> query(sql::PreparedStatement& st) {
  return std::unique_ptr<sql::ResultSet>(st.executeQuery());
}

RuleRow read_rule(sql::ResultSet& rs) {
  RuleRow r;
  r.id = get_int(rs, 1);
  r.user_id = get_int(rs, 2);
  r.username = get_string(rs, 3);
  r.path = get_string(rs, 4);
  r.read = get_bool(rs, 5);
  r.write = get_bool(rs, 6);
  r.del = get_bool(rs, 7);
  return r;
}

constexpr const char* kRuleSelect =
    "SELECT r.id, r.user_id, u.username, r.path, r.can_read, r.can_write, r.can_delete"
    " FROM vault_rules r JOIN users u ON u.id = r.user_id ";

TrashRow read_trash(sql::ResultSet& rs) {
  TrashRow t;
  t.id = get_int(rs, 1);
  t.user_id = get_int(rs, 2);
  t.original_path = get_string(rs, 3);
  t.is_dir = get_bool(rs, 4);
  t.size = get_int(rs, 5);
  t.trashed_at = get_int(rs, 6);
  return t;
}

constexpr const char* kTrashSelect =
    "SELECT id, user_id, original_path, is_dir, size, UNIX_TIMESTAMP(trashed_at) FROM vault_trash ";

}  // namespace

void insert_session(Connection& c, const std::string& id_hash_hex, std::int64_t user_id, std::int64_t token_version,
                    const std::string& remote_addr) {
  auto& st = c.prepare(
      "INSERT INTO vault_sessions (id_hash, user_id, token_version, created_at, last_seen_at, remote_addr)"
      " VALUES (UNHEX(?), ?, ?, NOW(3), NOW(3), ?)");
  st.setString(1, id_hash_hex);
  st.setInt64(2, user_id);
  st.setInt64(3, token_version);
  st.setString(4, remote_addr.substr(0, 64));
  st.executeUpdate();
}

std::optional<SessionRow> find_live_session(Connection& c, const std::string& id_hash_hex, int idle_seconds,
                                            int absolute_seconds) {
  auto& st = c.prepare(
      "SELECT s.user_id, TIMESTAMPDIFF(SECOND, s.last_seen_at, NOW(3)) FROM vault_sessions s"
      " JOIN users u ON u.id = s.user_id"
      " WHERE s.id_hash = UNHEX(?) AND s.token_version = u.token_version AND u.is_active"
      " AND s.last_seen_at > NOW(3) - INTERVAL ? SECOND AND s.created_at > NOW(3) - INTERVAL ? SECOND");
  st.setString(1, id_hash_hex);
  st.setInt(2, idle_seconds);
  st.setInt(3, absolute_seconds);
  auto rs = query(st);
  if (!rs->next()) return std::nullopt;
  return SessionRow{get_int(*rs, 1), get_int(*rs, 2)};
}

void touch_session(Connection& c, const std::string& id_hash_hex) {
  auto& st = c.prepare("UPDATE vault_sessions SET last_seen_at = NOW(3) WHERE id_hash = UNHEX(?)");
  st.setString(1, id_hash_hex);
  st.executeUpdate();
}

void delete_session(Connection& c, const std::string& id_hash_hex) {
  auto& st = c.prepare("DELETE FROM vault_sessions WHERE id_hash = UNHEX(?)");
  st.setString(1, id_hash_hex);
  st.executeUpdate();
}

void delete_user_sessions(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("DELETE FROM vault_sessions WHERE user_id = ?");
  st.setInt64(1, user_id);
  st.executeUpdate();
}

void delete_expired_sessions(Connection& c, int idle_seconds, int absolute_seconds) {
  auto& st = c.prepare(
      "DELETE FROM vault_sessions WHERE last_seen_at < NOW(3) - INTERVAL ? SECOND"
      " OR created_at < NOW(3) - INTERVAL ? SECOND LIMIT 1000");
  st.setInt(1, idle_seconds);
  st.setInt(2, absolute_seconds);
  st.executeUpdate();
}

std::vector<RuleRow> rules_of(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string(kRuleSelect) + "WHERE r.user_id = ? ORDER BY r.path");
  st.setInt64(1, user_id);
  auto rs = query(st);
  std::vector<RuleRow> out;
  while (rs->next()) out.push_back(read_rule(*rs));
  return out;
}

std::vector<RuleRow> all_rules(Connection& c) {
  auto& st = c.prepare(std::string(kRuleSelect) + "ORDER BY u.username, r.path");
  auto rs = query(st);
  std::vector<RuleRow> out;
  while (rs->next()) out.push_back(read_rule(*rs));
  return out;
}

std::int64_t upsert_rule(Connection& c, const RuleRow& r) {
  auto& st = c.prepare(
      "INSERT INTO vault_rules (user_id, path, path_hash, can_read, can_write, can_delete, created_at)"
      " VALUES (?, ?, UNHEX(SHA2(?, 256)), ?, ?, ?, NOW(3))"
      " ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), can_read = VALUES(can_read),"
      " can_write = VALUES(can_write), can_delete = VALUES(can_delete)");
  st.setInt64(1, r.user_id);
  st.setString(2, r.path);
  st.setString(3, r.path);
  st.setBoolean(4, r.read);
  st.setBoolean(5, r.write);
  st.setBoolean(6, r.del);
  st.executeUpdate();
  return c.last_insert_id();
}

bool delete_rule(Connection& c, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM vault_rules WHERE id = ?");
  st.setInt64(1, id);
  return st.executeUpdate() > 0;
}

bool delete_rule_at(Connection& c, std::int64_t user_id, const std::string& path) {
  auto& st = c.prepare("DELETE FROM vault_rules WHERE user_id = ? AND path_hash = UNHEX(SHA2(?, 256))");
  st.setInt64(1, user_id);
  st.setString(2, path);
  return st.executeUpdate() > 0;
}

std::int64_t insert_trash(Connection& c, std::int64_t user_id, const std::string& path, bool is_dir) {
  auto& st = c.prepare(
      "INSERT INTO vault_trash (user_id, original_path, is_dir, size, trashed_at) VALUES (?, ?, ?, 0, NOW(3))");
  st.setInt64(1, user_id);
  st.setString(2, path);
  st.setBoolean(3, is_dir);
  st.executeUpdate();
  return c.last_insert_id();
}

void set_trash_size(Connection& c, std::int64_t id, std::int64_t size) {
  auto& st = c.prepare("UPDATE vault_trash SET size = ? WHERE id = ?");
  st.setInt64(1, size);
  st.setInt64(2, id);
  st.executeUpdate();
}

std::vector<TrashRow> trash_of(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string(kTrashSelect) + "WHERE user_id = ? ORDER BY trashed_at DESC, id DESC");
  st.setInt64(1, user_id);
  auto rs = query(st);
  std::vector<TrashRow> out;
  while (rs->next()) out.push_back(read_trash(*rs));
  return out;
}

std::optional<TrashRow> find_trash(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare(std::string(kTrashSelect) + "WHERE user_id = ? AND id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  auto rs = query(st);
  if (!rs->next()) return std::nullopt;
  return read_trash(*rs);
}

bool delete_trash(Connection& c, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM vault_trash WHERE id = ?");
  st.setInt64(1, id);
  return st.executeUpdate() > 0;
}

std::vector<TrashRow> expired_trash(Connection& c, std::int64_t user_id, int days) {
  auto& st = c.prepare(std::string(kTrashSelect) +
                       "WHERE user_id = ? AND trashed_at < NOW(3) - INTERVAL ? DAY ORDER BY id LIMIT 100");
  st.setInt64(1, user_id);
  st.setInt(2, days);
  auto rs = query(st);
  std::vector<TrashRow> out;
  while (rs->next()) out.push_back(read_trash(*rs));
  return out;
}

std::vector<TrashRow> expired_trash_all(Connection& c, int days, int limit) {
  auto& st = c.prepare(std::string(kTrashSelect) + "WHERE trashed_at < NOW(3) - INTERVAL ? DAY ORDER BY id LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, limit);
  auto rs = query(st);
  std::vector<TrashRow> out;
  while (rs->next()) out.push_back(read_trash(*rs));
  return out;
}

std::int64_t usage_of(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT bytes FROM vault_usage WHERE user_id = ?");
  st.setInt64(1, user_id);
  auto rs = query(st);
  return rs->next() ? get_int(*rs, 1) : 0;
}

void add_usage(Connection& c, std::int64_t user_id, std::int64_t delta) {
  auto& st = c.prepare(
      "INSERT INTO vault_usage (user_id, bytes) VALUES (?, GREATEST(0, ?))"
      " ON DUPLICATE KEY UPDATE bytes = GREATEST(0, bytes + ?)");
  st.setInt64(1, user_id);
  st.setInt64(2, delta);
  st.setInt64(3, delta);
  st.executeUpdate();
}

std::optional<HomeRow> find_home(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT state FROM vault_homes WHERE user_id = ?");
  st.setInt64(1, user_id);
  auto rs = query(st);
  if (!rs->next()) return std::nullopt;
  return HomeRow{get_string(*rs, 1)};
}

void insert_home(Connection& c, std::int64_t user_id, const std::string& state) {
  auto& st = c.prepare("INSERT IGNORE INTO vault_homes (user_id, state) VALUES (?, ?)");
  st.setInt64(1, user_id);
  st.setString(2, state);
  st.executeUpdate();
}

bool claim_home(Connection& c, std::int64_t user_id, const std::string& state, int lease_seconds) {
  auto& st = c.prepare(
      "UPDATE vault_homes SET claimed_until = NOW(3) + INTERVAL ? SECOND"
      " WHERE user_id = ? AND state = ? AND (claimed_until IS NULL OR claimed_until < NOW(3))");
  st.setInt(1, lease_seconds);
  st.setInt64(2, user_id);
  st.setString(3, state);
  return st.executeUpdate() == 1;
}

void set_home_ready(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("UPDATE vault_homes SET state = 'ready', claimed_until = NULL WHERE user_id = ?");
  st.setInt64(1, user_id);
  st.executeUpdate();
}

std::vector<std::pair<std::int64_t, std::string>> homes_not_ready(Connection& c, int limit) {
  auto& st = c.prepare(
      "SELECT u.id, u.username FROM users u LEFT JOIN vault_homes h ON h.user_id = u.id"
      " WHERE h.user_id IS NULL OR h.state <> 'ready' ORDER BY u.id LIMIT ?");
  st.setInt(1, limit);
  auto rs = query(st);
  std::vector<std::pair<std::int64_t, std::string>> out;
  while (rs->next()) out.emplace_back(get_int(*rs, 1), get_string(*rs, 2));
  return out;
}

int delete_rules_under(Connection& c, const std::string& path, std::optional<std::int64_t> older_than_user) {
  // Whole components: "home/al" covers "home/al" and "home/al/x", never "home/alice".
  auto& st = c.prepare(
      "DELETE FROM vault_rules WHERE (path = ? OR LEFT(path, CHAR_LENGTH(?) + 1) = CONCAT(?, '/'))"
      " AND (? IS NULL OR created_at < (SELECT created_at FROM users WHERE id = ?))");
  st.setString(1, path);
  st.setString(2, path);
  st.setString(3, path);
  bind_optional(st, 4, older_than_user);
  bind_optional(st, 5, older_than_user);
  return static_cast<int>(st.executeUpdate());
}

void insert_audit(Connection& c, const AuditRow& a) {
  auto& st = c.prepare(
      "INSERT INTO vault_audit (at, user_id, username, remote_addr, action, path, target, outcome)"
      " VALUES (NOW(3), ?, ?, ?, ?, ?, ?, ?)");
  bind_optional(st, 1, a.user_id);
  st.setString(2, a.username.substr(0, 64));
  st.setString(3, a.remote_addr.substr(0, 64));
  st.setString(4, a.action);
  st.setString(5, a.path);
  st.setString(6, a.target);
  st.setString(7, a.outcome);
  st.executeUpdate();
}

std::vector<AuditRow> audit_page(Connection& c, std::int64_t before_id, int limit) {
  auto& st = c.prepare(
      "SELECT id, DATE_FORMAT(at, '%Y-%m-%dT%H:%i:%sZ'), user_id, username, remote_addr, action, path, target,"
      " outcome FROM vault_audit WHERE (? = 0 OR id < ?) ORDER BY id DESC LIMIT ?");
  st.setInt64(1, before_id);
  st.setInt64(2, before_id);
  st.setInt(3, limit);
  auto rs = query(st);
  std::vector<AuditRow> out;
  while (rs->next()) {
    AuditRow a;
    a.id = get_int(*rs, 1);
    a.at = get_string(*rs, 2);
    a.user_id = opt_int(*rs, 3);
    a.username = get_string(*rs, 4);
    a.remote_addr = get_string(*rs, 5);
    a.action = get_string(*rs, 6);
    a.path = get_string(*rs, 7);
    a.target = get_string(*rs, 8);
    a.outcome = get_string(*rs, 9);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace dozor::db::vault
