#include "engines/monitor/schedule.hpp"

#include <algorithm>

namespace dozor::monitor {

std::int64_t spread_offset_ms(std::int64_t service_id, int interval_seconds) {
  // frac(id / φ) in 64-bit fixed point: multiplication by 2^64 / φ, modulo 2^64.
  constexpr std::uint64_t kInverseGolden = 0x9E3779B97F4A7C15ULL;
  std::uint64_t frac = static_cast<std::uint64_t>(service_id) * kInverseGolden;
  auto interval_ms = static_cast<std::uint64_t>(std::max(interval_seconds, 1)) * 1000;
  // (frac / 2^64) × interval_ms, with the top 32 bits of frac: exact enough, no overflow.
  return static_cast<std::int64_t>(((frac >> 32) * interval_ms) >> 32);
}

std::int64_t next_due_ms(std::int64_t due_ms, std::int64_t now_ms, int interval_seconds) {
  std::int64_t interval_ms = std::int64_t{std::max(interval_seconds, 1)} * 1000;
  std::int64_t next = due_ms + interval_ms;
  if (next > now_ms) return next;
  std::int64_t missed = (now_ms - next) / interval_ms + 1;  // slots already past
  return next + missed * interval_ms;
}

}  // namespace dozor::monitor
