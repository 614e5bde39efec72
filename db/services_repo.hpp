#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::services {

struct Service {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string name;
  std::string url;
  std::int64_t check_interval = 60;
  bool is_active = true;
  std::optional<std::string> last_status;
  std::optional<std::int64_t> last_response_time;
  std::optional<std::string> last_checked_at;
};

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
// The new id, or nothing when the owner already has max_per_user services.
std::optional<std::int64_t> insert(Connection& c, const Service& s, int max_per_user);
bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// Stores one check and the service's latest state, in one transaction.
void record_check(Connection& c, const CheckRecord& r);

}  // namespace dozor::db::services
