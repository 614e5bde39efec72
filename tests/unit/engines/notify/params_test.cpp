#include "engines/notify/params.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

using namespace dozor::notify;

BOOST_AUTO_TEST_SUITE(notify_params)

BOOST_AUTO_TEST_CASE(control_characters_are_c0_del_and_c1) {
  for (const std::string& bad : std::vector<std::string>{"a\r\nb", "a\nb", "a\rb", std::string("a\0b", 3), "a\tb",
                                                         "a\x7f", "a\xc2\x85", "\xc2\x9f"})
    BOOST_TEST(has_control_chars(bad), bad);
  for (const std::string& ok : std::vector<std::string>{"ops", "Иван", "a b", "\xc2\xa0", "123456:AA-bb_CC"})
    BOOST_TEST(!has_control_chars(ok), ok);
}

BOOST_AUTO_TEST_CASE(a_telegram_token_is_letters_digits_colon_dash_underscore) {
  BOOST_TEST(is_telegram_token_text("123456:AAbb-CC_dd"));
  for (auto bad : {"1:a/b", "1:a?b", "1:a#b", "1:a%2F", "1:a b"}) BOOST_TEST(!is_telegram_token_text(bad), bad);
}

BOOST_AUTO_TEST_CASE(an_smtp_host_is_a_name_or_an_address_and_nothing_more) {
  for (auto ok : {"smtp.example.org", "127.0.0.1", "::1", "[2001:db8::25]", "mx-1.example.org."})
    BOOST_TEST(!smtp_host_problem(ok), ok);
  for (auto bad : {"", "h.example:25", "user@h.example", "h.example/%0d%0aHELO", "h example", "[h.example]", ".h",
                   "a..b", "[::1", "h_1.example"})
    BOOST_TEST(smtp_host_problem(bad).has_value(), bad);
  BOOST_TEST(smtp_url_host("::1") == "[::1]");
  BOOST_TEST(smtp_url_host("[::1]") == "[::1]");
  BOOST_TEST(smtp_url_host("h.example") == "h.example");
}

BOOST_AUTO_TEST_CASE(a_proxy_is_scheme_host_port_and_userinfo_only) {
  for (auto ok : {"socks5://127.0.0.1:1080", "http://ann:pw@proxy.example:3128", "https://proxy.example/"})
    BOOST_TEST(!proxy_problem(ok), ok);
  BOOST_TEST(proxy_problem("ftp://p.example")->type == "url_scheme");
  for (auto bad : {"http://p.example/path", "http://p.example?x=1", "http://p.example#f", "p.example:3128",
                   "http://a%0d%0ab@p.example", "http://p%0a.example"})
    BOOST_TEST(proxy_problem(bad)->type == "url_parsing", bad);
}

BOOST_AUTO_TEST_CASE(the_first_member_with_control_characters_is_named) {
  auto p = boost::json::parse(R"({"host":"h.example","to_addrs":["a@example.org","b@example.org\r\n"]})").as_object();
  BOOST_TEST(member_with_control_chars(p).value() == "to_addrs");
  BOOST_TEST(!member_with_control_chars(boost::json::parse(R"({"host":"h.example","port":25})").as_object()));
}

BOOST_AUTO_TEST_SUITE_END()
