#include "engines/monitor/uptime.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::monitor;

BOOST_AUTO_TEST_SUITE(uptime)

BOOST_AUTO_TEST_CASE(uptime_is_the_share_of_watched_time_not_down) {
  BOOST_TEST(*uptime_percent(86'400'000, 3'600'000) == 95.833);  // 23/24, floored
  BOOST_TEST(*uptime_percent(86'400'000, 0) == 100.0);
  BOOST_TEST(*uptime_percent(86'400'000, 86'400'000) == 0.0);
  BOOST_TEST(*uptime_percent(3'600'000, 1'800'000) == 50.0);
}

BOOST_AUTO_TEST_CASE(one_bad_minute_in_a_day_is_never_shown_as_100) {
  BOOST_TEST(*uptime_percent(86'400'000, 60'000) == 99.930);  // 99.9305… floored
  BOOST_TEST(*uptime_percent(86'400'000, 1) < 100.0);         // one millisecond down
  BOOST_TEST(*uptime_percent(86'400'000, 1) == 99.999);
}

BOOST_AUTO_TEST_CASE(nothing_watched_is_no_figure_not_a_perfect_one) {
  BOOST_TEST(!uptime_percent(0, 0).has_value());
  BOOST_TEST(!uptime_percent(Watched{}).has_value());
  // More down than watched (a clock step) is all down, never negative.
  BOOST_TEST(*uptime_percent(1000, 5000) == 0.0);
}

BOOST_AUTO_TEST_CASE(windows_add_up_before_the_percent_is_taken) {
  Watched w;
  w.add(3'600'000, 0);
  w.add(3'600'000, 3'600'000);
  BOOST_TEST(*uptime_percent(w) == 50.0);  // not the average of 100 and 0 weighted otherwise
  w.add(7'200'000, 0);
  BOOST_TEST(*uptime_percent(w) == 75.0);
}

BOOST_AUTO_TEST_SUITE_END()
