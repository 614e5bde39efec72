#include "engines/monitor/rollup.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

using namespace dozor::monitor::rollup;

namespace {

// Nearest-rank p-quantile of raw values: what the histogram approximates.
std::int64_t exact_quantile(std::vector<std::int64_t> v, double q) {
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::max<std::size_t>(rank, 1) - 1];
}

constexpr std::int64_t kT0 = 1'700'000'000'000;  // 2023-11-14T22:13:20Z, in ms

}  // namespace

BOOST_AUTO_TEST_SUITE(rollup)

BOOST_AUTO_TEST_CASE(every_value_falls_in_its_bucket_and_buckets_are_narrow) {
  for (std::int64_t v = 0; v <= Histogram::kMaxValue; v += (v < 4096 ? 1 : 7)) {
    auto i = Histogram::index_of(v);
    BOOST_REQUIRE_LT(i, Histogram::kBuckets);
    auto [lo, hi] = Histogram::range_of(i);
    BOOST_REQUIRE_LE(lo, v);
    BOOST_REQUIRE_GE(hi, v);
    if (v < 32) BOOST_REQUIRE_EQUAL(lo, hi);  // exact for small times
    BOOST_REQUIRE_LE(static_cast<double>(hi - lo + 1), static_cast<double>(lo) / 16.0 + 1.0);
  }
  BOOST_TEST(Histogram::index_of(-5) == 0u);
  BOOST_TEST(Histogram::index_of(Histogram::kMaxValue * 10) == Histogram::kBuckets - 1);
}

BOOST_AUTO_TEST_CASE(p95_is_within_three_percent_of_the_exact_nearest_rank) {
  std::vector<std::int64_t> values;
  for (std::int64_t i = 0; i < 1000; ++i) values.push_back(40 + (i * 7919) % 3000);  // spread 40..3039 ms
  Histogram h;
  for (auto v : values) h.add(v);
  auto exact = exact_quantile(values, 0.95);
  auto approx = h.quantile(0.95);
  BOOST_REQUIRE(approx.has_value());
  BOOST_TEST(std::abs(static_cast<double>(*approx - exact)) <= static_cast<double>(exact) / 32.0 + 1,
             *approx << " vs " << exact);
  BOOST_TEST(!Histogram{}.quantile(0.95).has_value());
}

BOOST_AUTO_TEST_CASE(p95_follows_the_slow_tail_exactly_at_the_rank) {
  Figures f;
  auto add = [&](std::int64_t ms, int n) {
    for (int i = 0; i < n; ++i) {
      f.hist.add(ms);
      f.rt_max_ms = std::max(f.rt_max_ms.value_or(0), ms);
    }
  };
  add(10, 95);
  add(2000, 5);
  BOOST_TEST(*f.p95() == 10);    // rank 95 of 100 is still a fast one
  add(2000, 1);                  // now rank ceil(95.95) = 96 is slow
  BOOST_TEST(*f.p95() == 2000);  // the bucket midpoint, capped by the largest time seen
}

BOOST_AUTO_TEST_CASE(merged_histograms_equal_the_histogram_of_all_values) {
  Histogram a, b, all;
  for (std::int64_t v = 1; v < 500; v += 3) {
    a.add(v);
    all.add(v);
  }
  for (std::int64_t v = 250; v < 9000; v += 11) {
    b.add(v);
    all.add(v);
  }
  a.merge(b);
  BOOST_TEST((a == all));
  BOOST_TEST(a.count() == all.count());
  BOOST_TEST(*a.quantile(0.95) == *all.quantile(0.95));
}

BOOST_AUTO_TEST_CASE(histogram_text_round_trips_and_bad_text_is_empty) {
  Histogram h;
  h.add(3, 2);
  h.add(100);
  h.add(250000, 7);
  auto text = h.encode();
  BOOST_TEST(text == "3:2,57:1,238:7");
  BOOST_TEST((Histogram::decode(text) == h));
  BOOST_TEST(Histogram::decode("").count() == 0u);
  for (const char* bad : {"3", "3:", "x:1", "3:1,", "999:1", "3:1;4:1", "-1:2"})
    BOOST_TEST(Histogram::decode(bad).count() == 0u, bad);
}

