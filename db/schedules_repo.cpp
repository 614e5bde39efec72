#include "db/schedules_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::schedules {
namespace {

std::string columns() {
  return "s.id, s.user_id, s.service_id, s.kind, s.interval_hours, " + iso_ms_column("s.next_run_at") +
         ", s.last_task_id, " + iso_ms_column("s.last_run_at") + ", " + iso_ms_column("s.created_at");
}

Schedule read_row(sql::ResultSet& rs) {
  Schedule s;
  s.id = get_int(rs, 1);
  s.user_id = get_int(rs, 2);
  s.service_id = get_int(rs, 3);
  s.kind = get_string(rs, 4);
  s.interval_hours = rs.getInt(5);
  s.next_run_at = get_string(rs, 6);
  s.last_task_id = opt_string(rs, 7);
  s.last_run_at = opt_string(rs, 8);
  s.created_at = get_string(rs, 9);
  return s;
}

}  // namespace

std::int64_t upsert(Connection& c, std::int64_t user_id, std::int64_t service_id, const std::string& kind,
                    int interval_hours) {
  auto& st = c.prepare(
      "INSERT INTO schedules (user_id, service_id, kind, interval_hours, next_run_at, created_at)"
      " VALUES (?, ?, ?, ?, NOW(3), NOW(3)) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id),"
      " interval_hours = VALUES(interval_hours),"
      " next_run_at = IF(last_run_at IS NULL, next_run_at,"
      "   GREATEST(last_run_at + INTERVAL VALUES(interval_hours) HOUR, NOW(3)))");
  st.setInt64(1, user_id);
  st.setInt64(2, service_id);
  st.setString(3, kind);
  st.setInt(4, interval_hours);
  st.executeUpdate();
  return c.last_insert_id();
}

std::optional<Schedule> find(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare("SELECT " + columns() + " FROM schedules s WHERE s.id = ? AND s.user_id = ?");
  st.setInt64(1, id);
  st.setInt64(2, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read_row(*rs);
}

std::vector<Schedule> list(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT " + columns() + " FROM schedules s WHERE s.user_id = ? ORDER BY s.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Schedule> out;
  while (rs->next()) out.push_back(read_row(*rs));
  return out;
}

bool remove(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare("DELETE FROM schedules WHERE id = ? AND user_id = ?");
  st.setInt64(1, id);
  st.setInt64(2, user_id);
  return st.executeUpdate() > 0;
}

std::vector<Due> lock_due(Connection& c, int limit) {
  std::vector<Due> out;
  {
    auto& st = c.prepare("SELECT " + columns() +
                         " FROM schedules s WHERE s.next_run_at <= NOW(3) ORDER BY s.next_run_at LIMIT ?"
                         " FOR UPDATE SKIP LOCKED");
    st.setInt(1, limit);
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) out.push_back({read_row(*rs), {}, {}});
  }
  // Plain reads: the service and the last task are not locked, only the schedule is.
  for (auto& due : out) {
    auto& url = c.prepare("SELECT url FROM services WHERE id = ?");
    url.setInt64(1, due.schedule.service_id);
    std::unique_ptr<sql::ResultSet> rs(url.executeQuery());
    if (rs->next()) due.service_url = get_string(*rs, 1);
    if (!due.schedule.last_task_id) continue;
    auto& state = c.prepare("SELECT state FROM tasks WHERE id = ?");
    state.setString(1, *due.schedule.last_task_id);
    std::unique_ptr<sql::ResultSet> ts(state.executeQuery());
    if (ts->next()) due.last_task_state = get_string(*ts, 1);
  }
  return out;
}

void advance(Connection& c, std::int64_t id, const std::optional<std::string>& task_id) {
  auto& st = c.prepare(
      "UPDATE schedules SET"
      " next_run_at = IF(next_run_at + INTERVAL interval_hours HOUR > NOW(3), next_run_at + INTERVAL interval_hours"
      "   HOUR, NOW(3) + INTERVAL interval_hours HOUR),"
      " last_task_id = IFNULL(?, last_task_id), last_run_at = IF(? IS NULL, last_run_at, NOW(3))"
      " WHERE id = ?");
  bind_optional(st, 1, task_id);
  bind_optional(st, 2, task_id);
  st.setInt64(3, id);
  st.executeUpdate();
}

}  // namespace dozor::db::schedules
