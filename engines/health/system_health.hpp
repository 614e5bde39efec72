#pragma once
// /monitoring/health's judgement: each part of the system (the web pool, the database, the
// heartbeat monitor, the analyzer, the disks) gets ok, degraded or down with the reasons, and
// the whole is the worst part. Free of I/O: the handler gathers the figures (docs/health.md).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/health_repo.hpp"
#include "engines/config/config.hpp"
#include "engines/health/scoreboard.hpp"

namespace dozor::health {

// When a part stops being ok. A dozord beats every 10 s.
inline constexpr std::int64_t kHeartbeatStaleMs = 30'000;
inline constexpr std::int64_t kCheckLagMs = 60'000;       // the most overdue scheduled check
inline constexpr std::int64_t kOutboxOldestMs = 300'000;  // the oldest undelivered notification
inline constexpr std::int64_t kDbSlowMs = 1'000;          // one round trip
inline constexpr double kDiskFreeRatio = 0.05;            // of a state directory's file system
inline constexpr std::uint64_t kDiskFreeBytes = 512ULL << 20;
inline constexpr int kHeartbeatDays = 1;  // dozords silent for longer are no longer listed

enum class Level { Ok, Degraded, Down };
const char* name(Level l);

struct Part {
  Level level = Level::Ok;
  std::vector<std::string> reasons;
  void degrade(std::string why);
  void fail(std::string why);  // down
};

struct DatabaseFigures {
  bool reachable = false;
  std::string error;  // why it is not (no secrets: the driver's message is not passed on)
  std::int64_t latency_us = 0;
  db::health::Schema schema;
};

// The analyzer as its /health answered through nginx's internal listener.
struct AnalyzerFigures {
  bool configured = true;  // analyzer.listen set
  std::string url;
  bool reachable = false;
  bool ready = false;
  int status = 0;      // HTTP status of its /health
  std::string reason;  // its own reason, or why it could not be asked
  std::string model_name, model_version;
  std::int64_t uptime_seconds = 0;
  std::int64_t documents_analysed = 0;
  std::int64_t in_flight = 0;
};

struct DiskFigures {
  std::string role;  // "state", "vault"
  std::string path;
  bool readable = false;
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
};
DiskFigures disk_figures(std::string role, std::string path);  // statvfs

Part assess_pool(const std::optional<PoolFigures>& pool);
Part assess_database(const DatabaseFigures& d);
Part assess_monitor(const db::health::Backlog& b);
Part assess_analyzer(const AnalyzerFigures& a);
Part assess_disks(const std::vector<DiskFigures>& disks);
Level overall(const std::vector<const Part*>& parts);

}  // namespace dozor::health

// ---- Gathering (engines/health/examine.cpp)

namespace dozor::health {

inline constexpr std::chrono::milliseconds kAnalyzerProbeTimeout{2000};

struct Report {
  std::optional<PoolFigures> pool;  // nullopt without a scoreboard
  DatabaseFigures database;
  std::optional<db::health::Backlog> monitor;  // nullopt when the database cannot be read
  AnalyzerFigures analyzer;
  std::vector<DiskFigures> disks;
  Part pool_part, database_part, monitor_part, analyzer_part, disk_part;
  Level level = Level::Ok;
};

// Reads every part (the analyzer's probe and the database each bounded by their timeouts) and
// judges it.
Report examine(db::Database& db, const config::Config& cfg, const Scoreboard* board);

}  // namespace dozor::health
