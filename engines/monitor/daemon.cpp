#include "engines/monitor/daemon.hpp"

#include <sodium.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <vector>

#include "db/errors.hpp"
#include "db/monitor_repo.hpp"
#include "db/rollups_repo.hpp"
#include "engines/monitor/cert_warning.hpp"
#include "engines/monitor/debounce.hpp"
#include "engines/monitor/rollup_store.hpp"
#include "engines/monitor/schedule.hpp"
#include "engines/monitor/service_check.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::monitor {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kClaimEvery = 1s;
constexpr auto kHeartbeatEvery = 10s;
constexpr auto kStateRowsEvery = 5s;
constexpr auto kPurgeEvery = 1min;
constexpr auto kPurgeBudget = 2s;  // per round: retention never holds the checks back for long
constexpr int kPurgeChunk = 5000;  // rows per DELETE: short row locks, bounded undo
constexpr int kHeartbeatRetentionDays = 7;
constexpr int kNewStateRows = 1000;  // services given a schedule per round
constexpr auto kFlushEvery = 500ms;
constexpr auto kAliveEvery = 5s;
constexpr std::size_t kFlushAt = 200;        // results per write transaction
constexpr std::size_t kMaxUnstored = 20000;  // results kept while the database is away
constexpr int kClaimBatch = 500;
// A location is alive while its heartbeat (every 10 s) is younger than this.
constexpr int kLocationAliveSeconds = 30;
// A service waiting for another location's re-check goes back to any location after this.
constexpr int kHandoverSeconds = 20;

std::string sql_now(std::time_t* epoch_out, std::int64_t* ms_out = nullptr) {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  if (epoch_out) *epoch_out = secs;
  if (ms_out) *ms_out = ms;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return std::string(buf) + "." + std::to_string(1000 + ms % 1000).substr(1);
}

// This process's resident memory (/proc/self/statm), for the heartbeat and /metrics.
std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * sysconf(_SC_PAGESIZE);
}

std::int64_t cpu_ms() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  auto ms = [](const timeval& t) { return std::int64_t{t.tv_sec} * 1000 + t.tv_usec / 1000; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

std::string make_owner() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + std::to_string(getpid()) + ":" + std::to_string(randombytes_random());
}

// Runs fn; a database that is away is logged and tried again on the next round.
template <typename Fn>
bool try_db(const char* what, Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const db::DbError& e) {
    std::cerr << "dozord: " << what << ": " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "dozord: " << what << ": " << e.what() << "\n";
  }
  return false;
}

}  // namespace

Daemon::Daemon(const config::Config& cfg, db::Database& db, const net::EgressPolicy& egress, OutboxSender& outbox)
    : cfg_(cfg), db_(db), egress_(egress), outbox_(outbox), owner_(make_owner()) {}

void Daemon::purge(Clock::time_point deadline) {
  // Retention in short DELETEs until nothing is left or the round's budget is spent: at 10,000
  // services every minute, a day brings 14 million checks to delete.
  struct Target {
    const char* what;
    std::function<int(db::Connection&)> run;
  };
  const int raw_days = cfg_.monitor.retention_days, rollup_days = cfg_.monitor.rollup_retention_days;
  Target targets[] = {
      {"retention of checks", [&](db::Connection& c) { return db::monitor::purge_checks(c, raw_days, kPurgeChunk); }},
      {"retention of hourly rollups",
       [&](db::Connection& c) { return db::rollups::purge(c, db::rollups::Table::Hourly, rollup_days, kPurgeChunk); }},
      {"retention of daily rollups",
       [&](db::Connection& c) { return db::rollups::purge(c, db::rollups::Table::Daily, rollup_days, kPurgeChunk); }},
      {"retention of heartbeats",
       [&](db::Connection& c) { return db::monitor::purge_heartbeats(c, kHeartbeatRetentionDays); }},
  };
  for (auto& target : targets) {
    int deleted = kPurgeChunk;
    while (deleted >= kPurgeChunk && Clock::now() < deadline) {
      deleted = 0;
      // Deleting what is past retention is idempotent: repeating it after a lost connection is harmless.
      if (!try_db(target.what,
                  [&] { db_.run([&](db::Connection& c) { deleted = target.run(c); }, db::Retry::OnLostConnection); }))
        return;
    }
  }
  for (auto& extra : extra_retention_) {
    if (Clock::now() >= deadline) return;
    if (!try_db(extra.first.c_str(), [&extra] { extra.second(); })) return;
  }
}

