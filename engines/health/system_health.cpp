#include "engines/health/system_health.hpp"

#include <sys/statvfs.h>

#include <algorithm>

namespace dozor::health {
namespace {

std::string seconds(std::int64_t ms) { return std::to_string(ms / 1000) + " s"; }

}  // namespace

const char* name(Level l) {
  switch (l) {
    case Level::Ok: return "ok";
    case Level::Degraded: return "degraded";
    case Level::Down: return "down";
  }
  return "down";
}

void Part::degrade(std::string why) {
  level = std::max(level, Level::Degraded);
  reasons.push_back(std::move(why));
}

void Part::fail(std::string why) {
  level = Level::Down;
  reasons.push_back(std::move(why));
}

DiskFigures disk_figures(std::string role, std::string path) {
  DiskFigures d{std::move(role), std::move(path)};
  struct statvfs s {};
  if (statvfs(d.path.c_str(), &s) == 0) {
    d.readable = true;
    d.free_bytes = static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;  // what an unprivileged writer gets
    d.total_bytes = static_cast<std::uint64_t>(s.f_blocks) * s.f_frsize;
  }
  return d;
}

Part assess_pool(const std::optional<PoolFigures>& pool) {
  Part p;
  if (!pool) {
    p.degrade("no scoreboard: the pool's figures are unknown");
    return p;
  }
  if (pool->state == PoolState::Stopping || pool->state == PoolState::Stopped) {
    p.degrade(std::string("the pool is ") + name(pool->state));
    return p;
  }
  // While starting or reloading a generation is being forked: fewer workers are expected.
  if (pool->state != PoolState::Running) return p;
  int current = static_cast<int>(std::count_if(pool->workers.begin(), pool->workers.end(), [&](const WorkerFigures& w) {
    return w.generation == pool->generation;
  }));
  if (current < pool->configured_workers)
    p.degrade(std::to_string(current) + " of " + std::to_string(pool->configured_workers) + " workers alive");
  return p;
}

Part assess_database(const DatabaseFigures& d) {
  Part p;
  if (!d.reachable) {
    p.fail("the database cannot be reached" + (d.error.empty() ? std::string() : ": " + d.error));
    return p;
  }
  if (d.latency_us > kDbSlowMs * 1000) p.degrade("a round trip took " + std::to_string(d.latency_us / 1000) + " ms");
  return p;
}

Part assess_monitor(const db::health::Backlog& b) {
  Part p;
  bool any_live = false;
  for (const auto& d : b.daemons) {
    if (d.age_ms < kHeartbeatStaleMs)
      any_live = true;
    else
      p.degrade("dozord " + d.owner + " (" + d.location + ") silent for " + seconds(d.age_ms));
  }
  if (!any_live) p.degrade("no dozord wrote a heartbeat in the last " + seconds(kHeartbeatStaleMs));
  if (b.overdue_services > 0 && b.check_lag_ms > kCheckLagMs)
    p.degrade(std::to_string(b.overdue_services) + " services overdue, the oldest by " + seconds(b.check_lag_ms));
  if (b.outbox_pending > 0 && b.outbox_oldest_ms > kOutboxOldestMs)
    p.degrade(std::to_string(b.outbox_pending) + " notifications waiting, the oldest for " +
              seconds(b.outbox_oldest_ms));
  return p;
}

Part assess_analyzer(const AnalyzerFigures& a) {
  Part p;
  if (!a.configured) return p;  // no analyzer in this installation: nothing to judge
  if (!a.reachable)
    p.degrade("the analyzer cannot be reached at " + a.url + (a.reason.empty() ? "" : ": " + a.reason));
  else if (!a.ready)
    p.degrade("the analyzer is not ready" + (a.reason.empty() ? std::string() : ": " + a.reason));
  return p;
}

Part assess_disks(const std::vector<DiskFigures>& disks) {
  Part p;
  for (const auto& d : disks) {
    if (!d.readable) {
      p.degrade("the " + d.role + " directory " + d.path + " cannot be examined");
      continue;
    }
    bool low_ratio =
        d.total_bytes > 0 && static_cast<double>(d.free_bytes) < kDiskFreeRatio * static_cast<double>(d.total_bytes);
    if (low_ratio || d.free_bytes < kDiskFreeBytes)
      p.degrade("the " + d.role + " directory " + d.path + " has " + std::to_string(d.free_bytes >> 20) + " MiB free");
  }
  return p;
}

Level overall(const std::vector<const Part*>& parts) {
  Level l = Level::Ok;
  for (const Part* p : parts) l = std::max(l, p->level);
  return l;
}

}  // namespace dozor::health
