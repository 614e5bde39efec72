// Response diffing of the boolean-based SQL injection check.
#include "engines/scan/owasp/response_diff.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;

BOOST_AUTO_TEST_SUITE(owasp_response_diff)

BOOST_AUTO_TEST_CASE(the_same_words_are_the_same_page_whatever_the_order) {
  BOOST_TEST(similarity("a b c", "c b a") == 1.0);
  BOOST_TEST(similarity("", "") == 1.0);
  BOOST_TEST(similarity("a b", "") == 0.0);
  BOOST_TEST(similarity("a a b", "a b b") == 2.0 * 2 / 6);
}

BOOST_AUTO_TEST_CASE(a_list_that_loses_its_rows_is_a_different_page) {
  std::string nav;
  for (int i = 0; i < 10; ++i) nav += "<li><a href=\"/p" + std::to_string(i) + "?x=1\">Page</a></li>";
  std::string with_rows = nav + "<ul><li>Red book</li><li>Blue book</li></ul>";
  std::string without = nav + "<ul><li>No products.</li></ul>";
  BOOST_TEST(similarity(with_rows, without) < kSamePage);
  BOOST_TEST(similarity(with_rows, with_rows + " ") >= kSamePage);
}

BOOST_AUTO_TEST_CASE(echoes_of_the_payload_are_removed_in_every_encoding) {
  std::string payload = "books' AND '1'='1";
  BOOST_TEST(strip_echoes("value=\"books&#x27; AND &#x27;1&#x27;=&#x27;1\"", payload) == "value=\"\"");
  BOOST_TEST(strip_echoes("value=\"books&#39; AND &#39;1&#39;=&#39;1\"", payload) == "value=\"\"");
  BOOST_TEST(strip_echoes("q=books%27%20AND%20%271%27%3D%271 end", payload) == "q= end");
  BOOST_TEST(strip_echoes("raw books' AND '1'='1 end", payload) == "raw  end");
}

BOOST_AUTO_TEST_SUITE_END()
