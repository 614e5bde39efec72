#include "db/vault_docedit_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::vault_docedit {
namespace {

std::optional<KeyRow> one(sql::PreparedStatement& st) {
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  KeyRow r;
  r.path = rs->getString(1);
  r.doc_key = rs->getString(2);
  r.version = rs->getInt64(3);
  r.opened_by = rs->isNull(4) ? 0 : static_cast<std::int64_t>(rs->getUInt64(4));
  return r;
}

}  // namespace

std::optional<KeyRow> find_by_path(Connection& c, const std::string& path) {
  auto& st =
      c.prepare("SELECT path, doc_key, version, opened_by FROM vault_docedit WHERE path_hash = UNHEX(SHA2(?, 256))");
  st.setString(1, path);
  return one(st);
}

std::optional<KeyRow> find_by_key(Connection& c, const std::string& doc_key) {
  auto& st = c.prepare("SELECT path, doc_key, version, opened_by FROM vault_docedit WHERE doc_key = ?");
  st.setString(1, doc_key);
  return one(st);
}

bool insert_key(Connection& c, const std::string& path, const std::string& doc_key, std::int64_t user_id) {
  auto& st = c.prepare(
      "INSERT IGNORE INTO vault_docedit (path_hash, path, doc_key, version, opened_by, updated_at)"
      " VALUES (UNHEX(SHA2(?, 256)), ?, ?, 1, ?, NOW(3))");
  st.setString(1, path);
  st.setString(2, path);
  st.setString(3, doc_key);
  st.setInt64(4, user_id);
  return st.executeUpdate() == 1;
}

void set_opened_by(Connection& c, const std::string& path, std::int64_t user_id) {
  auto& st = c.prepare("UPDATE vault_docedit SET opened_by = ? WHERE path_hash = UNHEX(SHA2(?, 256))");
  st.setInt64(1, user_id);
  st.setString(2, path);
  st.executeUpdate();
}

bool rotate_key(Connection& c, const std::string& path, const std::string& old_key, const std::string& new_key) {
  bool won = false;
  c.transaction([&] {
    auto& st =
        c.prepare("UPDATE vault_docedit SET doc_key = ?, version = version + 1, updated_at = NOW(3) WHERE doc_key = ?");
    st.setString(1, new_key);
    st.setString(2, old_key);
    won = st.executeUpdate() == 1;
    if (!won) return;
    auto& closed = c.prepare("INSERT INTO vault_docedit_closed (doc_key, path, closed_at) VALUES (?, ?, NOW(3))");
    closed.setString(1, old_key);
    closed.setString(2, path);
    closed.executeUpdate();
  });
  return won;
}

void reopen_key(Connection& c, const std::string& path, const std::string& new_key, const std::string& old_key) {
  c.transaction([&] {
    auto& st =
        c.prepare("UPDATE vault_docedit SET doc_key = ?, version = version - 1, updated_at = NOW(3) WHERE doc_key = ?");
    st.setString(1, old_key);
    st.setString(2, new_key);
    st.executeUpdate();
    auto& del = c.prepare("DELETE FROM vault_docedit_closed WHERE doc_key = ? AND path = ?");
    del.setString(1, old_key);
    del.setString(2, path);
    del.executeUpdate();
  });
}

bool is_closed(Connection& c, const std::string& doc_key) {
  auto& st = c.prepare("SELECT 1 FROM vault_docedit_closed WHERE doc_key = ?");
  st.setString(1, doc_key);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next();
}

}  // namespace dozor::db::vault_docedit
