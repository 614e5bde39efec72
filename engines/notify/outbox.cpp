#include "engines/notify/outbox.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <vector>

#include "engines/text/utf8.hpp"

namespace dozor::notify {
namespace {

struct Row {
  std::int64_t id = 0;
  std::string kind;
  std::string payload;
  int attempts = 0;
  std::string type;
  bool enabled = true;
  std::string params;
};

std::vector<Row> claim(db::Connection& c, const OutboxOptions& o) {
  std::vector<Row> rows;
  c.transaction([&] {
    rows.clear();
    auto& sel = c.prepare(
        "SELECT o.id, o.kind, o.payload, o.attempts, ch.type, ch.enabled, ch.params"
        " FROM notification_outbox o JOIN channels ch ON ch.id = o.channel_id"
        " WHERE o.state = 'pending' AND o.next_attempt_at <= NOW(3)"
        " AND (o.lease_until IS NULL OR o.lease_until < NOW(3))"
        " ORDER BY o.id LIMIT ? FOR UPDATE SKIP LOCKED");
    sel.setInt(1, o.batch);
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    while (rs->next())
      rows.push_back({db::get_int(*rs, 1), db::get_string(*rs, 2), db::get_string(*rs, 3),
                      static_cast<int>(db::get_int(*rs, 4)), db::get_string(*rs, 5), db::get_bool(*rs, 6),
                      db::get_string(*rs, 7)});
    auto& lease = c.prepare(
        "UPDATE notification_outbox SET claimed_by = ?, lease_until = NOW(3) + INTERVAL ? SECOND WHERE id = ?");
    for (const auto& r : rows) {
      lease.setString(1, o.owner);
      lease.setInt(2, o.lease_seconds);
      lease.setInt64(3, r.id);
      lease.executeUpdate();
    }
  });
  return rows;
}

void finish(db::Connection& c, const OutboxOptions& o, const Row& r, const SendResult& res, bool cancelled) {
  if (res.ok || cancelled) {
    auto& st = c.prepare(
        "UPDATE notification_outbox SET state = ?, sent_at = IF(? , NOW(3), NULL), attempts = attempts + ?,"
        " claimed_by = NULL, lease_until = NULL, last_error = ? WHERE id = ? AND claimed_by = ?");
    st.setString(1, cancelled ? "cancelled" : "sent");
    st.setBoolean(2, res.ok);
    st.setInt(3, res.ok ? 1 : 0);
    if (cancelled)
      st.setString(4, "the channel was disabled");
    else
      st.setNull(4, sql::DataType::VARCHAR);
    st.setInt64(5, r.id);
    st.setString(6, o.owner);
    st.executeUpdate();
    return;
  }
  int failed = r.attempts + 1;
  long wait = std::max(backoff_seconds(failed), res.retry_after_s);
  auto& st = c.prepare(
      "UPDATE notification_outbox SET state = ?, attempts = ?, next_attempt_at = NOW(3) + INTERVAL ? SECOND,"
      " claimed_by = NULL, lease_until = NULL, last_error = ?, failed_at = NOW(3), failure = ?"
      " WHERE id = ? AND claimed_by = ?");
  // `failure` and `failed_at` outlive a later success (migration 0034): the channel's last failure.
  std::string error = text::utf8_prefix(res.error, 1024);
  st.setString(1, failed >= kMaxAttempts ? "failed" : "pending");
  st.setInt(2, failed);
  st.setInt64(3, wait);
  st.setString(4, error);
  st.setString(5, error);
  st.setInt64(6, r.id);
  st.setString(7, o.owner);
  st.executeUpdate();
}

}  // namespace

long backoff_seconds(int failed_attempts) {
  long wait = 15;
  for (int i = 1; i < failed_attempts && wait < 3600; ++i) wait *= 2;
  return std::min(wait, 3600L);
}

DeliveryStats deliver_pending(db::Database& db, const OutboxOptions& o) {
  DeliveryStats stats;
  std::vector<Row> rows;
  // Not retried: a claim whose COMMIT was lost is taken again after its lease.
  db.run([&](db::Connection& c) { rows = claim(c, o); }, db::Retry::Never);
  for (const auto& r : rows) {
    SendResult res;
    bool cancelled = !r.enabled;
    if (!cancelled) {
      boost::system::error_code payload_ec, params_ec;  // unparsable → empty object → a clear send error
      auto payload = boost::json::parse(r.payload, payload_ec);
      auto params = boost::json::parse(r.params, params_ec);
      Message m = render(r.kind, payload.is_object() ? payload.as_object() : boost::json::object{}, o.language);
      res = send(r.type, params.is_object() ? params.as_object() : boost::json::object{}, m, o.send);
    }
    // Marked at once, row by row: a crash between a send and its mark is the only window in
    // which a message could go out twice (after the lease expires).
    db.run([&](db::Connection& c) { finish(c, o, r, res, cancelled); }, db::Retry::OnLostConnection);
    if (res.ok)
      ++stats.sent;
    else if (!cancelled)
      ++stats.failed;
  }
  return stats;
}

}  // namespace dozor::notify
