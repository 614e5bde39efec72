#pragma once
// Response-time buckets of the rollups (migration 0007) and the figures read from them.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace dozor::monitor {

constexpr std::size_t kBuckets = 16;
// Upper bounds in ms of buckets 0..14; bucket 15 holds everything slower.
constexpr std::array<std::int64_t, kBuckets - 1> kBucketBounds = {50,   100,  200,  300,  500,   750,   1000, 1500,
                                                                  2000, 3000, 5000, 7500, 10000, 15000, 30000};

std::size_t bucket_of(std::int64_t ms);

// The 95th percentile as the upper bound of the bucket it falls in (the slowest bucket answers
// `max_ms`); nothing when no response was timed.
std::optional<std::int64_t> p95_of(const std::array<std::uint64_t, kBuckets>& counts, std::int64_t max_ms);

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
