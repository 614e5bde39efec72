#include "engines/monitor/rollup.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

namespace dozor::monitor::rollup {

std::size_t Histogram::index_of(std::int64_t ms) {
  auto v = static_cast<std::uint64_t>(std::clamp<std::int64_t>(ms, 0, kMaxValue));
  if (v < 32) return static_cast<std::size_t>(v);
  int k = static_cast<int>(std::bit_width(v)) - 1;  // v in [2^k, 2^(k+1)), k >= 5
  auto sub = (v >> (k - 4)) - 16;                   // 16 equal parts of that range
  return 32 + static_cast<std::size_t>(k - 5) * 16 + static_cast<std::size_t>(sub);
}

std::pair<std::int64_t, std::int64_t> Histogram::range_of(std::size_t i) {
  if (i < 32) return {static_cast<std::int64_t>(i), static_cast<std::int64_t>(i)};
  int k = 5 + static_cast<int>((i - 32) / 16);
  auto sub = static_cast<std::int64_t>((i - 32) % 16);
  std::int64_t width = std::int64_t{1} << (k - 4);
  std::int64_t lo = (16 + sub) * width;
  return {lo, lo + width - 1};
}

void Histogram::add(std::int64_t ms, std::uint64_t count) {
  counts_[index_of(ms)] += count;
  total_ += count;
}

void Histogram::merge(const Histogram& other) {
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
}

std::optional<std::int64_t> Histogram::quantile(double q) const {
  if (total_ == 0) return std::nullopt;
  auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(total_)));
  rank = std::max<std::uint64_t>(rank, 1);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      auto [lo, hi] = range_of(i);
      return lo + (hi - lo) / 2;
    }
  }
  return std::nullopt;  // unreachable: the counts sum to total_
}

std::string Histogram::encode() const {
  std::string out;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (counts_[i] == 0) continue;
    if (!out.empty()) out += ',';
    out += std::to_string(i);
    out += ':';
    out += std::to_string(counts_[i]);
  }
  return out;
}

Histogram Histogram::decode(const std::string& text) {
  Histogram h;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    std::size_t index = 0;
    std::uint64_t count = 0;
    auto r1 = std::from_chars(p, end, index);
    if (r1.ec != std::errc() || r1.ptr == end || *r1.ptr != ':' || index >= kBuckets) return {};
    auto r2 = std::from_chars(r1.ptr + 1, end, count);
    if (r2.ec != std::errc()) return {};
    h.counts_[index] += count;
    h.total_ += count;
    p = r2.ptr;
    if (p < end) {
      if (*p != ',' || p + 1 == end) return {};
      ++p;
    }
  }
  return h;
}

void Figures::merge(const Figures& o) {
  checks += o.checks;
  failures += o.failures;
  observed_ms += o.observed_ms;
  down_ms += o.down_ms;
  rt_count += o.rt_count;
  rt_sum_ms += o.rt_sum_ms;
  if (o.rt_max_ms) rt_max_ms = std::max(rt_max_ms.value_or(0), *o.rt_max_ms);
  hist.merge(o.hist);
}

std::optional<std::int64_t> Figures::p95() const {
  auto q = hist.quantile(0.95);
  if (q && rt_max_ms) return std::min(*q, *rt_max_ms);
  return q;
}

std::int64_t max_span_ms(int interval_seconds, int timeout_seconds) {
  // A healthy schedule checks every interval; a check may start up to a claim round late and
  // take the whole timeout. Twice the interval plus that is the most a watched service waits.
  return (2 * std::int64_t{interval_seconds} + timeout_seconds + 5) * 1000;
}

std::vector<std::pair<std::int64_t, std::int64_t>> split_span(std::int64_t from_ms, std::int64_t to_ms,
                                                              std::int64_t bucket_seconds) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  const std::int64_t size = bucket_seconds * 1000;
  std::int64_t t = from_ms;
  while (t < to_ms) {
    // floor division: times before 1970 never occur, but keep the arithmetic honest
    std::int64_t start = (t >= 0 ? t / size : (t - size + 1) / size) * size;
    std::int64_t end = std::min(start + size, to_ms);
    out.emplace_back(start / 1000, end - t);
    t = end;
  }
  return out;
}

void accumulate(Buckets& out, const std::vector<Sample>& samples, std::int64_t bucket_seconds) {
  for (const auto& s : samples) {
    std::int64_t size = bucket_seconds * 1000;
    std::int64_t start = s.checked_at_ms / size * size / 1000;
    auto& f = out[{s.service_id, start}];
    ++f.checks;
    if (!s.available) ++f.failures;
    if (s.response_ms) {
      ++f.rt_count;
      f.rt_sum_ms += *s.response_ms;
      f.rt_max_ms = std::max(f.rt_max_ms.value_or(0), *s.response_ms);
      f.hist.add(*s.response_ms);
    }
    if (!s.span) continue;
    for (auto [bucket, ms] : split_span(s.span->from_ms, s.span->to_ms, bucket_seconds)) {
      auto& g = out[{s.service_id, bucket}];
      g.observed_ms += ms;
      if (s.span->down) g.down_ms += ms;
    }
  }
}

std::optional<double> uptime(const Figures& f) {
  if (f.observed_ms <= 0) return std::nullopt;
  return 1.0 - static_cast<double>(f.down_ms) / static_cast<double>(f.observed_ms);
}

}  // namespace dozor::monitor::rollup
