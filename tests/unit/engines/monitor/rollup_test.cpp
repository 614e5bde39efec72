#include "engines/monitor/rollup.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::monitor;

BOOST_AUTO_TEST_SUITE(rollup)

BOOST_AUTO_TEST_CASE(buckets_by_upper_bound) {
  BOOST_TEST(bucket_of(0) == 0u);
  BOOST_TEST(bucket_of(50) == 0u);  // N: the bound belongs to its bucket
  BOOST_TEST(bucket_of(51) == 1u);  // N + 1: the next one
  BOOST_TEST(bucket_of(30000) == 14u);
  BOOST_TEST(bucket_of(30001) == 15u);
}

BOOST_AUTO_TEST_CASE(p95_is_the_bound_of_the_bucket_holding_it) {
  std::array<std::uint64_t, kBuckets> c{};
  BOOST_TEST(!p95_of(c, 0).has_value());
  c[1] = 95;  // 95 responses ≤ 100 ms
  c[8] = 5;   // 5 responses ≤ 2000 ms
  BOOST_TEST(*p95_of(c, 1800) == 100);
  c[1] = 94;
  c[8] = 6;
  BOOST_TEST(*p95_of(c, 1800) == 1800);  // the bucket's bound (2000) capped by the real maximum
  std::array<std::uint64_t, kBuckets> slow{};
  slow[15] = 3;
  BOOST_TEST(*p95_of(slow, 45000) == 45000);
}

BOOST_AUTO_TEST_CASE(down_time_is_counted_once_and_only_inside_the_window) {
  std::vector<Span> down{{100, 200}, {150, 250}, {900, 1100}};
  BOOST_TEST(seconds_within(down, 0, 1000) == 250);  // 100..250 and 900..1000
  BOOST_TEST(seconds_within(down, 200, 1000) == 150);
  BOOST_TEST(seconds_within({}, 0, 1000) == 0);
}

BOOST_AUTO_TEST_CASE(uptime_counts_from_when_monitoring_began) {
  std::vector<Span> down{{0, 3600}};
  BOOST_TEST(*uptime_percent(down, 0, 0, 86400) == 100.0 * 23 / 24, boost::test_tools::tolerance(1e-9));
  // Created half-way through the window: the hour down is 1/12 of what was monitored.
  BOOST_TEST(*uptime_percent({{43200, 46800}}, 43200, 0, 86400) == 100.0 * 11 / 12, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(!uptime_percent(down, 90000, 0, 86400).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
