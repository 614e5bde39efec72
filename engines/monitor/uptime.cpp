#include "engines/monitor/uptime.hpp"

#include <algorithm>

namespace dozor::monitor {

std::int64_t seconds_within(std::vector<Span> spans, std::int64_t from, std::int64_t to) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  std::int64_t total = 0, covered_to = from;
  for (const auto& s : spans) {
    std::int64_t a = std::max({s.start, from, covered_to}), b = std::min(s.end, to);
    if (b > a) total += b - a;
    covered_to = std::max(covered_to, std::min(s.end, to));
  }
  return total;
}

std::optional<double> uptime_percent(const std::vector<Span>& down, std::int64_t monitored_since, std::int64_t from,
                                     std::int64_t to) {
  std::int64_t start = std::max(from, monitored_since);
  if (to <= start) return std::nullopt;
  std::int64_t d = seconds_within(down, start, to);
  return 100.0 * static_cast<double>(to - start - d) / static_cast<double>(to - start);
}

}  // namespace dozor::monitor
