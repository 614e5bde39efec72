#include "engines/monitor/rollup.hpp"

#include <algorithm>

namespace dozor::monitor {

std::size_t bucket_of(std::int64_t ms) {
  auto it = std::lower_bound(kBucketBounds.begin(), kBucketBounds.end(), ms);
  return static_cast<std::size_t>(it - kBucketBounds.begin());
}

std::optional<std::int64_t> p95_of(const std::array<std::uint64_t, kBuckets>& counts, std::int64_t max_ms) {
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  if (total == 0) return std::nullopt;
  // The smallest bucket by which at least 95 % of the responses are counted.
  std::uint64_t need = (total * 95 + 99) / 100;
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts[i];
    if (seen >= need) return i < kBucketBounds.size() ? std::min(kBucketBounds[i], max_ms) : max_ms;
  }
  return max_ms;
}

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