BOOST_AUTO_TEST_CASE(a_span_is_cut_at_hour_and_day_boundaries) {
  // 2023-11-14 22:59:30 → 23:00:30: half a minute in each hour, one day.
  std::int64_t hour_end = (kT0 / 3'600'000 + 1) * 3'600'000;
  auto parts = split_span(hour_end - 30'000, hour_end + 30'000, kHour);
  BOOST_REQUIRE_EQUAL(parts.size(), 2u);
  BOOST_TEST(parts[0].first == hour_end / 1000 - 3600);
  BOOST_TEST(parts[0].second == 30'000);
  BOOST_TEST(parts[1].first == hour_end / 1000);
  BOOST_TEST(parts[1].second == 30'000);
  BOOST_TEST(split_span(hour_end - 30'000, hour_end + 30'000, kDay).size() == 1u);
  // Three hours and a bit: every millisecond lands somewhere, once.
  auto long_parts = split_span(kT0, kT0 + 3 * 3'600'000 + 5, kHour);
  std::int64_t total = 0;
  for (auto [start, ms] : long_parts) total += ms;
  BOOST_TEST(total == 3 * 3'600'000 + 5);
  BOOST_TEST(long_parts.size() == 4u);
  BOOST_TEST(split_span(kT0, kT0, kHour).empty());
}

BOOST_AUTO_TEST_CASE(time_weighted_downtime_and_counts_per_bucket) {
  // One service, one hour: up for 45 minutes, then down for 15, checked every 5 minutes.
  std::int64_t h0 = (kT0 / 3'600'000 + 1) * 3'600'000;
  std::vector<Sample> samples;
  for (int i = 1; i <= 12; ++i) {
    Sample s;
    s.service_id = 7;
    s.checked_at_ms = h0 + i * 300'000 - 1;  // inside the hour, the last at 59:59.999
    bool down_before = i > 9;                // the checks at 50, 55, 60 min find it down
    s.available = i <= 9;
    s.response_ms = s.available ? std::optional<std::int64_t>(100 + i) : std::nullopt;
    s.span = Sample::Span{h0 + (i - 1) * 300'000 - 1, s.checked_at_ms, down_before};
    samples.push_back(s);
  }
  samples.front().span->from_ms = h0;  // the hour's first span starts at its start
  Buckets hourly;
  accumulate(hourly, samples, kHour);
  BOOST_REQUIRE_EQUAL(hourly.size(), 1u);
  const Figures& f = hourly.begin()->second;
  BOOST_TEST(hourly.begin()->first.second == h0 / 1000);
  BOOST_TEST(f.checks == 12);
  BOOST_TEST(f.failures == 3);
  BOOST_TEST(f.observed_ms == 3'600'000 - 1);
  BOOST_TEST(f.down_ms == 3 * 300'000);
  BOOST_TEST(f.rt_count == 9);
  BOOST_TEST(f.rt_sum_ms == 9 * 100 + 45);
  BOOST_TEST(*f.rt_max_ms == 109);
  BOOST_TEST(std::abs(*uptime(f) - (1.0 - 900'000.0 / 3'599'999.0)) < 1e-12);
  BOOST_TEST(!uptime(Figures{}).has_value());
}

BOOST_AUTO_TEST_CASE(a_check_without_a_span_counts_but_accounts_no_time) {
  Sample s;
  s.service_id = 1;
  s.checked_at_ms = kT0;
  s.available = false;
  Buckets daily;
  accumulate(daily, {s}, kDay);
  const Figures& f = daily.begin()->second;
  BOOST_TEST(f.checks == 1);
  BOOST_TEST(f.failures == 1);
  BOOST_TEST(f.observed_ms == 0);
  BOOST_TEST(f.rt_count == 0);
  BOOST_TEST(!f.rt_max_ms.has_value());
}

BOOST_AUTO_TEST_CASE(figures_merge_like_one_bucket) {
  Sample a, b;
  a.service_id = b.service_id = 3;
  a.checked_at_ms = kT0;
  b.checked_at_ms = kT0 + 1000;
  a.available = true;
  a.response_ms = 50;
  b.response_ms = 900;
  a.span = Sample::Span{kT0 - 60'000, kT0, false};
  b.span = Sample::Span{kT0, kT0 + 1000, true};
  Buckets one, parts_a, parts_b;
  accumulate(one, {a, b}, kHour);
  accumulate(parts_a, {a}, kHour);
  accumulate(parts_b, {b}, kHour);
  Figures merged = parts_a.begin()->second;
  merged.merge(parts_b.begin()->second);
  BOOST_TEST((merged == one.begin()->second));
}

BOOST_AUTO_TEST_CASE(unwatched_time_is_capped) {
  BOOST_TEST(max_span_ms(60, 10) == (120 + 10 + 5) * 1000);
  BOOST_TEST(max_span_ms(10, 10) == 35'000);
}

BOOST_AUTO_TEST_SUITE_END()
