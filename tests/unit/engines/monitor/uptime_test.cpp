#include "engines/monitor/uptime.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::monitor;

BOOST_AUTO_TEST_SUITE(uptime)

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
