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
  if (!rs->isNull(5) && !rs->isNull(6) && !rs->isNull(7))
    r.file = FileIdentity{rs->getUInt64(5), rs->getInt64(6), rs->getInt64(7)};
  return r;
}

}  // namespace

std::optional<KeyRow> find_by_path(Connection& c, const std::string& path) {
  auto& st = c.prepare(
      "SELECT path, doc_key, version, opened_by, file_ino, file_size, file_mtime_ns FROM vault_docedit WHERE path_hash "
      "= UNHEX(SHA2(?, 256))");
  st.setString(1, path);
  return one(st);
}

std::optional<KeyRow> find_by_key(Connection& c, const std::string& doc_key) {
  auto& st = c.prepare(
      "SELECT path, doc_key, version, opened_by, file_ino, file_size, file_mtime_ns FROM vault_docedit WHERE doc_key = "
      "?");
  st.setString(1, doc_key);
  return one(st);
}

namespace {
void set_user(sql::PreparedStatement& st, unsigned int index, std::int64_t user_id) {
  if (user_id > 0)
    st.setInt64(index, user_id);
  else
    st.setNull(index, sql::DataType::BIGINT);
}
}  // namespace

bool insert_key(Connection& c, const std::string& path, const std::string& doc_key, std::int64_t user_id,
                const FileIdentity& file) {
  auto& st = c.prepare(
      "INSERT IGNORE INTO vault_docedit (path_hash, path, doc_key, version, opened_by, updated_at,"
      " file_ino, file_size, file_mtime_ns) VALUES (UNHEX(SHA2(?, 256)), ?, ?, 1, ?, NOW(3), ?, ?, ?)");
  st.setString(1, path);
  st.setString(2, path);
  st.setString(3, doc_key);
  set_user(st, 4, user_id);
  st.setUInt64(5, file.ino);
  st.setInt64(6, file.size);
  st.setInt64(7, file.mtime_ns);
  return st.executeUpdate() == 1;
}

bool replace_key(Connection& c, const std::string& path, const std::string& old_key, const std::string& new_key,
                 const FileIdentity& file, std::int64_t user_id) {
  auto& st = c.prepare(
      "UPDATE vault_docedit SET doc_key = ?, version = version + 1, opened_by = ?, file_ino = ?, file_size = ?,"
      " file_mtime_ns = ?, updated_at = NOW(3) WHERE path_hash = UNHEX(SHA2(?, 256)) AND doc_key = ?");
  st.setString(1, new_key);
  set_user(st, 2, user_id);
  st.setUInt64(3, file.ino);
  st.setInt64(4, file.size);
  st.setInt64(5, file.mtime_ns);
  st.setString(6, path);
  st.setString(7, old_key);
  return st.executeUpdate() == 1;
}

void set_identity(Connection& c, const std::string& doc_key, const FileIdentity& file) {
  auto& st = c.prepare(
      "UPDATE vault_docedit SET file_ino = ?, file_size = ?, file_mtime_ns = ?, updated_at = NOW(3) WHERE doc_key = ?");
  st.setUInt64(1, file.ino);
  st.setInt64(2, file.size);
  st.setInt64(3, file.mtime_ns);
  st.setString(4, doc_key);
  st.executeUpdate();
}

bool claim_forcesave(Connection& c, const std::string& doc_key, const std::string& digest) {
  auto& st = c.prepare("INSERT IGNORE INTO vault_docedit_forcesaved (doc_key, digest, saved_at) VALUES (?, ?, NOW(3))");
  st.setString(1, doc_key);
  st.setString(2, digest);
  return st.executeUpdate() == 1;
}

void unclaim_forcesave(Connection& c, const std::string& doc_key, const std::string& digest) {
  auto& st = c.prepare("DELETE FROM vault_docedit_forcesaved WHERE doc_key = ? AND digest = ?");
  st.setString(1, doc_key);
  st.setString(2, digest);
  st.executeUpdate();
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
