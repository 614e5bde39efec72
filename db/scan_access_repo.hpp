#pragma once
// Scan grants and the scan log (db/migrations/0019_scan_access.sql, docs/scan.md "Who may scan what").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::scan_access {

bool has_grant(Connection& c, std::int64_t user_id);
// Grants (again: the time and admin are renewed) or revokes; false when the user does not exist
// (grant) or had no grant (revoke).
bool grant(Connection& c, std::int64_t user_id, std::int64_t admin_id);
bool revoke(Connection& c, std::int64_t user_id);

struct LogEntry {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string kind;
  std::string target;
  std::string via;  // inline | task | schedule
  bool allowed = false;
  std::string reason;
  std::string created_at;  // ISO 8601 UTC, milliseconds
};

void log(Connection& c, const LogEntry& e);  // id and created_at are the database's

// Newest first: one user's entries, or everyone's when `user_id` is empty; below `before_id` when given.
std::vector<LogEntry> list(Connection& c, std::optional<std::int64_t> user_id, std::optional<std::int64_t> before_id,
                           int limit);

// Deletes entries older than `days` days; returns how many.
std::int64_t purge(Connection& c, int days);

}  // namespace dozor::db::scan_access
