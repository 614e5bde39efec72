#pragma once
// The contract between the monitor (which decides that a service went down or came back) and
// the notifier (which tells the owner): a transition is written to the outbox, one row per
// enabled channel, inside the monitor's own transaction, so the change and its messages commit
// together or not at all.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "db/database.hpp"

namespace dozor::notify {

struct Transition {
  std::int64_t user_id = 0;
  std::int64_t service_id = 0;
  std::int64_t incident_id = 0;  // the down period this transition opens or closes
  bool up = false;               // false: up→down; true: down→up
  std::string service_name;
  std::string url;
  std::string error;                // the failure that caused the outage (down), empty on recovery
  std::int64_t outage_seconds = 0;  // on recovery: how long the service was down
  std::string at;                   // ISO 8601 UTC time of the transition
};

// A certificate about to expire, told at most once per day (engines/monitor/cert_warning).
struct CertWarning {
  std::int64_t user_id = 0;
  std::int64_t service_id = 0;
  std::string service_name;
  std::string url;
  std::string expires_at;      // ISO 8601 UTC
  std::int64_t days_left = 0;  // negative once expired
  std::string day;             // YYYY-MM-DD (UTC) of the warning: part of its event key
};

// New high or critical findings of a scheduled OWASP scan, told once per scan.
struct NewFindings {
  std::int64_t user_id = 0;
  std::int64_t service_id = 0;
  std::int64_t scan_id = 0;  // the stored scan: part of the event key
  std::string service_name;
  std::string url;
  std::int64_t total = 0;                                // new serious findings in all
  std::vector<std::pair<std::string, std::string>> top;  // (severity, title), at most limits::owasp::kNotifiedTitles
};

// The idempotency key of a transition: the same incident's down (or up) event is one event.
std::string event_key(const Transition& t);

// Writes one outbox row per enabled channel of t.user_id; a row already there for the same
// event is left as it is. Returns the number of rows written. Call inside a transaction.
int enqueue(db::Connection& c, const Transition& t);
int enqueue(db::Connection& c, const CertWarning& w);
int enqueue(db::Connection& c, const NewFindings& f);

}  // namespace dozor::notify
