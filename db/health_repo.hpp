#pragma once
// What /monitoring/health reads from the database: the schema's version, every dozord's
// heartbeat, how far scheduled checks lag, the task queue and the notification backlog —
// a constant number of statements whatever the number of services.
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::health {

struct Schema {
  int version = 0;  // the newest applied migration
  std::string name;
  int applied = 0;
};
Schema schema(Connection& c);

struct Beat {
  std::string owner;
  std::string location;
  std::int64_t pid = 0;
  std::int64_t age_ms = 0;  // since its last heartbeat
  std::int64_t in_flight = 0;
  std::int64_t checks_done = 0;
  std::int64_t started_at = 0;  // Unix seconds
};

struct Backlog {
  std::vector<Beat> daemons;          // beats of the last `recent_days` (older rows are purged)
  std::int64_t overdue_services = 0;  // active services whose next check is past and not leased
  std::int64_t check_lag_ms = 0;      // how long the most overdue of them has waited
  std::int64_t tasks_queued = 0;
  std::int64_t tasks_running = 0;
  std::int64_t outbox_pending = 0;
  std::int64_t outbox_oldest_ms = 0;  // age of the oldest pending notification
};
Backlog backlog(Connection& c, int recent_days);

}  // namespace dozor::db::health
