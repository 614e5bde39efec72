#pragma once
// One availability check of a service: a real request through the egress gate, judged by the
// service's check options, stored as a check row, with the service's last status updated.
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"
#include "db/services_repo.hpp"
#include "engines/monitor/check_rules.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::monitor {

struct CheckResult {
  std::int64_t service_id = 0;
  std::string checked_at;  // ISO 8601 UTC with milliseconds
  bool is_available = false;
  std::optional<int> status_code;
  std::optional<std::int64_t> response_time_ms;
  std::optional<std::string> error;
};

// The stored options as the rules engines/monitor/check_rules judges by.
CheckRules rules_of(const db::services::CheckOptions& o);

// Throws NotFound when the service does not exist or belongs to another user.
CheckResult check_service(db::Database& db, const net::EgressPolicy& egress, int timeout_s, std::int64_t user_id,
                          std::int64_t service_id);

}  // namespace dozor::monitor
