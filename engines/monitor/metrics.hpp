#pragma once
// Prometheus text exposition (format 0.0.4) of the monitor's state for /metrics: per service
// (debounced up, latest response time, check and failure counters, certificate expiry), per
// dozord (alive, checks, memory, CPU, checks in flight) and the notification backlog. Read with
// a constant number of statements whatever the number of services.
#include <cstdint>
#include <string>

#include "db/database.hpp"
#include "db/monitor_repo.hpp"

namespace dozor::monitor {

// A dozord whose heartbeat (every 10 s) is older than this is reported as not up.
constexpr std::int64_t kDaemonStaleMs = 30000;

// A label value with \, " and newline escaped as the text format requires.
std::string escape_label(const std::string& value);

std::string render_metrics(const db::monitor::MetricsSnapshot& m);

std::string metrics_text(db::Database& db);

}  // namespace dozor::monitor
