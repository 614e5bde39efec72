#include "db/analytics_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::analytics {
namespace {

constexpr const char* kIso = "'%Y-%m-%dT%H:%i:%sZ'";

std::string bucket_sum_columns() {
  std::string s;
  for (std::size_t i = 0; i < monitor::kBuckets; ++i) s += ", SUM(h" + std::to_string(i) + ")";
  return s;
}

}  // namespace

namespace {

// The upsert of one check into one rollup row: one text per (period, bucket column), built once.
std::string make_rollup_sql(bool day, int bucket) {
  std::string h = bucket < 0 ? std::string() : "h" + std::to_string(bucket);
  std::string sql =
      "INSERT INTO check_rollups (service_id, period, bucket_start, checks, failures, timed, sum_ms, max_ms";
  if (!h.empty()) sql.append(", ").append(h);
  sql.append(") SELECT id, '").append(day ? "day" : "hour").append("', ");
  sql.append(day ? "DATE(?)" : "DATE_FORMAT(?, '%Y-%m-%d %H:00:00')");
  sql.append(", 1, ?, ?, ?, ?");
  if (!h.empty()) sql.append(", 1");
  sql.append(
      " FROM services WHERE id = ? ON DUPLICATE KEY UPDATE checks = checks + 1, failures = failures + VALUES(failures),"
      " timed = timed + VALUES(timed), sum_ms = sum_ms + VALUES(sum_ms), max_ms = GREATEST(max_ms, VALUES(max_ms))");
  if (!h.empty()) sql.append(", ").append(h).append(" = ").append(h).append(" + 1");
  return sql;
}

const std::string& rollup_sql(bool day, int bucket) {
  static const auto texts = [] {
    std::array<std::array<std::string, monitor::kBuckets + 1>, 2> t;
    for (std::size_t d = 0; d < 2; ++d)
      for (std::size_t slot = 0; slot <= monitor::kBuckets; ++slot)  // slot 0: no response time
        t[d][slot] = make_rollup_sql(d == 1, static_cast<int>(slot) - 1);
    return t;
  }();
  return texts[day ? 1 : 0][bucket < 0 ? 0 : static_cast<std::size_t>(bucket) + 1];
}

}  // namespace

void add_check(Connection& c, std::int64_t service_id, const std::string& checked_at, bool available,
               std::optional<std::int64_t> response_ms) {
  int bucket = response_ms ? static_cast<int>(monitor::bucket_of(*response_ms)) : -1;
  for (bool day : {false, true}) {
    auto& st = c.prepare(rollup_sql(day, bucket));
    st.setString(1, checked_at);
    st.setInt(2, available ? 0 : 1);
    st.setInt(3, response_ms ? 1 : 0);
    st.setInt64(4, response_ms.value_or(0));
    st.setInt64(5, response_ms.value_or(0));
    st.setInt64(6, service_id);
    st.executeUpdate();
  }
}

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
  auto& st = c.prepare(
      "SELECT r.service_id, SUM(r.checks), SUM(r.failures), SUM(r.timed), SUM(r.sum_ms), MAX(r.max_ms)" +
      bucket_sum_columns() +
      " FROM check_rollups r JOIN services s ON s.id = r.service_id WHERE s.user_id = ? AND r.period = 'hour'"
      " AND r.bucket_start >= DATE_FORMAT(NOW() - INTERVAL 23 HOUR, '%Y-%m-%d %H:00:00') GROUP BY r.service_id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<TimingRow> out;
  while (rs->next()) {
    TimingRow t;
    t.service_id = get_int(*rs, 1);
    t.checks = static_cast<std::uint64_t>(get_int(*rs, 2));
    t.failures = static_cast<std::uint64_t>(get_int(*rs, 3));
    t.timed = static_cast<std::uint64_t>(get_int(*rs, 4));
    t.sum_ms = static_cast<std::uint64_t>(get_int(*rs, 5));
    t.max_ms = get_int(*rs, 6);
    for (std::size_t i = 0; i < monitor::kBuckets; ++i)
      t.buckets[i] = static_cast<std::uint64_t>(get_int(*rs, static_cast<unsigned>(7 + i)));
    out.push_back(t);
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
  auto& st = c.prepare(std::string("SELECT DATE_FORMAT(bucket_start, ") + kIso +
                       "), checks, failures, timed, sum_ms, max_ms, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11,"
                       " h12, h13, h14, h15 FROM check_rollups WHERE service_id = ? AND period = ?"
                       " AND bucket_start > NOW() - INTERVAL ? DAY ORDER BY bucket_start");
  st.setInt64(1, service_id);
  st.setString(2, period);
  st.setInt(3, days);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Point> out;
  while (rs->next()) {
    Point p;
    p.t = get_string(*rs, 1);
    p.checks = static_cast<std::uint64_t>(get_int(*rs, 2));
    p.failures = static_cast<std::uint64_t>(get_int(*rs, 3));
    auto timed = get_int(*rs, 4);
    if (timed > 0) p.avg_ms = get_int(*rs, 5) / timed;
    std::array<std::uint64_t, monitor::kBuckets> b{};
    for (std::size_t i = 0; i < monitor::kBuckets; ++i)
      b[i] = static_cast<std::uint64_t>(get_int(*rs, static_cast<unsigned>(7 + i)));
    p.p95_ms = monitor::p95_of(b, get_int(*rs, 6));
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
