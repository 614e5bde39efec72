#include "db/users_repo.hpp"

#include <cppconn/connection.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace dozor::db::users {
namespace {

constexpr const char* kColumns =
    "SELECT id, username, email, password_hash, is_active, is_admin, token_version,"
    " DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%sZ') AS created_at, services_rev, username_canonical FROM users ";

User read(sql::ResultSet& rs) {
  User u;
  // Positions follow kColumns.
  u.id = get_int(rs, 1);
  u.username = get_string(rs, 2);
  u.email = get_string(rs, 3);
  u.password_hash = get_string(rs, 4);
  u.is_active = get_bool(rs, 5);
  u.is_admin = get_bool(rs, 6);
  u.token_version = get_int(rs, 7);
  u.created_at = get_string(rs, 8);
  u.services_rev = get_int(rs, 9);
  u.username_canonical = opt_string(rs, 10).value_or("");
  return u;
}

std::optional<User> one(sql::PreparedStatement& st) {
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read(*rs);
}

}  // namespace

std::optional<User> find_by_id(Connection& c, std::int64_t id) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE id = ?");
  st.setInt64(1, id);
  return one(st);
}

std::optional<User> find_by_canonical(Connection& c, const std::string& canonical) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE username_canonical = ?");
  st.setString(1, canonical);
  return one(st);
}

std::vector<User> list(Connection& c) {
  auto& st = c.prepare(std::string(kColumns) + "ORDER BY id");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<User> out;
  while (rs->next()) out.push_back(read(*rs));
  return out;
}

std::int64_t insert(Connection& c, const User& u) {
  auto& st = c.prepare(
      "INSERT INTO users (username, username_canonical, email, password_hash, is_active, is_admin)"
      " VALUES (?, ?, ?, ?, ?, ?)");
  st.setString(1, u.username);
  st.setString(2, u.username_canonical);
  st.setString(3, u.email);
  st.setString(4, u.password_hash);
  st.setBoolean(5, u.is_active);
  st.setBoolean(6, u.is_admin);
  st.executeUpdate();
  return c.last_insert_id();
}

void update(Connection& c, std::int64_t id, const Changes& ch) {
  // COALESCE keeps a column when its parameter is NULL: one statement for any subset of fields.
  auto& st = c.prepare(
      "UPDATE users SET email = COALESCE(?, email), is_active = COALESCE(?, is_active),"
      " is_admin = COALESCE(?, is_admin), password_hash = COALESCE(?, password_hash),"
      " token_version = token_version + ? WHERE id = ?");
  bind_optional(st, 1, ch.email);
  bind_optional(st, 2, ch.is_active);
  bind_optional(st, 3, ch.is_admin);
  bind_optional(st, 4, ch.password_hash);
  st.setInt(5, ch.bump_token_version ? 1 : 0);
  st.setInt64(6, id);
  st.executeUpdate();
}

bool remove(Connection& c, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM users WHERE id = ?");
  st.setInt64(1, id);
  return st.executeUpdate() > 0;
}

std::vector<std::pair<std::int64_t, std::string>> lock_all_names(Connection& c) {
  auto& st = c.prepare("SELECT id, username FROM users ORDER BY id FOR UPDATE");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<std::pair<std::int64_t, std::string>> out;
  while (rs->next()) out.emplace_back(get_int(*rs, 1), get_string(*rs, 2));
  return out;
}

void set_canonical(Connection& c, std::int64_t id, const std::string& canonical) {
  auto& st = c.prepare("UPDATE users SET username_canonical = ? WHERE id = ?");
  st.setString(1, canonical);
  st.setInt64(2, id);
  st.executeUpdate();
}

void require_canonical(Connection& c) {
  // DDL commits implicitly: run after the transaction that filled the column.
  std::unique_ptr<sql::Statement> st(c.raw().createStatement());
  st->execute(
      "ALTER TABLE users MODIFY username_canonical VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL");
  st->execute("ALTER TABLE users DROP INDEX IF EXISTS uq_users_username");
}

std::vector<std::int64_t> lock_active_admin_ids(Connection& c) {
  auto& st = c.prepare("SELECT id FROM users WHERE is_admin = 1 AND is_active = 1 FOR UPDATE");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<std::int64_t> out;
  while (rs->next()) out.push_back(get_int(*rs, 1));
  return out;
}

void bump_services_revision(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("UPDATE users SET services_rev = services_rev + 1 WHERE id = ?");
  st.setInt64(1, user_id);
  st.executeUpdate();
}

}  // namespace dozor::db::users
