#pragma once
// dozord's tables (migration 0004): claiming due services with a lease, recording check results
// with their state changes and incidents, and the daemon heartbeat. docs/monitoring.md.
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/services_repo.hpp"
#include "engines/monitor/rollup.hpp"

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
  services::CheckOptions options;
  std::optional<std::int64_t> cert_warned_epoch;  // when a certificate warning was last told
  std::vector<std::string> failed_locations;      // locations that saw the current run of failures
};

// Services without a state row yet (never seen by dozord): (id, check interval), at most `limit`.
std::vector<std::pair<std::int64_t, int>> services_without_state(Connection& c, int limit);

// Gives each (service id, offset in ms) a state row, first due at now + offset (an existing
// row is left as it is: another dozord was faster).
void add_state_rows(Connection& c, const std::vector<std::pair<std::int64_t, std::int64_t>>& offsets);

// Claims up to `limit` active, due services whose lease is free or expired, for `owner` until
// now + lease_seconds. Several dozords claim concurrently without overlap (SKIP LOCKED).
// A service awaiting another location's re-check is left to the other locations when
// `location` already saw it fail, unless it has been overdue for `handover_seconds` (no other
// location took it).
struct Claim {
  std::string owner;
  std::string location;
  int limit = 500;
  int lease_seconds = 30;
  int handover_seconds = 20;
};
std::vector<Due> claim_due(Connection& c, const Claim& claim);

// Distinct locations of the dozords that wrote a heartbeat in the last `seconds`.
int live_locations(Connection& c, int seconds);

// What one finished check changes.
struct Outcome {
  Due due;
  std::string checked_at;  // DATETIME(3) text, UTC
  std::time_t checked_at_epoch = 0;
  std::int64_t checked_at_ms = 0;  // the same instant in Unix milliseconds
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
  std::vector<std::string> failed_locations;
  bool awaiting_location = false;
  bool warn_cert = false;  // tell the owner the certificate expires soon (and remember the day)
};

// Stores a batch in one transaction: check rows (one multi-row INSERT; none for services deleted
// meanwhile), state, incidents opened or closed, and one outbox event per transition; releases
// each lease held by `owner`. A result whose lease was lost to another dozord keeps its check
// row only. Fills `samples` with what the rollups must add (one per stored check; the state
// holder's also accounts the time since the state was last accounted, at most
// `rollup::max_span_ms(interval, timeout_seconds)`). Returns the number of transitions written.
int record(Connection& c, const std::string& owner, const std::vector<Outcome>& batch, int timeout_seconds,
           std::vector<dozor::monitor::rollup::Sample>& samples);

// Releases leases of `owner` without results (shutdown): the services are due again at once.
void release_all(Connection& c, const std::string& owner);

// One dozord's heartbeat row: who and where it is, and its own figures.
struct Beat {
  std::string owner;
  std::string location;
  int pid = 0;
  std::string started_at;  // DATETIME(3) text, UTC
  std::int64_t checks_done = 0;
  std::int64_t rss_bytes = 0;
  std::int64_t cpu_ms = 0;
  std::int64_t in_flight = 0;
};
void heartbeat(Connection& c, const Beat& beat);

// What /metrics reports, read with a constant number of statements.
struct ServiceFigures {
  std::int64_t service_id = 0;
  std::int64_t user_id = 0;
  bool active = true;
  std::string state = "unknown";  // debounced
  std::optional<std::int64_t> last_response_ms;
  std::int64_t checks_total = 0;
  std::int64_t failures_total = 0;
  std::optional<std::int64_t> cert_expires;  // Unix seconds
};
struct DaemonFigures {
  std::string owner;
  std::string location;
  std::int64_t pid = 0;
  std::int64_t checks_done = 0;
  std::int64_t rss_bytes = 0;
  std::int64_t cpu_ms = 0;
  std::int64_t in_flight = 0;
  std::int64_t started_at = 0;   // Unix seconds
  std::int64_t beat_age_ms = 0;  // since its last heartbeat
};
struct MetricsSnapshot {
  std::vector<ServiceFigures> services;
  std::vector<DaemonFigures> daemons;
  std::int64_t outbox_pending = 0;
};
MetricsSnapshot metrics_snapshot(Connection& c);

// Raw checks older than `days` are deleted, at most `limit` rows per call. Returns the count.
int purge_checks(Connection& c, int days, int limit);

// Heartbeat rows of dozords silent for more than `days`. Returns the count.
int purge_heartbeats(Connection& c, int days);

}  // namespace dozor::db::monitor
