#include "engines/monitor/uptime.hpp"

#include <algorithm>
#include <cmath>

namespace dozor::monitor {

std::optional<double> uptime_percent(std::int64_t observed_ms, std::int64_t down_ms) {
  if (observed_ms <= 0) return std::nullopt;
  std::int64_t up = observed_ms - std::clamp<std::int64_t>(down_ms, 0, observed_ms);
  // Integer arithmetic for the floor: 100 000 × up / observed thousandths of a percent.
  auto thousandths = static_cast<std::int64_t>((static_cast<long double>(up) * 100000.0L) / observed_ms);
  return static_cast<double>(thousandths) / 1000.0;
}

}  // namespace dozor::monitor
