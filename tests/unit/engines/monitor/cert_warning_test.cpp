#include "engines/monitor/cert_warning.hpp"

#include <boost/test/unit_test.hpp>

using dozor::monitor::should_warn_cert;

BOOST_AUTO_TEST_SUITE(cert_warning)

constexpr std::time_t kNow = 1'800'000'000;
constexpr std::int64_t kDay = 86400;

BOOST_AUTO_TEST_CASE(warns_inside_the_window_and_not_at_its_edge) {
  BOOST_TEST(should_warn_cert(kNow + 14 * kDay - 1, std::nullopt, kNow, 14));
  BOOST_TEST(!should_warn_cert(kNow + 14 * kDay, std::nullopt, kNow, 14));
  BOOST_TEST(should_warn_cert(kNow - kDay, std::nullopt, kNow, 14));    // already expired: still told
  BOOST_TEST(!should_warn_cert(std::nullopt, std::nullopt, kNow, 14));  // no certificate (http, tcp)
}

BOOST_AUTO_TEST_CASE(warns_once_per_day) {
  auto expires = kNow + 3 * kDay;
  BOOST_TEST(!should_warn_cert(expires, kNow - kDay + 1, kNow, 14));
  BOOST_TEST(should_warn_cert(expires, kNow - kDay, kNow, 14));
}

BOOST_AUTO_TEST_SUITE_END()
