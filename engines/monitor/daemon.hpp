#pragma once
// dozord's loop: claim due services from MariaDB, check them all at once on one MultiFetcher,
// store results in batches with their state changes, beat the heartbeat. One thread; the only
// blocking calls are database statements, each bounded by the statement timeout.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "db/database.hpp"
#include "engines/config/config.hpp"
#include "engines/monitor/outbox_sender.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::monitor {

struct DaemonStats {
  std::int64_t checks_done = 0;
  std::int64_t transitions = 0;
};

class Daemon {
 public:
  // `outbox` delivers notifications on a thread of its own while run() runs.
  Daemon(const config::Config& cfg, db::Database& db, const net::EgressPolicy& egress, OutboxSender& outbox);

  // Runs until `stop` becomes true, then finishes the checks in flight (bounded by the check
  // timeout), stores them and releases its leases.
  // `alive` is called at least every few seconds while the loop turns (the systemd watchdog).
  DaemonStats run(const std::atomic<bool>& stop, const std::function<void()>& alive);

  const std::string& owner() const { return owner_; }

  // Retention of something beside the monitor's tables (the vault's trash): `step` deletes at
  // most a chunk and returns how many went; it runs with the other retention, every minute.
  void add_retention(std::string what, std::function<int()> step);

 private:
  // Retention: deletes what is past it, in chunks, until done or `deadline`.
  void purge(std::chrono::steady_clock::time_point deadline);

  const config::Config& cfg_;
  db::Database& db_;
  const net::EgressPolicy& egress_;
  OutboxSender& outbox_;
  std::string owner_;  // host:pid:random, unique per run
  std::vector<std::pair<std::string, std::function<int()>>> extra_retention_;
};

}  // namespace dozor::monitor
