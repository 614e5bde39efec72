#pragma once
// The reads analytics and history make (rollups: migration 0007, db/rollups_repo): a fixed
// number of queries per request, whatever the number of services.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "engines/monitor/rollup.hpp"
#include "engines/monitor/uptime.hpp"

namespace dozor::db::analytics {

struct ServiceRow {
  std::int64_t id = 0;
  std::string name;
  std::string url;
  bool active = true;
  std::string state = "unknown";
  std::int64_t created_epoch = 0;
};
struct IncidentRow {
  std::int64_t service_id = 0;
  ::dozor::monitor::Span span;  // an open incident ends now
  bool ended = false;
};
struct TimingRow {
  std::int64_t service_id = 0;
  ::dozor::monitor::rollup::Figures figures;  // the last 24 hourly rows merged
};

std::int64_t now_epoch(Connection& c);
std::vector<ServiceRow> services_of(Connection& c, std::int64_t user_id);
// Incidents of the user's services that overlap the last `days` days.
std::vector<IncidentRow> incidents_of(Connection& c, std::int64_t user_id, int days);
// Hourly rollups of the last 24 hours, summed per service.
std::vector<TimingRow> timings_24h(Connection& c, std::int64_t user_id);
// Time-weighted figures per service for the 7 d window (the last 168 hourly rows) and the 30 d
// window (the last 30 daily rows, today's included); the 24 h window is in timings_24h.
struct WatchedRow {
  std::int64_t service_id = 0;
  ::dozor::monitor::Watched week, month;
};
std::vector<WatchedRow> watched_of(Connection& c, std::int64_t user_id);

// One service's history: points of raw checks (24 h) or of rollups (hour for 7 and 30 days,
// day for 365).
struct Point {
  std::string t;  // ISO 8601 UTC
  std::uint64_t checks = 0, failures = 0;
  std::optional<std::int64_t> avg_ms, p95_ms;
  std::int64_t observed_ms = 0, down_ms = 0;  // rollup points only
};
std::vector<Point> raw_points(Connection& c, std::int64_t service_id, int hours);
// The rows whose bucket starts less than `days` days ago: 24 × days hourly rows, `days` daily ones.
std::vector<Point> rollup_points(Connection& c, std::int64_t service_id, const std::string& period, int days);

struct Incident {
  std::int64_t id = 0;
  std::string started_at;
  std::optional<std::string> ended_at;
  std::int64_t duration_seconds = 0;
  std::string cause;
};
std::vector<Incident> incidents(Connection& c, std::int64_t service_id, int limit);

}  // namespace dozor::db::analytics
