#include "engines/monitor/kiosk.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <vector>

using dozor::monitor::kiosk_index;

BOOST_AUTO_TEST_SUITE(kiosk)

BOOST_AUTO_TEST_CASE(advances_with_time_while_running) {
  // Started at t=0 with a 30 s interval over 4 sites, from site 1.
  BOOST_TEST(kiosk_index(true, 1, 0, 30, 29'999, 4) == 1);
  BOOST_TEST(kiosk_index(true, 1, 0, 30, 30'000, 4) == 2);  // the switch happens at the interval
  BOOST_TEST(kiosk_index(true, 1, 0, 30, 90'000, 4) == 0);  // and wraps around
}

BOOST_AUTO_TEST_CASE(stands_still_when_stopped_and_handles_edges) {
  BOOST_TEST(kiosk_index(false, 3, 0, 30, 1'000'000, 4) == 3);
  BOOST_TEST(kiosk_index(true, 2, 0, 30, 0, 0) == 0);          // no sites
  BOOST_TEST(kiosk_index(false, -1, 0, 30, 0, 4) == 3);        // previous from the first site
  BOOST_TEST(kiosk_index(true, 0, 5'000, 30, 1'000, 4) == 0);  // a clock behind the start
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(kiosk_rotation)

BOOST_AUTO_TEST_CASE(rotation_starts_with_problems) {
  using dozor::monitor::RotationKey;
  std::vector<RotationKey> sites{
      {1, false, 0, false},   // up
      {2, true, 500, false},  // down since 500
      {3, false, 0, true},    // pending
      {4, true, 100, false},  // down longer
      {5, false, 0, false},   // up
  };
  std::stable_sort(sites.begin(), sites.end(), dozor::monitor::rotation_before);
  std::vector<std::int64_t> ids;
  for (const auto& s : sites) ids.push_back(s.id);
  BOOST_TEST(ids == (std::vector<std::int64_t>{4, 2, 3, 1, 5}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
