#include "engines/secrets.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor::secrets;

BOOST_AUTO_TEST_SUITE(secrets)

BOOST_AUTO_TEST_CASE(credential_names_are_secret_in_any_spelling) {
  for (auto n : {"password", "Password", "bot_token", "token", "X-Api-Key", "smtp.password", "client_secret", "key",
                 "Authorization", "session", "private_key", "passwd", "jwt_secret_file", "bearer"})
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

BOOST_AUTO_TEST_CASE(json_masking_reaches_every_depth) {
  auto v = boost::json::parse(R"({"token":"123456:ABCDEFGHIJ","chat_id":"42","smtp":{"password":"hunter2hunter2",
    "host":"mail.example"},"list":[{"api_key":"abcdefghij"}],"secret":{"nested":"x"},"password_file":null})");
  auto m = mask_json(v).as_object();
  BOOST_TEST(m["token"].as_string() == "****IJ");
  BOOST_TEST(m["chat_id"].as_string() == "42");
  BOOST_TEST(m["smtp"].as_object()["password"].as_string() == "****r2");
  BOOST_TEST(m["smtp"].as_object()["host"].as_string() == "mail.example");
  BOOST_TEST(m["list"].as_array()[0].as_object()["api_key"].as_string() == "****ij");
  BOOST_TEST(m["secret"].as_string() == "****");  // a non-string secret is hidden whole
  BOOST_TEST(m["password_file"].is_null());
  BOOST_TEST(is_masked("****IJ"));
  BOOST_TEST(!is_masked("123456:ABCDEFGHIJ"));
}

BOOST_AUTO_TEST_CASE(url_userinfo_is_masked_and_the_rest_of_the_url_kept) {
  BOOST_TEST(mask_url_userinfo("socks5://ann:pa55word@proxy.example:1080").value() ==
             "socks5://ann:****rd@proxy.example:1080");
  BOOST_TEST(mask_url_userinfo("http://longtoken123@proxy.example:3128/").value() ==
             "http://****23@proxy.example:3128/");
  BOOST_TEST(!mask_url_userinfo("http://proxy.example:3128"));
  BOOST_TEST(!mask_url_userinfo("not a url"));
  BOOST_TEST(has_masked_userinfo("socks5://ann:****rd@proxy.example:1080"));
  BOOST_TEST(!has_masked_userinfo("socks5://ann:pa55word@proxy.example:1080"));
  auto m =
      mask_json(boost::json::parse(R"({"proxy":"http://ann:s3cretpw@p.example:8080","chat_id":"42"})")).as_object();
  BOOST_TEST(m["proxy"].as_string() == "http://ann:****pw@p.example:8080");
  BOOST_TEST(m["chat_id"].as_string() == "42");
}

BOOST_AUTO_TEST_SUITE_END()
