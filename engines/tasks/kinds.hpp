#pragma once
// Task kinds (issue 9 §1, docs/tasks.md): what a queued task may be, the options each takes, and
// how dozord runs one. The same engines serve the inline routes, so a task and a route answer
// alike; a task only gets a larger time budget (tasks.task_seconds) and cancellation.
#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.hpp"
#include "engines/audit/data.hpp"
#include "engines/cancel.hpp"
#include "engines/config/config.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::tasks {

// An integer option with its bounds and default (the only kind of option today's kinds take).
struct IntOption {
  const char* name;
  int min;
  int max;
  int fallback;
};

// An optional string option (absent ones are not stored); at most max_chars characters.
struct StringOption {
  const char* name;
  std::size_t max_chars;
};

// A rule across a kind's options (which may hold secrets: the message never quotes a value).
struct OptionProblem {
  std::string field;
  std::string message;
};
using OptionCheck = std::optional<OptionProblem> (*)(const boost::json::object& options, const std::string& target);

struct KindSpec {
  std::string_view name;
  std::vector<IntOption> options;
  bool active = false;                     // attack traffic: only targets the caller may scan (engines/scan/access)
  std::vector<StringOption> strings = {};  // auth-scan: its credentials (docs/scan.md "Auth scan")
  OptionCheck check = nullptr;             // auth-scan: one way of logging in, usable against the target
};

// "scan" (the full audit, geolocation included), "audit", "crawl", "owasp" (the active scan),
// "scanner" (the template scan), "endpoints" (endpoint discovery), "api-check" (the API check),
// "auth-scan" (the auth scan); nullptr for any other name.
const KindSpec* find_kind(std::string_view name);
// The names above in a sentence for an error message: "'scan', …, 'scanner' or 'endpoints'".
std::string kind_list();

// What a running task needs from its process.
struct TaskEnv {
  const config::Config& cfg;
  const net::EgressPolicy& egress;
  std::shared_ptr<const audit::AuditData> audit_data;
  db::Database& db;
  std::string jwt_key = {};  // signs the analyzer's token of an audit task; empty: documents not read
};

struct TaskSpec {
  std::int64_t user_id = 0;
  std::string kind;
  std::string target;
  boost::json::object options;             // validated against the kind (every option present)
  std::optional<std::int64_t> service_id;  // a service's task: started for it, or by its schedule
};

struct TaskOutcome {
  boost::json::object result;
  std::optional<std::int64_t> audit_id;  // audits are stored as the inline route stores them
};

using ProgressFn = std::function<void(int percent, const std::string& phase)>;

// Runs the task to its end, its time budget or `cancel`. Throws on failure (the message becomes
// the task's error).
TaskOutcome run_kind(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress);

}  // namespace dozor::tasks
