#include "engines/auth/device_cookie.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/auth/crypto.hpp"

using namespace dozor::auth;

namespace {
const std::string kKey(40, 'k');
constexpr std::int64_t kNow = 1'800'000'000;
}  // namespace

BOOST_AUTO_TEST_SUITE(device_cookie)

BOOST_AUTO_TEST_CASE(an_issued_cookie_verifies_with_its_fields) {
  DeviceCookies d(kKey, 86400);
  auto id = DeviceCookies::new_device_id();
  BOOST_TEST(id.size() == 32u);
  auto v = d.verify(d.issue({7, 3, id, kNow}), kNow + 10);
  BOOST_REQUIRE(v.has_value());
  BOOST_TEST(v->user_id == 7);
  BOOST_TEST(v->token_version == 3);
  BOOST_TEST(v->device == id);
}

BOOST_AUTO_TEST_CASE(tampered_expired_future_or_foreign_cookies_are_refused) {
  DeviceCookies d(kKey, 86400);
  auto value = d.issue({7, 3, DeviceCookies::new_device_id(), kNow});
  auto other_user = value;
  other_user[2] = '8';  // "1.7." -> "1.8."
  BOOST_TEST(!d.verify(other_user, kNow));
  BOOST_TEST(!d.verify(value.substr(0, value.rfind('.') + 1), kNow));  // no signature
  BOOST_TEST(!d.verify(value, kNow + 86400));                          // expired
  BOOST_TEST(!d.verify(value, kNow - 3600));                           // issued in the future
  BOOST_TEST(!DeviceCookies(std::string(40, 'z'), 86400).verify(value, kNow));
  BOOST_TEST(!d.verify("", kNow));
  BOOST_TEST(!d.verify("garbage", kNow));
  BOOST_TEST(!d.verify(std::string(10000, 'a'), kNow));
}

BOOST_AUTO_TEST_CASE(a_failing_hmac_refuses_the_cookie) {
  DeviceCookies d(kKey, 86400);
  auto value = d.issue({7, 3, DeviceCookies::new_device_id(), kNow});
  crypto::testing::fail_next(1);
  BOOST_TEST(!d.verify(value, kNow));
  crypto::testing::fail_next(1);
  BOOST_CHECK_THROW(d.issue({7, 3, DeviceCookies::new_device_id(), kNow}), std::runtime_error);
  crypto::testing::fail_next(0);
}

BOOST_AUTO_TEST_SUITE_END()
