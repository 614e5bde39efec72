#pragma once
// Hourly and daily rollups of check results (docs/monitoring.md, "Rollups"). Pure logic: dozord
// and the on-demand check route turn results into Samples, fold them into Buckets here, and
// db/rollups_repo merges the Buckets into the stored rows.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dozor::monitor::rollup {

// Response times in log-linear buckets (the HdrHistogram layout with 16 sub-buckets per power
// of two): exact below 32 ms, within 1/32 (3 %) above. Mergeable by adding counts, so the p95 of
// a day, a week or a month comes from the sum of the hours' histograms, not from averaging p95s.
class Histogram {
 public:
  static constexpr std::size_t kBuckets = 256;
  static constexpr std::int64_t kMaxValue = (std::int64_t{1} << 19) - 1;  // 524 s: past any timeout

  static std::size_t index_of(std::int64_t ms);
  // The smallest and largest value of bucket i.
  static std::pair<std::int64_t, std::int64_t> range_of(std::size_t i);

  void add(std::int64_t ms, std::uint64_t count = 1);
  void merge(const Histogram& other);
  std::uint64_t count() const { return total_; }
  // Nearest rank: the value at rank ceil(q × n), reported as its bucket's midpoint (so within
  // 3 % of the true value); nullopt when empty.
  std::optional<std::int64_t> quantile(double q) const;

  // "index:count" pairs, ascending, comma-separated: short for the usual few buckets.
  std::string encode() const;
  // The inverse of encode(); malformed text gives an empty histogram (a row written by a
  // future version must not stop dozord).
  static Histogram decode(const std::string& text);

  bool operator==(const Histogram& o) const { return counts_ == o.counts_; }

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t total_ = 0;
};

// One rollup row's figures.
struct Figures {
  std::int64_t checks = 0;
  std::int64_t failures = 0;
  std::int64_t observed_ms = 0;  // time the debounced state was known (up or down)
  std::int64_t down_ms = 0;      // of which down
  std::int64_t rt_count = 0;     // checks with a response time
  std::int64_t rt_sum_ms = 0;
  std::optional<std::int64_t> rt_max_ms;
  Histogram hist;

  void merge(const Figures& o);
  // The histogram's p95, never above the largest time seen.
  std::optional<std::int64_t> p95() const;
  bool operator==(const Figures& o) const = default;
};

// What one check adds. `span` is the time before it whose state it accounts for: the interval
// (from_ms, to_ms] spent in `span_down ? down : up` (only the state's owner accounts time; a
// check that accounts none has no span).
struct Sample {
  std::int64_t service_id = 0;
  std::int64_t checked_at_ms = 0;  // Unix time, milliseconds
  bool available = false;
  std::optional<std::int64_t> response_ms;
  struct Span {
    std::int64_t from_ms = 0;
    std::int64_t to_ms = 0;
    bool down = false;
  };
  std::optional<Span> span;
};

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 86400;

// (service id, bucket start in Unix seconds, UTC) → figures.
using Key = std::pair<std::int64_t, std::int64_t>;
using Buckets = std::map<Key, Figures>;

// The longest span a check may account for: past it, the service was not watched (dozord
// stopped, the service paused) and that time counts as neither up nor down.
std::int64_t max_span_ms(int interval_seconds, int timeout_seconds);

// Cuts (from_ms, to_ms] at bucket boundaries of `bucket_seconds`: (bucket start, ms in it).
std::vector<std::pair<std::int64_t, std::int64_t>> split_span(std::int64_t from_ms, std::int64_t to_ms,
                                                              std::int64_t bucket_seconds);

// Adds samples to buckets of `bucket_seconds` (kHour or kDay).
void accumulate(Buckets& out, const std::vector<Sample>& samples, std::int64_t bucket_seconds);

// Uptime of figures as a fraction of observed time; nullopt when nothing was observed.
std::optional<double> uptime(const Figures& f);

}  // namespace dozor::monitor::rollup
