#include "engines/auth/password.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::auth;

BOOST_AUTO_TEST_SUITE(password)

BOOST_AUTO_TEST_CASE(hash_is_argon2id_and_verifies) {
  auto h = hash_password("correct horse battery");
  BOOST_TEST(h.rfind("$argon2id$", 0) == 0u);
  BOOST_TEST(verify_password("correct horse battery", h));
  BOOST_TEST(!verify_password("correct horse batterY", h));
}

BOOST_AUTO_TEST_CASE(same_password_hashes_differently) {
  BOOST_TEST(hash_password("p4ssw0rd!") != hash_password("p4ssw0rd!"));
}

BOOST_AUTO_TEST_CASE(garbage_hash_never_verifies) {
  BOOST_TEST(!verify_password("x", ""));
  BOOST_TEST(!verify_password("x", "$argon2id$v=19$garbage"));
}

BOOST_AUTO_TEST_SUITE_END()
