#include "db/health_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <memory>

namespace dozor::db::health {

Schema schema(Connection& c) {
  Schema s;
  auto& st = c.prepare(
      "SELECT version, name, (SELECT COUNT(*) FROM schema_migrations) FROM schema_migrations"
      " ORDER BY version DESC LIMIT 1");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (rs->next()) {
    s.version = static_cast<int>(get_int(*rs, 1));
    s.name = get_string(*rs, 2);
    s.applied = static_cast<int>(get_int(*rs, 3));
  }
  return s;
}

Backlog backlog(Connection& c, int recent_days) {
  Backlog b;
  {
    auto& st = c.prepare(
        "SELECT owner, location, pid, TIMESTAMPDIFF(MICROSECOND, beat_at, NOW(3)) DIV 1000, in_flight, checks_done,"
        " CAST(UNIX_TIMESTAMP(started_at) AS SIGNED)"
        " FROM daemon_heartbeats WHERE beat_at > NOW(3) - INTERVAL ? DAY ORDER BY owner");
    st.setInt(1, recent_days);
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) {
      Beat d;
      d.owner = get_string(*rs, 1);
      d.location = get_string(*rs, 2);
      d.pid = get_int(*rs, 3);
      d.age_ms = get_int(*rs, 4);
      d.in_flight = get_int(*rs, 5);
      d.checks_done = get_int(*rs, 6);
      d.started_at = get_int(*rs, 7);
      b.daemons.push_back(std::move(d));
    }
  }
  {
    // The same condition dozord claims by: due, active and not leased by a live dozord.
    auto& st = c.prepare(
        "SELECT COUNT(*), IFNULL(TIMESTAMPDIFF(MICROSECOND, MIN(st.next_check_at), NOW(3)) DIV 1000, 0)"
        " FROM service_state st JOIN services s ON s.id = st.service_id"
        " WHERE st.next_check_at <= NOW(3) AND s.is_active AND (st.lease_until IS NULL OR st.lease_until < NOW(3))");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    if (rs->next()) {
      b.overdue_services = get_int(*rs, 1);
      b.check_lag_ms = get_int(*rs, 2);
    }
  }
  {
    auto& st = c.prepare(
        "SELECT IFNULL(SUM(state = 'queued'), 0), IFNULL(SUM(state = 'running'), 0) FROM tasks"
        " WHERE state IN ('queued', 'running')");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    if (rs->next()) {
      b.tasks_queued = get_int(*rs, 1);
      b.tasks_running = get_int(*rs, 2);
    }
  }
  {
    auto& st = c.prepare(
        "SELECT COUNT(*), IFNULL(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), NOW(3)) DIV 1000, 0)"
        " FROM notification_outbox WHERE state = 'pending'");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    if (rs->next()) {
      b.outbox_pending = get_int(*rs, 1);
      b.outbox_oldest_ms = get_int(*rs, 2);
    }
  }
  return b;
}

}  // namespace dozor::db::health
