#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::services {

// The per-service check options (engines/monitor/check_rules.hpp says what they mean).
struct CheckOptions {
  std::string method = "GET";
  std::optional<std::string> expected_status;
  std::optional<std::string> keyword;
  bool keyword_absent = false;
};

struct Service {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string name;
  std::string url;
  std::int64_t check_interval = 60;
  bool is_active = true;
  std::optional<std::int64_t> group_id;
  CheckOptions options;
  std::optional<std::int64_t> slow_ms;
  // Read-only, from service_state: the latest check and the monitor's debounced view.
  std::optional<std::string> last_status;
  std::optional<std::int64_t> last_response_time;
  std::optional<std::string> last_checked_at;
  std::string state = "unknown";  // up | down | unknown
  std::optional<std::string> down_since;
  std::optional<std::string> last_error;
  std::optional<std::string> cert_expires_at;
  // When dozord checks it next (null until dozord has seen the service).
  std::optional<std::string> next_check_at;
};

// A partial edit: an absent member is left as it is; for nullable columns the inner nullopt
// means "set to NULL".
struct ServiceUpdate {
  std::optional<std::string> name, url, method;
  std::optional<std::int64_t> check_interval;
  std::optional<bool> is_active, keyword_absent;
  std::optional<std::optional<std::int64_t>> group_id, slow_ms;
  std::optional<std::optional<std::string>> expected_status, keyword;
};

enum class UpdateResult { Updated, NotFound, NoSuchGroup };

struct CheckRecord {
  std::int64_t service_id = 0;
  std::int64_t user_id = 0;  // the owner
  std::string checked_at;    // "YYYY-MM-DD HH:MM:SS.mmm" UTC
  bool is_available = false;
  std::optional<int> status_code;
  std::optional<std::int64_t> response_time_ms;
  std::optional<std::string> error;
};

std::vector<Service> list_by_user(Connection& c, std::int64_t user_id);
std::optional<Service> find_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// Creates and deletes bump the owner's users.services_rev first (the user row is their first
// lock, so concurrent writers queue instead of deadlocking); a check result writes no user row.
struct Inserted {
  std::optional<std::int64_t> id;  // set when stored
  bool full = false;               // the owner already has max_per_user services
  bool no_such_group = false;      // group_id is not one of the owner's groups
};
Inserted insert(Connection& c, const Service& s, int max_per_user);
bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// Applies `u` to the owner's service (the group must be the owner's too). A new URL makes the
// service due at once; pausing forgets the debounced state and closes an open incident
// (docs/monitoring.md, "Editing a service").
UpdateResult update_owned(Connection& c, std::int64_t user_id, std::int64_t id, const ServiceUpdate& u);
// Stores one check and the service's latest state, in one transaction.
void record_check(Connection& c, const CheckRecord& r);

}  // namespace dozor::db::services