void Daemon::add_retention(std::string what, std::function<int()> step) {
  extra_retention_.emplace_back(std::move(what), std::move(step));
}

DaemonStats Daemon::run(const std::atomic<bool>& stop, const std::function<void()>& alive) {
  DaemonStats stats;
  net::MultiFetcher fetcher(egress_);
  std::vector<db::monitor::Outcome> unstored;
  Thresholds thresholds;
  thresholds.failures_to_down = cfg_.monitor.failures_to_down;
  thresholds.successes_to_up = cfg_.monitor.successes_to_up;
  thresholds.location = cfg_.monitor.location;
  int live_locations = 1;  // refreshed with each heartbeat
  std::time_t started_epoch = 0;
  std::string started_at = sql_now(&started_epoch);
  OutboxPump pump(outbox_);
  auto never = Clock::now() - 24h;
  auto last_claim = never, last_beat = never, last_rows = never, last_purge = never, last_flush = Clock::now(),
       last_alive = never;

  auto on_result = [&](const db::monitor::Due& due, net::CheckOutcome r) {
    db::monitor::Outcome o;
    o.due = due;
    o.checked_at = sql_now(&o.checked_at_epoch, &o.checked_at_ms);
    auto verdict = judge(due.url, rules_of(due.options), r);
    o.available = verdict.available;
    o.error = verdict.error;
    if (r.responded) {
      if (r.status > 0) o.status_code = r.status;
      o.response_time_ms = r.total_ms;
    }
    o.dns_ms = r.dns_ms;
    o.connect_ms = r.connect_ms;
    o.tls_ms = r.tls_ms;
    o.first_byte_ms = r.first_byte_ms;
    o.cert_expires = r.cert_expires;
    o.location = cfg_.monitor.location;
    o.warn_cert =
        should_warn_cert(o.cert_expires, due.cert_warned_epoch, o.checked_at_epoch, cfg_.monitor.cert_warning_days);
    // Confirmation by other locations asks no more of them than are alive to give it.
    thresholds.locations_required = std::clamp(live_locations, 1, cfg_.monitor.confirm_locations);
    auto d = decide(Counters{parse_state(due.state), due.failures, due.successes, due.failed_locations}, o.available,
                    due.interval, thresholds);
    o.new_state = to_string(d.next.state);
    o.failures = d.next.failures;
    o.successes = d.next.successes;
    o.failed_locations = d.next.failed_locations;
    o.awaiting_location = d.awaiting_location;
    o.went_down = d.went_down;
    o.went_up = d.went_up;
    o.next_check_in = d.next_check_in;
    ++stats.checks_done;
    if (unstored.size() < kMaxUnstored) unstored.push_back(std::move(o));
  };

  auto flush = [&] {
    if (unstored.empty()) return;
    std::vector<db::monitor::Outcome> batch(unstored.begin(),
                                            unstored.begin() + static_cast<long>(std::min(unstored.size(), kFlushAt)));
    int transitions = 0;
    std::vector<rollup::Sample> samples;
    // Not retried on a lost connection: a COMMIT that reached the server must not store twice;
    // the batch stays queued and the lease check keeps a late retry from moving state twice.
    // Checks, state, incidents, outbox events and rollups commit together.
    if (try_db("storing results", [&] {
          db_.run(
              [&](db::Connection& c) {
                c.transaction([&] {
                  transitions = db::monitor::record(c, owner_, batch, cfg_.monitor.timeout, samples);
                  store_rollups(c, samples);
                });
              },
              db::Retry::Never);
        })) {
      unstored.erase(unstored.begin(), unstored.begin() + static_cast<long>(batch.size()));
      stats.transitions += transitions;
    }
    last_flush = Clock::now();
  };

  while (!stop.load()) {
    auto now = Clock::now();
    if (now - last_rows >= kStateRowsEvery) {
      try_db("state rows", [&] {
        db_.run(
            [&](db::Connection& c) {
              std::vector<std::pair<std::int64_t, std::int64_t>> offsets;
              for (auto [id, interval] : db::monitor::services_without_state(c, kNewStateRows))
                offsets.emplace_back(id, spread_offset_ms(id, interval));
              db::monitor::add_state_rows(c, offsets);
            },
            db::Retry::OnLostConnection);
      });
      last_rows = now;
    }
    if (now - last_claim >= kClaimEvery) {
      int room = cfg_.monitor.max_in_flight - static_cast<int>(fetcher.in_flight());
      bool backlog = false;  // a full batch: more may be due, claim again on the next turn
      if (room > 0) {
        std::vector<db::monitor::Due> due;
        // Not retried: a claim whose COMMIT was lost would be re-claimed only after its lease.
        try_db("claiming", [&] {
          db_.run(
              [&](db::Connection& c) {
                db::monitor::Claim claim;
                claim.owner = owner_;
                claim.location = cfg_.monitor.location;
                claim.limit = std::min(room, kClaimBatch);
                claim.lease_seconds = cfg_.monitor.lease_seconds;
                claim.handover_seconds = kHandoverSeconds;
                due = db::monitor::claim_due(c, claim);
              },
              db::Retry::Never);
        });
        backlog = static_cast<int>(due.size()) == std::min(room, kClaimBatch);
        for (auto& d : due) {
          auto req = request_for(d.url, rules_of(d.options), std::chrono::seconds(cfg_.monitor.timeout));
          fetcher.start(std::move(req), [&on_result, d](net::CheckOutcome r) { on_result(d, std::move(r)); });
        }
      }
      // Without a backlog once a second; with one, at once (bounded by max_in_flight), so the
      // claim rate is not what limits how many services one dozord can check.
      last_claim = backlog ? never : now;
    }
    if (now - last_beat >= kHeartbeatEvery) {
      try_db("heartbeat", [&] {
        db_.run(
            [&](db::Connection& c) {
              db::monitor::Beat beat;
              beat.owner = owner_;
              beat.location = cfg_.monitor.location;
              beat.pid = static_cast<int>(getpid());
              beat.started_at = started_at;
              beat.checks_done = stats.checks_done;
              beat.rss_bytes = resident_bytes();
              beat.cpu_ms = cpu_ms();
              beat.in_flight = static_cast<std::int64_t>(fetcher.in_flight());
              db::monitor::heartbeat(c, beat);
              live_locations = db::monitor::live_locations(c, kLocationAliveSeconds);
            },
            db::Retry::OnLostConnection);
      });
      last_beat = now;
    }
    if (now - last_purge >= kPurgeEvery) {
      purge(now + kPurgeBudget);
      last_purge = Clock::now();
    }
    fetcher.run(100ms);
    if (now - last_alive >= kAliveEvery) {
      alive();
      last_alive = now;
    }
    if (unstored.size() >= kFlushAt || Clock::now() - last_flush >= kFlushEvery) flush();
  }

  // Shutdown: the checks in flight finish within their timeout; then everything is stored.
  auto deadline = Clock::now() + std::chrono::seconds(cfg_.monitor.timeout + 1);
  while (fetcher.in_flight() > 0 && Clock::now() < deadline) fetcher.run(100ms);
  for (int i = 0; i < 100 && !unstored.empty(); ++i) {
    auto before = unstored.size();
    flush();
    if (unstored.size() == before) break;  // the database is away: the leases expire instead
  }
  try_db("releasing leases", [&] {
    db_.run([&](db::Connection& c) { db::monitor::release_all(c, owner_); }, db::Retry::OnLostConnection);
  });
  return stats;
}

}  // namespace dozor::monitor
