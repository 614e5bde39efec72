#include "engines/text/utf8.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::text;

BOOST_AUTO_TEST_SUITE(utf8)

BOOST_AUTO_TEST_CASE(valid_text_is_valid) {
  BOOST_TEST(is_valid_utf8(""));
  BOOST_TEST(is_valid_utf8("plain ascii"));
  BOOST_TEST(is_valid_utf8("пример.рф ✓ \xF0\x9F\x98\x80"));
  BOOST_TEST(is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
}

BOOST_AUTO_TEST_CASE(invalid_forms_are_refused) {
  BOOST_TEST(!is_valid_utf8("\xFF"));
  BOOST_TEST(!is_valid_utf8("\xC3\x28"));          // broken pair
  BOOST_TEST(!is_valid_utf8("\xC0\xAF"));          // overlong "/"
  BOOST_TEST(!is_valid_utf8("\xE0\x80\xAF"));      // overlong
  BOOST_TEST(!is_valid_utf8("\xED\xA0\x80"));      // surrogate
  BOOST_TEST(!is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  BOOST_TEST(!is_valid_utf8("\xD0"));              // cut short
  BOOST_TEST(!is_valid_utf8("\x80"));              // lone continuation
}

BOOST_AUTO_TEST_CASE(invalid_sequences_become_replacement_characters) {
  const std::string fffd = "\xEF\xBF\xBD";
  BOOST_TEST(to_valid_utf8("ok") == "ok");
  BOOST_TEST(to_valid_utf8("a\xFF\xFE"
                           "b") == "a" + fffd + fffd + "b");
  BOOST_TEST(to_valid_utf8("\xC3\x28") == fffd + "(");
  // A truncated three-byte sequence is one replacement, not two (maximal subpart).
  BOOST_TEST(to_valid_utf8("\xE2\x82x") == fffd + "x");
  BOOST_TEST(to_valid_utf8("\xED\xA0\x80") == fffd + fffd + fffd);
  BOOST_TEST(is_valid_utf8(to_valid_utf8("\xF0\x9F\x98")));
  BOOST_TEST(to_valid_utf8("пример") == "пример");
  // Valid runs around the replacements are kept whole: at the start, between and at the end.
  BOOST_TEST(to_valid_utf8("\x80"
                           "ab") == fffd + "ab");
  BOOST_TEST(to_valid_utf8("при\xFFмер \xD0") == "при" + fffd + "мер " + fffd);
  BOOST_TEST(to_valid_utf8("x\xC3\x28\xE2\x82y€") == "x" + fffd + "(" + fffd + "y€");
}

BOOST_AUTO_TEST_CASE(prefix_and_length_count_code_points) {
  BOOST_TEST(utf8_length("пример") == 6u);
  BOOST_TEST(utf8_prefix("пример", 3) == "при");
  BOOST_TEST(utf8_prefix("пример", 6) == "пример");
  BOOST_TEST(utf8_prefix("пример", 7) == "пример");
  BOOST_TEST(utf8_prefix("", 0) == "");
}

BOOST_AUTO_TEST_SUITE_END()
