#include "db/channels_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::channels {
namespace {

// A channel with its latest delivered and latest failed outbox message: each found by one
// backward step on an index of the outbox (channel_id, sent_at | failed_at), however many rows a
// channel has. The WHERE clauses below qualify their columns with `channels`.
// Built once, on first use (a namespace-scope std::string could throw before main).
const std::string& columns() {
  static const std::string sql =
      "SELECT channels.id, channels.type, channels.enabled, channels.params, " + iso_ms_column("d.sent_at") +
      ", d.kind, JSON_VALUE(d.payload, '$.service_name'), " + iso_ms_column("f.failed_at") +
      ", f.failure, f.state FROM channels"
      " LEFT JOIN notification_outbox d ON d.id = (SELECT o.id FROM notification_outbox o"
      "   WHERE o.channel_id = channels.id AND o.sent_at IS NOT NULL ORDER BY o.sent_at DESC LIMIT 1)"
      " LEFT JOIN notification_outbox f ON f.id = (SELECT o.id FROM notification_outbox o"
      "   WHERE o.channel_id = channels.id AND o.failed_at IS NOT NULL ORDER BY o.failed_at DESC LIMIT 1) ";
  return sql;
}

std::vector<Channel> read_all(sql::PreparedStatement& st) {
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Channel> out;
  while (rs->next()) {
    Channel ch{get_int(*rs, 1), get_string(*rs, 2), get_bool(*rs, 3), get_string(*rs, 4), {}, {}};
    if (auto at = opt_string(*rs, 5)) ch.last_delivery = LastDelivery{*at, get_string(*rs, 6), opt_string(*rs, 7)};
    if (auto at = opt_string(*rs, 8)) ch.last_failure = LastFailure{*at, get_string(*rs, 9), get_string(*rs, 10)};
    out.push_back(std::move(ch));
  }
  return out;
}

std::optional<Channel> first(std::vector<Channel> v) {
  if (v.empty()) return std::nullopt;
  return std::move(v.front());
}

}  // namespace

std::vector<Channel> list_by_user(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(columns() + "WHERE channels.user_id = ? ORDER BY channels.id");
  st.setInt64(1, user_id);
  return read_all(st);
}

std::vector<Channel> list_enabled(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(columns() + "WHERE channels.user_id = ? AND channels.enabled = TRUE ORDER BY channels.id");
  st.setInt64(1, user_id);
  return read_all(st);
}

std::optional<Channel> find_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare(columns() + "WHERE channels.user_id = ? AND channels.id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  return first(read_all(st));
}

std::optional<Channel> first_of_type(Connection& c, std::int64_t user_id, const std::string& type) {
  auto& st = c.prepare(columns() + "WHERE channels.user_id = ? AND channels.type = ? ORDER BY channels.id LIMIT 1");
  st.setInt64(1, user_id);
  st.setString(2, type);
  return first(read_all(st));
}

std::int64_t insert(Connection& c, std::int64_t user_id, const Channel& ch) {
  auto& st = c.prepare(
      "INSERT INTO channels (user_id, type, enabled, params, name, config, is_active) VALUES (?, ?, ?, ?, ?, '{}', ?)");
  st.setInt64(1, user_id);
  st.setString(2, ch.type);
  st.setBoolean(3, ch.enabled);
  st.setString(4, ch.params_json);
  st.setString(5, ch.type);
  st.setBoolean(6, ch.enabled);
  st.executeUpdate();
  return c.last_insert_id();
}

bool update_owned(Connection& c, std::int64_t user_id, const Channel& ch) {
  auto& st = c.prepare(
      "UPDATE channels SET type = ?, enabled = ?, params = ?, name = ?, is_active = ? WHERE user_id = ? AND id = ?");
  st.setString(1, ch.type);
  st.setBoolean(2, ch.enabled);
  st.setString(3, ch.params_json);
  st.setString(4, ch.type);
  st.setBoolean(5, ch.enabled);
  st.setInt64(6, user_id);
  st.setInt64(7, ch.id);
  // Matched rows, not changed ones: saving an unchanged channel is still a success.
  st.executeUpdate();
  return find_owned(c, user_id, ch.id).has_value();
}

bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM channels WHERE user_id = ? AND id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  return st.executeUpdate() > 0;
}

std::int64_t count_locked(Connection& c, std::int64_t user_id) {
  auto& lock = c.prepare("SELECT id FROM users WHERE id = ? FOR UPDATE");
  lock.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> locked(lock.executeQuery());  // the row lock lasts until COMMIT
  auto& st = c.prepare("SELECT COUNT(*) FROM channels WHERE user_id = ?");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt64(1) : 0;
}

std::optional<long> claim_test(Connection& c, std::int64_t user_id, const std::string& owner, int lease_seconds) {
  std::optional<long> busy;
  // A lost race (a deadlock between two first claims, or Galera's certification conflict) rolls
  // back and runs again: the second run sees the winner's row.
  c.transaction([&] {
    busy.reset();
    auto& sel = c.prepare(
        "SELECT CEIL(TIMESTAMPDIFF(MICROSECOND, NOW(3), lease_until) / 1000000) FROM notify_test_claims"
        " WHERE user_id = ? FOR UPDATE");
    sel.setInt64(1, user_id);
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    if (rs->next()) {
      auto left = rs->getInt64(1);
      if (left > 0) {
        busy = static_cast<long>(left);
        return;
      }
    }
    auto& put = c.prepare(
        "INSERT INTO notify_test_claims (user_id, claimed_by, lease_until) VALUES (?, ?, NOW(3) + INTERVAL ? SECOND)"
        " ON DUPLICATE KEY UPDATE claimed_by = VALUES(claimed_by), lease_until = VALUES(lease_until)");
    put.setInt64(1, user_id);
    put.setString(2, owner);
    put.setInt(3, lease_seconds);
    put.executeUpdate();
  });
  return busy;
}

void release_test(Connection& c, std::int64_t user_id, const std::string& owner) {
  auto& st = c.prepare("DELETE FROM notify_test_claims WHERE user_id = ? AND claimed_by = ?");
  st.setInt64(1, user_id);
  st.setString(2, owner);
  st.executeUpdate();
}

}  // namespace dozor::db::channels
