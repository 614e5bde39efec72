#include "engines/text/utc_time.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::text;

BOOST_AUTO_TEST_SUITE(utc_time)

BOOST_AUTO_TEST_CASE(formats_in_utc_whatever_the_local_zone) {
  BOOST_TEST(utc_format(0, kUtcIso) == "1970-01-01T00:00:00Z");
  BOOST_TEST(utc_format(1764028800, kUtcDay) == "2025-11-25");
  BOOST_TEST(utc_format(1764028800 + 3661, "%Y-%m-%d %H:%M:%S") == "2025-11-25 01:01:01");
}

BOOST_AUTO_TEST_CASE(now_is_today) {
  BOOST_TEST(utc_now(kUtcDay) == utc_format(std::time(nullptr), kUtcDay));
  BOOST_TEST(utc_now(kUtcIso).size() == 20u);
}

BOOST_AUTO_TEST_SUITE_END()
