#include "engines/vault/sessions.hpp"

#include <boost/test/unit_test.hpp>

using dozor::vault::session_hash;
using dozor::vault::Sessions;

BOOST_AUTO_TEST_SUITE(vault_sessions)

const std::string kValue = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456";  // 43 base64url characters

BOOST_AUTO_TEST_CASE(only_well_formed_cookie_values_are_looked_up) {
  BOOST_TEST(session_hash(kValue)->size() == 64u);
  BOOST_TEST(!session_hash(kValue.substr(1)));
  BOOST_TEST(!session_hash(kValue + "A"));
  BOOST_TEST(!session_hash(std::string(42, 'a') + "'"));
  BOOST_TEST(!session_hash(""));
  BOOST_TEST(*session_hash(kValue) != kValue);
}

BOOST_AUTO_TEST_CASE(csrf_token_is_bound_to_the_session) {
  std::string other = kValue;
  other[0] = 'b';
  auto token = Sessions::csrf_for(kValue);
  BOOST_TEST(token.size() == 43u);
  BOOST_TEST(token == Sessions::csrf_for(kValue));
  BOOST_TEST(token != Sessions::csrf_for(other));
  BOOST_TEST(Sessions::csrf_matches(kValue, token));
  BOOST_TEST(!Sessions::csrf_matches(other, token));
  BOOST_TEST(!Sessions::csrf_matches(kValue, token.substr(1)));
  BOOST_TEST(!Sessions::csrf_matches(kValue, ""));
  BOOST_TEST(!Sessions::csrf_matches("short", token));
}

BOOST_AUTO_TEST_SUITE_END()
