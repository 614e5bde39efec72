#include "db/monitor_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <ctime>

#include "db/analytics_repo.hpp"
#include "engines/notify/transition.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::db::monitor {
namespace {

std::string iso(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string sql_time(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

void bind_opt(sql::PreparedStatement& st, int i, const std::optional<std::int64_t>& v) {
  if (v)
    st.setInt64(static_cast<unsigned>(i), *v);
  else
    st.setNull(static_cast<unsigned>(i), sql::DataType::INTEGER);
}

// Opens (down) or closes (up) the incident of a transition and writes its outbox events.
void transition(Connection& c, const Outcome& o, std::optional<std::int64_t>& incident) {
  notify::Transition t;
  t.user_id = o.due.user_id;
  t.service_id = o.due.service_id;
  t.service_name = o.due.name;
  t.url = o.due.url;
  t.at = iso(o.checked_at_epoch);
  t.up = o.went_up;
  if (o.went_down) {
    auto& ins = c.prepare("INSERT INTO incidents (service_id, started_at, cause) VALUES (?, ?, ?)");
    ins.setInt64(1, o.due.service_id);
    ins.setString(2, o.checked_at);
    ins.setString(3, text::utf8_prefix(o.error.value_or("unavailable"), 1024));
    ins.executeUpdate();
    incident = c.last_insert_id();
    t.error = o.error.value_or("");
  } else {
    if (o.due.open_incident_id) {
      auto& upd = c.prepare("UPDATE incidents SET ended_at = ? WHERE id = ? AND ended_at IS NULL");
      upd.setString(1, o.checked_at);
      upd.setInt64(2, *o.due.open_incident_id);
      upd.executeUpdate();
    }
    if (o.due.down_since_epoch)
      t.outage_seconds = std::max<std::int64_t>(0, o.checked_at_epoch - *o.due.down_since_epoch);
    incident = std::nullopt;
  }
  t.incident_id = o.went_down ? incident.value_or(0) : o.due.open_incident_id.value_or(0);
  notify::enqueue(c, t);
}

}  // namespace

void ensure_state_rows(Connection& c) {
  auto& st = c.prepare(
      "INSERT IGNORE INTO service_state (service_id, next_check_at)"
      " SELECT s.id, NOW(3) + INTERVAL (s.id % GREATEST(s.check_interval, 1)) SECOND"
      " FROM services s LEFT JOIN service_state st ON st.service_id = s.id WHERE st.service_id IS NULL");
  st.executeUpdate();
}

std::vector<Due> claim_due(Connection& c, const std::string& owner, int limit, int lease_seconds) {
  std::vector<Due> out;
  c.transaction([&] {
    auto& sel = c.prepare(
        "SELECT st.service_id, s.user_id, s.name, s.url, s.check_interval, st.state, st.failures, st.successes,"
        " st.open_incident_id, UNIX_TIMESTAMP(st.down_since)"
        " FROM service_state st JOIN services s ON s.id = st.service_id"
        " WHERE st.next_check_at <= NOW(3) AND s.is_active AND (st.lease_until IS NULL OR st.lease_until < NOW(3))"
        " ORDER BY st.next_check_at LIMIT ? FOR UPDATE SKIP LOCKED");
    sel.setInt(1, limit);
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    while (rs->next()) {
      Due d;
      d.service_id = rs->getInt64(1);
      d.user_id = rs->getInt64(2);
      d.name = rs->getString(3);
      d.url = rs->getString(4);
      d.interval = rs->getInt(5);
      d.state = rs->getString(6);
      d.failures = rs->getInt(7);
      d.successes = rs->getInt(8);
      if (!rs->isNull(9)) d.open_incident_id = rs->getInt64(9);
      if (!rs->isNull(10)) d.down_since_epoch = static_cast<std::int64_t>(rs->getDouble(10));
      out.push_back(std::move(d));
    }
    auto& lease = c.prepare(
        "UPDATE service_state SET lease_owner = ?, lease_until = NOW(3) + INTERVAL ? SECOND WHERE service_id = ?");
    for (const auto& d : out) {
      lease.setString(1, owner);
      lease.setInt(2, lease_seconds);
      lease.setInt64(3, d.service_id);
      lease.executeUpdate();
    }
  });
  return out;
}

int record(Connection& c, const std::string& owner, const std::vector<Outcome>& batch) {
  int transitions = 0;
  c.transaction([&] {
    transitions = 0;
    auto& check = c.prepare(
        "INSERT INTO checks (service_id, checked_at, is_available, status_code, response_time_ms, error, location,"
        " dns_ms, connect_ms, tls_ms, first_byte_ms, cert_expires_at)"
        " SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM services WHERE id = ?");
    for (const auto& o : batch) {
      check.setString(1, o.checked_at);
      check.setBoolean(2, o.available);
      if (o.status_code)
        check.setInt(3, *o.status_code);
      else
        check.setNull(3, sql::DataType::INTEGER);
      bind_opt(check, 4, o.response_time_ms);
      if (o.error)
        check.setString(5, text::utf8_prefix(*o.error, 1024));
      else
        check.setNull(5, sql::DataType::VARCHAR);
      check.setString(6, o.location);
      bind_opt(check, 7, o.dns_ms);
      bind_opt(check, 8, o.connect_ms);
      bind_opt(check, 9, o.tls_ms);
      bind_opt(check, 10, o.first_byte_ms);
      if (o.cert_expires)
        check.setString(11, sql_time(*o.cert_expires));
      else
        check.setNull(11, sql::DataType::VARCHAR);
      check.setInt64(12, o.due.service_id);
      if (check.executeUpdate() == 0) continue;  // deleted while it was checked
      analytics::add_check(c, o.due.service_id, o.checked_at, o.available, o.response_time_ms);

      // Only the lease holder moves the state; a result that lost its lease is history only.
      auto& held = c.prepare("SELECT 1 FROM service_state WHERE service_id = ? AND lease_owner = ? FOR UPDATE");
      held.setInt64(1, o.due.service_id);
      held.setString(2, owner);
      std::unique_ptr<sql::ResultSet> h(held.executeQuery());
      if (!h->next()) continue;

      std::optional<std::int64_t> incident = o.due.open_incident_id;
      if (o.went_down || o.went_up) {
        transition(c, o, incident);
        ++transitions;
      }
      auto& upd = c.prepare(
          "UPDATE service_state SET state = ?, failures = ?, successes = ?,"
          " open_incident_id = ?, down_since = IF(? = 'down', COALESCE(down_since, ?), NULL),"
          " last_checked_at = ?, last_available = ?, last_response_time = ?, last_error = ?,"
          " cert_expires_at = COALESCE(?, cert_expires_at),"
          " next_check_at = IF(? , NOW(3) + INTERVAL ? SECOND,"
          "   GREATEST(next_check_at + INTERVAL ? SECOND, NOW(3))),"
          " lease_owner = NULL, lease_until = NULL"
          " WHERE service_id = ?");
      upd.setString(1, o.new_state);
      upd.setInt(2, o.failures);
      upd.setInt(3, o.successes);
      bind_opt(upd, 4, incident);
      upd.setString(5, o.new_state);
      upd.setString(6, o.checked_at);
      upd.setString(7, o.checked_at);
      upd.setBoolean(8, o.available);
      bind_opt(upd, 9, o.response_time_ms);
      if (o.error)
        upd.setString(10, text::utf8_prefix(*o.error, 1024));
      else
        upd.setNull(10, sql::DataType::VARCHAR);
      if (o.cert_expires)
        upd.setString(11, sql_time(*o.cert_expires));
      else
        upd.setNull(11, sql::DataType::VARCHAR);
      bool recheck = o.next_check_in < o.due.interval;
      upd.setBoolean(12, recheck);
      upd.setInt(13, o.next_check_in);
      upd.setInt(14, o.due.interval);
      upd.setInt64(15, o.due.service_id);
      upd.executeUpdate();
    }
  });
  return transitions;
}

void release_all(Connection& c, const std::string& owner) {
  auto& st = c.prepare("UPDATE service_state SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?");
  st.setString(1, owner);
  st.executeUpdate();
}

void heartbeat(Connection& c, const std::string& owner, const std::string& location, int pid,
               const std::string& started_at, std::int64_t checks_done) {
  auto& st = c.prepare(
      "INSERT INTO daemon_heartbeats (owner, location, pid, started_at, beat_at, checks_done)"
      " VALUES (?, ?, ?, ?, NOW(3), ?)"
      " ON DUPLICATE KEY UPDATE beat_at = NOW(3), checks_done = VALUES(checks_done)");
  st.setString(1, owner);
  st.setString(2, location);
  st.setInt(3, pid);
  st.setString(4, started_at);
  st.setInt64(5, checks_done);
  st.executeUpdate();
}

int purge_checks(Connection& c, int days, int limit) {
  auto& st = c.prepare("DELETE FROM checks WHERE checked_at < NOW(3) - INTERVAL ? DAY LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, limit);
  return st.executeUpdate();
}

}  // namespace dozor::db::monitor
