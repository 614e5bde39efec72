#include "engines/secrets.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::secrets;

BOOST_AUTO_TEST_SUITE(secrets)

BOOST_AUTO_TEST_CASE(credential_names_are_secret_in_any_spelling) {
  for (auto n : {"password", "Password", "bot_token", "token", "X-Api-Key", "smtp.password", "client_secret", "key",
                 "Authorization", "session", "private_key", "passwd", "jwt_secret_file"})
    BOOST_TEST(is_secret_name(n), n);
}

BOOST_AUTO_TEST_CASE(ordinary_names_are_not_secret) {
  for (auto n : {"username", "name", "url", "chat_id", "host", "port", "email", "keyword", "monkey", "passport_series"})
    BOOST_TEST(!is_secret_name(n), n);
}

BOOST_AUTO_TEST_CASE(mask_shows_at_most_the_last_two_characters) {
  BOOST_TEST(mask("123456:ABCDEFGHIJ") == "****IJ");
  BOOST_TEST(mask("short") == "****");
  BOOST_TEST(mask("") == "****");
}

BOOST_AUTO_TEST_SUITE_END()
