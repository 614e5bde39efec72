#pragma once
// Recurring scans of a service (issue 9 §1, docs/tasks.md "Schedules"): the API creates, lists
// and deletes them; dozord's task keeper queues each run when it is due.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <string>

#include "db/database.hpp"

namespace dozor::tasks {

// Creates or updates the caller's schedule of `kind` for the service (see db::schedules::upsert).
// NotFound for another user's service; the caller has checked that the service is a web site.
boost::json::object schedule_service(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                     const std::string& kind, int interval_hours);

boost::json::array list_schedules(db::Database& db, std::int64_t user_id);

// NotFound unless the caller owns the schedule.
void delete_schedule(db::Database& db, std::int64_t user_id, std::int64_t id);

// Queues a task for every due schedule (one transaction: the task and the schedule's next run
// move together, so no run is queued twice). A run whose previous task is still queued or running
// is skipped, not stacked. Returns the number of tasks queued.
int fire_due_schedules(db::Database& db);

}  // namespace dozor::tasks
