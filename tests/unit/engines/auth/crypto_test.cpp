#include "engines/auth/crypto.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::auth::crypto;

BOOST_AUTO_TEST_SUITE(crypto_sha256)

BOOST_AUTO_TEST_CASE(known_digests_in_lower_case_hex) {
  BOOST_TEST(sha256_hex("abc").value_or("") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(sha256_hex("").value_or("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

BOOST_AUTO_TEST_CASE(a_failed_digest_is_no_digest) {
  testing::fail_next(1);
  BOOST_TEST(!sha256_hex("abc"));
  BOOST_TEST(sha256_hex("abc").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
