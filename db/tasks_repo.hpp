#pragma once
// The task queue (db/migrations/0016_tasks.sql, docs/tasks.md). Reads that serve a user name the
// owner; the runner's writes name the claim (claimed_by), so a runner whose lease was taken over
// can no longer change the task.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::tasks {

struct NewTask {
  std::string id;
  std::int64_t user_id = 0;
  std::string kind;
  std::string target;
  std::string origin;
  std::optional<std::int64_t> service_id;
  std::string options_json;
};

struct TaskRow {
  std::string id;
  std::int64_t user_id = 0;
  std::string kind;
  std::string target;
  std::optional<std::int64_t> service_id;
  std::string options_json;
  std::string state;
  int progress = 0;
  std::string phase;
  int attempts = 0;
  bool cancel_requested = false;
  std::string created_at;  // ISO 8601 UTC, milliseconds
  std::optional<std::string> started_at;
  std::optional<std::string> finished_at;
  std::optional<std::string> error;
  std::optional<std::string> result_json;  // only from find(..., with_result = true)
  std::optional<std::int64_t> audit_id;
};

// Queued and running tasks of the user (the per-user queue limit).
int open_count(Connection& c, std::int64_t user_id);

void insert(Connection& c, const NewTask& t);

std::optional<TaskRow> find(Connection& c, const std::string& id, bool with_result);

// The user's tasks, newest first, without results; and how many there are.
std::vector<TaskRow> list(Connection& c, std::int64_t user_id, int limit, int offset);
int count(Connection& c, std::int64_t user_id);

// Cancels the user's task: a queued one at once, a running one at its runner's next checkpoint.
// Returns the state after the call, or nullopt when the user has no such task.
std::optional<std::string> request_cancel(Connection& c, const std::string& id, std::int64_t user_id);

struct ClaimLimits {
  int per_user = 2;  // running tasks of one user, every runner together
  int lease_seconds = 60;
  int candidates = 20;  // queued rows looked at per claim
};

// Claims the oldest queued task whose user is under its limit and whose origin has no running
// task: state running, attempts + 1, leased to `owner`. One transaction.
std::optional<TaskRow> claim(Connection& c, const std::string& owner, const ClaimLimits& limits);

// Renews the lease and records progress. Returns whether cancellation was requested, or nullopt
// when `owner` no longer holds the task (taken over after an expired lease).
std::optional<bool> heartbeat(Connection& c, const std::string& id, const std::string& owner, int progress,
                              const std::string& phase, int lease_seconds);

// Ends the task (succeeded | failed | cancelled) if `owner` still holds it; false otherwise.
bool finish(Connection& c, const std::string& id, const std::string& owner, const std::string& state,
            const std::optional<std::string>& error, const std::optional<std::string>& result_json,
            std::optional<std::int64_t> audit_id);

// An orderly stop: back to the queue, the attempt not counted.
void release(Connection& c, const std::string& id, const std::string& owner);

// Tasks whose lease passed: queued again, or failed once they had `max_attempts` claims (cancelled
// when cancellation had been asked for). Returns how many were handled.
int reap_expired(Connection& c, int max_attempts);

// Finished tasks older than `days`, at most `chunk` of them. Returns how many were deleted.
int purge_finished(Connection& c, int days, int chunk);

}  // namespace dozor::db::tasks
