// Replay commands, excerpts and URLs of the OWASP scan.
#include "engines/scan/owasp/replay.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;

BOOST_AUTO_TEST_SUITE(owasp_replay)

BOOST_AUTO_TEST_CASE(curl_commands_quote_every_argument) {
  BOOST_TEST(curl_command("GET", "http://h/a?q=%27", {}) == "curl -i -s 'http://h/a?q=%27'");
  BOOST_TEST(curl_command("TRACE", "http://h/", {"X-A: it's"}) ==
             "curl -i -s -X 'TRACE' -H 'X-A: it'\\''s' 'http://h/'");
}

BOOST_AUTO_TEST_CASE(query_values_are_percent_encoded) {
  BOOST_TEST(url_encode("a b'\r\n<>~") == "a%20b%27%0D%0A%3C%3E~");
  BOOST_TEST(url_with_query("http://h/p", {{"q", "x y"}, {"n", "1"}}) == "http://h/p?q=x%20y&n=1");
}

BOOST_AUTO_TEST_CASE(excerpts_surround_the_proof_without_splitting_characters) {
  std::string body = std::string(100, 'a') + "PROOF" + std::string(100, 'b');
  auto e = excerpt_around(body, 100, 5, 25);
  BOOST_TEST(e == std::string(10, 'a') + "PROOF" + std::string(10, 'b'));
  std::string utf = "\xd0\xb4\xd0\xb4PROOF\xd0\xb4\xd0\xb4";  // Cyrillic around it
  BOOST_TEST(excerpt_around(utf, 4, 5, 9) == "\xd0\xb4PROOF\xd0\xb4");
  BOOST_TEST(excerpt_around("short", 99, 5, 10) == "short");  // an offset past the end is clamped
}

BOOST_AUTO_TEST_CASE(canaries_are_unique_markers) {
  auto a = make_canary(), b = make_canary();
  BOOST_TEST(a.size() == 13u);
  BOOST_TEST(a.rfind("dzr", 0) == 0u);
  BOOST_TEST(a != b);
}

BOOST_AUTO_TEST_SUITE_END()
