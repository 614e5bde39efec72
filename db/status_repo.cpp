#include "db/status_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::status {

std::optional<Page> find_public(Connection& c, const std::string& slug) {
  auto& st = c.prepare(
      "SELECT id, IFNULL(status_title, name), description, status_announcement, status_show_urls, UNIX_TIMESTAMP(NOW())"
      " FROM `groups` WHERE public_slug = ?");  // unique among published pages (0029)
  st.setString(1, slug);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  Page p;
  p.group_id = get_int(*rs, 1);
  p.title = get_string(*rs, 2);
  p.description = opt_string(*rs, 3);
  p.announcement = opt_string(*rs, 4);
  p.show_urls = get_bool(*rs, 5);
  p.now_epoch = get_int(*rs, 6);
  return p;
}

std::vector<ServiceRow> services(Connection& c, std::int64_t group_id) {
  auto& st = c.prepare(
      "SELECT s.id, s.name, s.url, IFNULL(st.state, 'unknown'), s.is_active,"
      " DATE_FORMAT(st.last_checked_at, '%Y-%m-%dT%H:%i:%sZ'), st.last_response_time"
      " FROM services s LEFT JOIN service_state st ON st.service_id = s.id WHERE s.group_id = ? ORDER BY s.name, s.id");
  st.setInt64(1, group_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<ServiceRow> out;
  while (rs->next()) {
    ServiceRow r;
    r.id = get_int(*rs, 1);
    r.name = get_string(*rs, 2);
    r.url = get_string(*rs, 3);
    r.state = get_string(*rs, 4);
    r.active = get_bool(*rs, 5);
    r.last_checked_at = opt_string(*rs, 6);
    r.response_time_ms = opt_int(*rs, 7);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<DayRow> days(Connection& c, std::int64_t group_id, int n) {
  auto& st = c.prepare(
      "SELECT r.service_id, DATE_FORMAT(r.bucket_start, '%Y-%m-%d'), r.observed_ms, r.down_ms"
      " FROM rollup_daily r JOIN services s ON s.id = r.service_id"
      " WHERE s.group_id = ? AND r.bucket_start >= CURRENT_DATE() - INTERVAL ? DAY");
  st.setInt64(1, group_id);
  st.setInt(2, n - 1);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<DayRow> out;
  while (rs->next()) out.push_back({get_int(*rs, 1), get_string(*rs, 2), get_int(*rs, 3), get_int(*rs, 4)});
  return out;
}

std::vector<IncidentRow> incidents(Connection& c, std::int64_t group_id, int n, int limit) {
  auto& st = c.prepare(
      "SELECT i.service_id, DATE_FORMAT(i.started_at, '%Y-%m-%dT%H:%i:%sZ'),"
      " DATE_FORMAT(i.ended_at, '%Y-%m-%dT%H:%i:%sZ'),"
      " TIMESTAMPDIFF(SECOND, i.started_at, IFNULL(i.ended_at, NOW(3))), i.cause"
      " FROM incidents i JOIN services s ON s.id = i.service_id"
      " WHERE s.group_id = ? AND (i.ended_at IS NULL OR i.ended_at > NOW() - INTERVAL ? DAY)"
      " ORDER BY i.started_at DESC LIMIT ?");
  st.setInt64(1, group_id);
  st.setInt(2, n);
  st.setInt(3, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<IncidentRow> out;
  while (rs->next())
    out.push_back({get_int(*rs, 1), get_string(*rs, 2), opt_string(*rs, 3), get_int(*rs, 4), get_string(*rs, 5)});
  return out;
}

}  // namespace dozor::db::status
