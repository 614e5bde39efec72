#pragma once
// The queue as the API sees it (docs/tasks.md): add a task, read it (owner or admin), its public
// status (anyone holding the id: state and progress only), the caller's list, cancel.
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"
#include "engines/tasks/kinds.hpp"

namespace dozor::tasks {

struct NewTaskRequest {
  std::int64_t user_id = 0;
  std::string kind;
  std::string target;
  boost::json::object options;  // validated against the kind, every option present
  std::optional<std::int64_t> service_id;
};

// Stores the task as queued and returns its JSON. Throws Busy when the user already has
// `queued_per_user` queued or running tasks.
boost::json::object enqueue(db::Database& db, const NewTaskRequest& request, int queued_per_user);

// The task with its result once it has one. NotFound unless the caller owns it or is an admin.
boost::json::object read(db::Database& db, const std::string& id, std::int64_t caller_id, bool caller_is_admin);

// {"task_id", "status", "progress", "phase", "created_at", "started_at", "finished_at"}: never the
// target, the owner, the options, the error or the result. NotFound for an unknown id.
boost::json::object public_status(db::Database& db, const std::string& id);

// {"items": [task without result, newest first], "total", "limit", "offset"}.
boost::json::object list(db::Database& db, std::int64_t user_id, int limit, int offset);

// Cancels the caller's task (a queued one at once, a running one at its next checkpoint) and
// returns its JSON. NotFound for another user's or an unknown task.
boost::json::object cancel(db::Database& db, const std::string& id, std::int64_t user_id);

}  // namespace dozor::tasks
