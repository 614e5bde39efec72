#pragma once
// Recurring scans of a service (db/migrations/0017_schedules.sql, docs/tasks.md "Schedules").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::schedules {

struct Schedule {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::int64_t service_id = 0;
  std::string kind;
  int interval_hours = 0;
  std::string next_run_at;  // ISO 8601 UTC, milliseconds
  std::optional<std::string> last_task_id;
  std::optional<std::string> last_run_at;
  std::string created_at;
};

// Creates the service's schedule of `kind` (first run now) or changes its interval (the next run
// is then the last run plus the new interval, or now when that has passed). Returns its id.
std::int64_t upsert(Connection& c, std::int64_t user_id, std::int64_t service_id, const std::string& kind,
                    int interval_hours);

std::optional<Schedule> find(Connection& c, std::int64_t user_id, std::int64_t id);
std::vector<Schedule> list(Connection& c, std::int64_t user_id);
bool remove(Connection& c, std::int64_t user_id, std::int64_t id);

struct Due {
  Schedule schedule;
  std::string service_url;
  std::optional<std::string> last_task_state;  // of last_task_id, when that task still exists
};

// Schedules whose next run has come, locked (FOR UPDATE SKIP LOCKED) until the transaction ends.
std::vector<Due> lock_due(Connection& c, int limit);

// After a due schedule was handled: the next run one interval later (or one interval from now when
// runs were missed: a missed run is made up once, not once per missed interval).
void advance(Connection& c, std::int64_t id, const std::optional<std::string>& task_id);

}  // namespace dozor::db::schedules
