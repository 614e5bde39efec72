#include "db/analytics_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::analytics {
namespace {

constexpr const char* kIso = "'%Y-%m-%dT%H:%i:%sZ'";

}  // namespace

std::int64_t now_epoch(Connection& c) {
  auto& st = c.prepare("SELECT UNIX_TIMESTAMP(NOW())");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt64(1) : 0;
}

std::vector<ServiceRow> services_of(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(
      "SELECT s.id, s.name, s.url, s.is_active, IFNULL(st.state, 'unknown'), UNIX_TIMESTAMP(s.created_at)"
      " FROM services s LEFT JOIN service_state st ON st.service_id = s.id WHERE s.user_id = ? ORDER BY s.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<ServiceRow> out;
  while (rs->next())
    out.push_back({get_int(*rs, 1), get_string(*rs, 2), get_string(*rs, 3), get_bool(*rs, 4), get_string(*rs, 5),
                   static_cast<std::int64_t>(rs->getDouble(6))});
  return out;
}

std::vector<IncidentRow> incidents_of(Connection& c, std::int64_t user_id, int days) {
  auto& st = c.prepare(
      "SELECT i.service_id, UNIX_TIMESTAMP(i.started_at), UNIX_TIMESTAMP(IFNULL(i.ended_at, NOW(3))),"
      " i.ended_at IS NOT NULL FROM incidents i JOIN services s ON s.id = i.service_id"
      " WHERE s.user_id = ? AND (i.ended_at IS NULL OR i.ended_at > NOW() - INTERVAL ? DAY)");
  st.setInt64(1, user_id);
  st.setInt(2, days);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<IncidentRow> out;
  while (rs->next())
    out.push_back({get_int(*rs, 1),
                   {static_cast<std::int64_t>(rs->getDouble(2)), static_cast<std::int64_t>(rs->getDouble(3))},
                   get_bool(*rs, 4)});
  return out;
}

std::vector<TimingRow> timings_24h(Connection& c, std::int64_t user_id) {
  // Up to 24 rows per service, merged here: the histograms add up, so the p95 is the day's.
  auto& st = c.prepare(
      "SELECT r.service_id, r.checks, r.failures, r.observed_ms, r.down_ms, r.rt_count, r.rt_sum_ms, r.rt_max_ms,"
      " r.rt_hist FROM rollup_hourly r JOIN services s ON s.id = r.service_id WHERE s.user_id = ?"
      " AND r.bucket_start >= DATE_FORMAT(NOW() - INTERVAL 23 HOUR, '%Y-%m-%d %H:00:00') ORDER BY r.service_id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<TimingRow> out;
  while (rs->next()) {
    monitor::rollup::Figures f;
    f.checks = get_int(*rs, 2);
    f.failures = get_int(*rs, 3);
    f.observed_ms = get_int(*rs, 4);
    f.down_ms = get_int(*rs, 5);
    f.rt_count = get_int(*rs, 6);
    f.rt_sum_ms = get_int(*rs, 7);
    f.rt_max_ms = opt_int(*rs, 8);
    f.hist = monitor::rollup::Histogram::decode(get_string(*rs, 9));
    auto id = get_int(*rs, 1);
    if (out.empty() || out.back().service_id != id) out.push_back({id, {}});
    out.back().figures.merge(f);
  }
  return out;
}

std::vector<WatchedRow> watched_of(Connection& c, std::int64_t user_id) {
  // Two indexed range reads summed by the database: one row per service and window.
  auto& st = c.prepare(
      "SELECT r.service_id, 0, CAST(SUM(r.observed_ms) AS SIGNED), CAST(SUM(r.down_ms) AS SIGNED) FROM rollup_hourly r"
      " JOIN services s ON s.id = r.service_id WHERE s.user_id = ?"
      " AND r.bucket_start >= DATE_FORMAT(NOW() - INTERVAL 167 HOUR, '%Y-%m-%d %H:00:00') GROUP BY r.service_id"
      " UNION ALL SELECT r.service_id, 1, CAST(SUM(r.observed_ms) AS SIGNED), CAST(SUM(r.down_ms) AS SIGNED) FROM "
      "rollup_daily r"
      " JOIN services s ON s.id = r.service_id WHERE s.user_id = ?"
      " AND r.bucket_start >= CURRENT_DATE() - INTERVAL 29 DAY GROUP BY r.service_id ORDER BY 1");
  st.setInt64(1, user_id);
  st.setInt64(2, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<WatchedRow> out;
  while (rs->next()) {
    auto id = get_int(*rs, 1);
    if (out.empty() || out.back().service_id != id) out.push_back({id, {}, {}});
    auto& w = get_int(*rs, 2) == 0 ? out.back().week : out.back().month;
    w.add(get_int(*rs, 3), get_int(*rs, 4));
  }
  return out;
}

std::vector<Point> raw_points(Connection& c, std::int64_t service_id, int hours) {
  auto& st = c.prepare(std::string("SELECT DATE_FORMAT(checked_at, ") + kIso +
                       "), is_available, response_time_ms FROM checks"
                       " WHERE service_id = ? AND checked_at > NOW() - INTERVAL ? HOUR ORDER BY checked_at");
  st.setInt64(1, service_id);
  st.setInt(2, hours);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Point> out;
  while (rs->next()) {
    Point p;
    p.t = get_string(*rs, 1);
    p.checks = 1;
    p.failures = get_bool(*rs, 2) ? 0 : 1;
    if (!rs->isNull(3)) p.avg_ms = p.p95_ms = get_int(*rs, 3);
    out.push_back(p);
  }
  return out;
}

std::vector<Point> rollup_points(Connection& c, std::int64_t service_id, const std::string& period, int days) {
  std::string table = period == "day" ? "rollup_daily" : "rollup_hourly";
  auto& st = c.prepare(std::string("SELECT DATE_FORMAT(bucket_start, ") + kIso +
                       "), checks, failures, rt_count, rt_sum_ms, rt_p95_ms, observed_ms, down_ms FROM " + table +
                       " WHERE service_id = ? AND bucket_start > NOW() - INTERVAL ? DAY ORDER BY bucket_start");
  st.setInt64(1, service_id);
  st.setInt(2, days);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Point> out;
  while (rs->next()) {
    Point p;
    p.t = get_string(*rs, 1);
    p.checks = static_cast<std::uint64_t>(get_int(*rs, 2));
    p.failures = static_cast<std::uint64_t>(get_int(*rs, 3));
    auto timed = get_int(*rs, 4);
    if (timed > 0) p.avg_ms = get_int(*rs, 5) / timed;
    p.p95_ms = opt_int(*rs, 6);
    p.observed_ms = get_int(*rs, 7);
    p.down_ms = get_int(*rs, 8);
    out.push_back(p);
  }
  return out;
}

std::vector<Incident> incidents(Connection& c, std::int64_t service_id, int limit) {
  auto& st = c.prepare(std::string("SELECT id, DATE_FORMAT(started_at, ") + kIso + "), DATE_FORMAT(ended_at, " + kIso +
                       "), TIMESTAMPDIFF(SECOND, started_at, IFNULL(ended_at, NOW(3))), cause FROM incidents"
                       " WHERE service_id = ? ORDER BY started_at DESC LIMIT ?");
  st.setInt64(1, service_id);
  st.setInt(2, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Incident> out;
  while (rs->next())
    out.push_back({get_int(*rs, 1), get_string(*rs, 2), opt_string(*rs, 3), get_int(*rs, 4), get_string(*rs, 5)});
  return out;
}

}  // namespace dozor::db::analytics
