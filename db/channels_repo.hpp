#pragma once
// Notification channels of a user (spec §4.7). `params` is the stored JSON object, secrets in
// clear: only engines/notify reads it for sending, and answers mask it (engines/secrets).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::channels {

// The channel's latest delivered outbox message (alerts, not tests: tests are sent inline).
struct LastDelivery {
  std::string at;    // ISO 8601 UTC with milliseconds
  std::string kind;  // service_down, service_up, cert_expiring, owasp_findings
  std::optional<std::string> service_name;
};

// The channel's latest failed send attempt of an outbox message, and what became of the message.
struct LastFailure {
  std::string at;
  std::string error;
  std::string state;  // the message now: pending (retried later), sent, failed (given up), cancelled
};

struct Channel {
  std::int64_t id = 0;
  std::string type;
  bool enabled = true;
  std::string params_json;
  // From the outbox (migration 0034), filled by every read below; empty for a channel just made.
  std::optional<LastDelivery> last_delivery;
  std::optional<LastFailure> last_failure;
};

std::vector<Channel> list_by_user(Connection& c, std::int64_t user_id);
std::vector<Channel> list_enabled(Connection& c, std::int64_t user_id);
std::optional<Channel> find_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// The user's oldest channel of `type` (the one the bulk route updates).
std::optional<Channel> first_of_type(Connection& c, std::int64_t user_id, const std::string& type);
// Legacy columns (spec §4.7 rule 2) are filled from the new ones: name = type, config = "{}",
// is_active = enabled.
std::int64_t insert(Connection& c, std::int64_t user_id, const Channel& ch);
bool update_owned(Connection& c, std::int64_t user_id, const Channel& ch);
bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id);

// The user's channels, counted under a lock of the user's row: inside a transaction, concurrent
// creates of one user wait for each other, so a bound checked on this count holds.
std::int64_t count_locked(Connection& c, std::int64_t user_id);

// One test notification in flight per user (migration 0025): a claim row with a lease, so a
// process that dies mid-test frees the user after the lease. Claims in a transaction of its own;
// nullopt when claimed, else the seconds until the holder's lease ends (at least 1).
std::optional<long> claim_test(Connection& c, std::int64_t user_id, const std::string& owner, int lease_seconds);
void release_test(Connection& c, std::int64_t user_id, const std::string& owner);

}  // namespace dozor::db::channels
