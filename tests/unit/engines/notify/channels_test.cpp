#include "engines/notify/channels.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "engines/errors.hpp"

using namespace dozor::notify;

namespace {
boost::json::object obj(const char* json) { return boost::json::parse(json).as_object(); }
}  // namespace

BOOST_AUTO_TEST_SUITE(notify_channels)

BOOST_AUTO_TEST_CASE(a_masked_secret_keeps_the_stored_one) {
  auto kept = keep_masked_secrets(obj(R"({"token":"****IJ","chat_id":"7"})"), R"({"token":"123456:ABCDEFGHIJ"})");
  BOOST_TEST(kept["token"].as_string() == "123456:ABCDEFGHIJ");
  auto changed = keep_masked_secrets(obj(R"({"token":"999:new","chat_id":"7"})"), R"({"token":"123456:ABCDEFGHIJ"})");
  BOOST_TEST(changed["token"].as_string() == "999:new");
}

BOOST_AUTO_TEST_CASE(a_masked_proxy_keeps_the_stored_one_only_when_nothing_else_changed) {
  const char* stored = R"({"proxy":"socks5://ann:pa55word@proxy.example:1080"})";
  auto kept = keep_masked_secrets(obj(R"({"proxy":"socks5://ann:****rd@proxy.example:1080"})"), stored);
  BOOST_TEST(kept["proxy"].as_string() == "socks5://ann:pa55word@proxy.example:1080");
  // The stored password is never carried to another host.
  try {
    keep_masked_secrets(obj(R"({"proxy":"socks5://ann:****rd@evil.example:1080"})"), stored);
    BOOST_FAIL("a masked password went to another host");
  } catch (const dozor::InvalidField& f) {
    BOOST_TEST((f.loc == std::vector<std::string>{"params", "proxy"}));
  }
  BOOST_CHECK_THROW(keep_masked_secrets(obj(R"({"proxy":"socks5://ann:****rd@proxy.example:1080"})"), "{}"),
                    dozor::InvalidField);
}

BOOST_AUTO_TEST_CASE(a_masked_smtp_password_is_kept_only_for_the_same_host) {
  const char* stored = R"({"host":"smtp.example.org","password":"smtp-secret-pw"})";
  auto kept = keep_masked_secrets(obj(R"({"host":"smtp.example.org","password":"****pw"})"), stored);
  BOOST_TEST(kept["password"].as_string() == "smtp-secret-pw");
  try {
    keep_masked_secrets(obj(R"({"host":"evil.example","password":"****pw"})"), stored);
    BOOST_FAIL("a masked password went to another host");
  } catch (const dozor::InvalidField& f) {
    BOOST_TEST((f.loc == std::vector<std::string>{"params", "password"}));
  }
  auto resent = keep_masked_secrets(obj(R"({"host":"new.example","password":"fresh-pw"})"), stored);
  BOOST_TEST(resent["password"].as_string() == "fresh-pw");
}

BOOST_AUTO_TEST_SUITE_END()
