#pragma once
// dozord's tables (migration 0004): claiming due services with a lease, recording check results
// with their state changes and incidents, and the daemon heartbeat. docs/monitoring.md.
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::monitor {

// A service claimed for checking, with its counters as they were at the claim.
struct Due {
  std::int64_t service_id = 0;
  std::int64_t user_id = 0;
  std::string name;
  std::string url;
  int interval = 60;
  std::string state = "unknown";
  int failures = 0;
  int successes = 0;
  std::optional<std::int64_t> open_incident_id;
  std::optional<std::int64_t> down_since_epoch;  // seconds since 1970, UTC
};

// Gives every service without a state row one, first due at a point spread over its interval
// (by id), so services created together are not all checked in the same second.
void ensure_state_rows(Connection& c);

// Claims up to `limit` active, due services whose lease is free or expired, for `owner` until
// now + lease_seconds. Several dozords claim concurrently without overlap (SKIP LOCKED).
std::vector<Due> claim_due(Connection& c, const std::string& owner, int limit, int lease_seconds);

// What one finished check changes.
struct Outcome {
  Due due;
  std::string checked_at;  // DATETIME(3) text, UTC
  std::time_t checked_at_epoch = 0;
  bool available = false;
  std::optional<int> status_code;
  std::optional<std::int64_t> response_time_ms, dns_ms, connect_ms, tls_ms, first_byte_ms;
  std::optional<std::time_t> cert_expires;
  std::optional<std::string> error;
  std::string location;
  // The decision (engines/monitor/debounce).
  std::string new_state;
  int failures = 0;
  int successes = 0;
  bool went_down = false;
  bool went_up = false;
  int next_check_in = 60;
};

// Stores a batch in one transaction: check rows (skipped for services deleted meanwhile),
// state, incidents opened or closed, and one outbox event per transition; releases each lease
// held by `owner`. A result whose lease was lost to another dozord keeps its check row only.
// Returns the number of transitions written.
int record(Connection& c, const std::string& owner, const std::vector<Outcome>& batch);

// Releases leases of `owner` without results (shutdown): the services are due again at once.
void release_all(Connection& c, const std::string& owner);

void heartbeat(Connection& c, const std::string& owner, const std::string& location, int pid,
               const std::string& started_at, std::int64_t checks_done);

// Raw checks older than `days` are deleted, at most `limit` rows per call. Returns the count.
int purge_checks(Connection& c, int days, int limit);

}  // namespace dozor::db::monitor
