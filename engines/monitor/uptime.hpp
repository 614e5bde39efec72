#pragma once
// Time-weighted uptime from down periods (incidents): what the analytics summary reports.
#include <cstdint>
#include <optional>
#include <vector>

namespace dozor::monitor {

// A down period [start, end) in seconds since 1970.
struct Span {
  std::int64_t start = 0;
  std::int64_t end = 0;
};

// Seconds of `spans` inside [from, to); overlapping spans count once.
std::int64_t seconds_within(std::vector<Span> spans, std::int64_t from, std::int64_t to);

// Percent of [from, to) not covered by down spans, over the part of the window after
// `monitored_since`; nothing when no part of the window was monitored.
std::optional<double> uptime_percent(const std::vector<Span>& down, std::int64_t monitored_since, std::int64_t from,
                                     std::int64_t to);

}  // namespace dozor::monitor
