#include "db/login_throttle_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::login_throttle {
namespace {

constexpr const char* kSelect = "SELECT bucket, failures, last_ms, slots FROM login_throttle WHERE bucket IN (";

std::string placeholders(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += i ? ", ?" : "?";
  return s + ")";
}

// Slot counters travel as hex text: binary strings with NUL bytes are not worth trusting to
// the connector's string conversions.
std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char ch : bytes) {
    auto b = static_cast<unsigned char>(ch);
    out += digits[b >> 4];
    out += digits[b & 0xF];
  }
  return out;
}

std::string from_hex(const std::string& hex) {
  auto nibble = [](char ch) { return ch <= '9' ? ch - '0' : ch - 'a' + 10; };
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
  return out;
}

std::map<std::string, Row> read_rows(sql::PreparedStatement& st, const std::vector<std::string>& keys) {
  for (std::size_t i = 0; i < keys.size(); ++i) st.setString(static_cast<unsigned>(i + 1), keys[i]);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::map<std::string, Row> out;
  while (rs->next())
    out[get_string(*rs, 1)] = {get_int(*rs, 2), get_int(*rs, 3), from_hex(opt_string(*rs, 4).value_or(""))};
  return out;
}

}  // namespace

std::int64_t now_ms(Connection& c) {
  auto& st = c.prepare("SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) throw DbError("no database clock");
  return get_int(*rs, 1);
}

std::map<std::string, Row> peek(Connection& c, const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  return read_rows(c.prepare(kSelect + placeholders(keys.size())), keys);
}

std::map<std::string, Row> lock(Connection& c, const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  // Insert first: SELECT … FOR UPDATE on a missing row takes a gap lock, and two such attempts
  // then deadlock on their inserts. ON DUPLICATE KEY UPDATE (not INSERT IGNORE, whose shared
  // lock on an existing row deadlocks with the next caller's upgrade) leaves an existing row as
  // it is and locks it exclusively at once.
  std::string insert = "INSERT INTO login_throttle (bucket) VALUES ";
  for (std::size_t i = 0; i < keys.size(); ++i) insert += i ? ", (?)" : "(?)";
  insert += " ON DUPLICATE KEY UPDATE bucket = bucket";
  auto& ins = c.prepare(insert);
  for (std::size_t i = 0; i < keys.size(); ++i) ins.setString(static_cast<unsigned>(i + 1), keys[i]);
  ins.executeUpdate();
  return read_rows(c.prepare(kSelect + placeholders(keys.size()) + " ORDER BY bucket FOR UPDATE"), keys);
}

void store(Connection& c, const std::string& key, const Row& r, std::int64_t expires_ms) {
  auto& st =
      c.prepare("UPDATE login_throttle SET failures = ?, last_ms = ?, expires_ms = ?, slots = ? WHERE bucket = ?");
  st.setInt64(1, r.failures);
  st.setInt64(2, r.last_ms);
  st.setInt64(3, expires_ms);
  bind_optional(st, 4, r.slots.empty() ? std::nullopt : std::optional<std::string>(to_hex(r.slots)));
  st.setString(5, key);
  st.executeUpdate();
}

void remove(Connection& c, const std::string& key) {
  auto& st = c.prepare("DELETE FROM login_throttle WHERE bucket = ?");
  st.setString(1, key);
  st.executeUpdate();
}

std::int64_t purge_expired(Connection& c, std::int64_t now, int limit) {
  auto& st = c.prepare("DELETE FROM login_throttle WHERE expires_ms < ? LIMIT ?");
  st.setInt64(1, now);
  st.setInt(2, limit);
  return st.executeUpdate();
}

}  // namespace dozor::db::login_throttle
