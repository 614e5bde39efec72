#pragma once
// Uptime: one definition for every place that shows it — the analytics summary (and through it
// the dashboard and the kiosk), the public status page and the dashboard's uptime bars
// (docs/monitoring.md, "Uptime").
#include <cstdint>
#include <optional>

namespace dozor::monitor {

// A down period [start, end) in seconds since 1970 (incidents; counted by their start).
struct Span {
  std::int64_t start = 0;
  std::int64_t end = 0;
};

// Time-weighted figures of a window, summed from the rollups: the time a dozord watched the
// service and the part of it the service was down (its debounced state).
struct Watched {
  std::int64_t observed_ms = 0;
  std::int64_t down_ms = 0;
  void add(std::int64_t observed, std::int64_t down) {
    observed_ms += observed;
    down_ms += down;
  }
};

// Percent of the watched time the service was not down: 100 × (observed − down) / observed,
// floored to three decimals (a day with one bad minute is never shown as 100 %); nothing when
// nobody watched — time before the first check, while paused or while no dozord ran is neither
// up nor down.
std::optional<double> uptime_percent(std::int64_t observed_ms, std::int64_t down_ms);
inline std::optional<double> uptime_percent(const Watched& w) { return uptime_percent(w.observed_ms, w.down_ms); }

}  // namespace dozor::monitor
