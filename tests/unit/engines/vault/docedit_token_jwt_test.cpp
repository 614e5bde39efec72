#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include "engines/auth/crypto.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/vault/docedit_token.hpp"

using namespace dozor::vault;
namespace auth = dozor::auth;

namespace {

const std::string kSecret = "docserver-shared-secret";

boost::json::object sample(std::int64_t exp = 2000) {
  return {{"key", "abc-1"}, {"status", 2}, {"url", "http://127.0.0.1:1/x"}, {"exp", exp}};
}

// A token with the given header and payload JSON, signed with `secret` as HS256 (whatever the header says).
std::string forge(const std::string& header, const std::string& payload, const std::string& secret) {
  std::string input = auth::base64url_encode(header) + "." + auth::base64url_encode(payload);
  return input + "." + auth::base64url_encode(*auth::crypto::hmac_sha256(secret, input));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(docedit_token)

BOOST_AUTO_TEST_CASE(round_trip_returns_the_signed_payload) {
  auto t = sign_hs256(sample(), kSecret);
  auto p = verify_hs256(t, kSecret, 1500);
  BOOST_REQUIRE(p);
  BOOST_TEST(p->at("key").as_string() == "abc-1");
  BOOST_TEST(p->at("status").as_int64() == 2);
}

BOOST_AUTO_TEST_CASE(wrong_secret_is_refused) {
  auto t = sign_hs256(sample(), kSecret);
  BOOST_TEST(!verify_hs256(t, "another-secret", 1500));
}

BOOST_AUTO_TEST_CASE(expired_or_missing_exp_is_refused) {
  BOOST_TEST(!verify_hs256(sign_hs256(sample(2000), kSecret), kSecret, 2000));
  BOOST_TEST(!verify_hs256(sign_hs256(sample(2000), kSecret), kSecret, 9999));
  boost::json::object no_exp{{"key", "abc-1"}, {"status", 2}};
  BOOST_TEST(!verify_hs256(sign_hs256(no_exp, kSecret), kSecret, 1));
  boost::json::object string_exp{{"key", "abc-1"}, {"exp", "9999"}};
  BOOST_TEST(!verify_hs256(sign_hs256(string_exp, kSecret), kSecret, 1));
}

BOOST_AUTO_TEST_CASE(alg_none_and_other_algorithms_are_refused) {
  std::string payload = boost::json::serialize(sample());
  std::string unsigned_token =
      auth::base64url_encode(R"({"alg":"none","typ":"JWT"})") + "." + auth::base64url_encode(payload) + ".";
  BOOST_TEST(!verify_hs256(unsigned_token, kSecret, 1500));
  // Even with a valid HMAC, a header naming another algorithm is refused: the algorithm is pinned.
  BOOST_TEST(!verify_hs256(forge(R"({"alg":"HS512","typ":"JWT"})", payload, kSecret), kSecret, 1500));
  BOOST_TEST(!verify_hs256(forge(R"({"alg":"none"})", payload, kSecret), kSecret, 1500));
  BOOST_TEST(!verify_hs256(forge(R"({"typ":"JWT"})", payload, kSecret), kSecret, 1500));
  BOOST_TEST(verify_hs256(forge(R"({"alg":"HS256"})", payload, kSecret), kSecret, 1500).has_value());
}

BOOST_AUTO_TEST_CASE(tampered_payload_is_refused) {
  auto t = sign_hs256(sample(), kSecret);
  auto d1 = t.find('.');
  auto d2 = t.find('.', d1 + 1);
  boost::json::object other = sample();
  other["url"] = "http://169.254.169.254/";
  std::string tampered = t.substr(0, d1 + 1) + auth::base64url_encode(boost::json::serialize(other)) + t.substr(d2);
  BOOST_TEST(!verify_hs256(tampered, kSecret, 1500));
}

BOOST_AUTO_TEST_CASE(malformed_tokens_are_refused) {
  BOOST_TEST(!verify_hs256("", kSecret, 1));
  BOOST_TEST(!verify_hs256("a.b", kSecret, 1));
  BOOST_TEST(!verify_hs256("a.b.c.d", kSecret, 1));
  BOOST_TEST(!verify_hs256(forge(R"({"alg":"HS256"})", "[1,2]", kSecret), kSecret, 1));
  BOOST_TEST(!verify_hs256(std::string(20000, 'a'), kSecret, 1));
}

BOOST_AUTO_TEST_CASE(an_empty_secret_neither_signs_nor_verifies) {
  BOOST_CHECK_THROW(sign_hs256(sample(), ""), std::runtime_error);
  BOOST_TEST(!verify_hs256(forge(R"({"alg":"HS256"})", boost::json::serialize(sample()), ""), "", 1500));
}

BOOST_AUTO_TEST_CASE(a_failed_hmac_refuses) {
  auto t = sign_hs256(sample(), kSecret);
  auth::crypto::testing::fail_next(1);
  BOOST_TEST(!verify_hs256(t, kSecret, 1500));
}

BOOST_AUTO_TEST_SUITE_END()
