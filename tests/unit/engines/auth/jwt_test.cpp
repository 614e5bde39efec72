#include "engines/auth/jwt.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::auth;

namespace {

const std::string kKey = "0123456789abcdef0123456789abcdef";
Claims sample() { return {42, "ivan", false, 1000, 2000, 3}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(jwt)

BOOST_AUTO_TEST_CASE(round_trip_keeps_claims) {
  auto token = sign_jwt(sample(), kKey);
  auto c = verify_jwt(token, kKey, 1500);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->sub == 42);
  BOOST_TEST(c->name == "ivan");
  BOOST_TEST(c->ver == 3);
  BOOST_TEST(c->exp == 2000);
}

BOOST_AUTO_TEST_CASE(expired_token_is_rejected) {
  auto token = sign_jwt(sample(), kKey);
  BOOST_TEST(!verify_jwt(token, kKey, 2000));
  BOOST_TEST(!verify_jwt(token, kKey, 5000));
}

BOOST_AUTO_TEST_CASE(other_key_is_rejected) {
  auto token = sign_jwt(sample(), kKey);
  BOOST_TEST(!verify_jwt(token, "another-key-another-key-another-key", 1500));
}

BOOST_AUTO_TEST_CASE(tampered_payload_is_rejected) {
  auto token = sign_jwt(sample(), kKey);
  auto d1 = token.find('.');
  auto d2 = token.find('.', d1 + 1);
  Claims admin = sample();
  admin.adm = true;
  auto forged_payload = sign_jwt(admin, kKey);
  auto fd1 = forged_payload.find('.');
  auto fd2 = forged_payload.find('.', fd1 + 1);
  std::string forged = token.substr(0, d1 + 1) + forged_payload.substr(fd1 + 1, fd2 - fd1 - 1) + token.substr(d2);
  BOOST_TEST(!verify_jwt(forged, kKey, 1500));
}

BOOST_AUTO_TEST_CASE(alg_none_is_rejected) {
  auto token = sign_jwt(sample(), kKey);
  auto d1 = token.find('.');
  auto d2 = token.find('.', d1 + 1);
  std::string none = base64url_encode(R"({"alg":"none","typ":"JWT"})") + token.substr(d1, d2 - d1) + ".";
  BOOST_TEST(!verify_jwt(none, kKey, 1500));
  std::string none_signed = base64url_encode(R"({"alg":"none"})") + token.substr(d1);
  BOOST_TEST(!verify_jwt(none_signed, kKey, 1500));
}

BOOST_AUTO_TEST_CASE(garbage_is_rejected) {
  BOOST_TEST(!verify_jwt("", kKey, 1500));
  BOOST_TEST(!verify_jwt("a.b", kKey, 1500));
  BOOST_TEST(!verify_jwt("a.b.c.d", kKey, 1500));
  BOOST_TEST(!verify_jwt("!!!.???.***", kKey, 1500));
}

BOOST_AUTO_TEST_CASE(base64url_round_trip) {
  std::string bin("\x00\xff\xfe?>", 5);
  BOOST_TEST(*base64url_decode(base64url_encode(bin)) == bin);
  BOOST_TEST(base64url_encode(bin).find('=') == std::string::npos);
  BOOST_TEST(!base64url_decode("a+b/"));
}

BOOST_AUTO_TEST_SUITE_END()

// Failure injection: when HMAC fails, nothing verifies — in particular not a token whose
// signature part is empty, which an ignored failure (empty expected MAC) would have accepted.
#include "engines/auth/crypto.hpp"

BOOST_AUTO_TEST_SUITE(jwt_crypto_failure)

BOOST_AUTO_TEST_CASE(failed_hmac_refuses_a_valid_token) {
  auto token = sign_jwt(sample(), kKey);
  BOOST_REQUIRE(verify_jwt(token, kKey, 1500));
  crypto::testing::fail_next(1);
  BOOST_TEST(!verify_jwt(token, kKey, 1500).has_value());
  BOOST_TEST(verify_jwt(token, kKey, 1500).has_value());  // only the injected call failed
}

BOOST_AUTO_TEST_CASE(failed_hmac_refuses_an_empty_signature) {
  auto token = sign_jwt(sample(), kKey);
  auto unsigned_token = token.substr(0, token.rfind('.') + 1);
  BOOST_TEST(!verify_jwt(unsigned_token, kKey, 1500).has_value());
  crypto::testing::fail_next(1);
  BOOST_TEST(!verify_jwt(unsigned_token, kKey, 1500).has_value());
}

BOOST_AUTO_TEST_CASE(failed_hmac_issues_no_token) {
  crypto::testing::fail_next(1);
  BOOST_CHECK_THROW(sign_jwt(sample(), kKey), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(constant_time_equality_needs_equal_nonempty_strings) {
  BOOST_TEST(crypto::equal_constant_time("abc", "abc"));
  BOOST_TEST(!crypto::equal_constant_time("abc", "abd"));
  BOOST_TEST(!crypto::equal_constant_time("abc", "ab"));
  BOOST_TEST(!crypto::equal_constant_time("", ""));
}

BOOST_AUTO_TEST_SUITE_END()
