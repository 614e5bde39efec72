// ASCII case and space handling: only A–Z are lowered (UTF-8 bytes untouched), and only ASCII
// white space is trimmed.
#include "engines/text/ascii.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::text;

BOOST_AUTO_TEST_SUITE(text_ascii)

BOOST_AUTO_TEST_CASE(lowers_ascii_letters_only) {
  BOOST_TEST(ascii_lower("Set-Cookie: SID=AbC") == "set-cookie: sid=abc");
  BOOST_TEST(ascii_lower("ДОЗОР Z@[") == "ДОЗОР z@[");  // Cyrillic bytes as they were
  BOOST_TEST(ascii_lower("").empty());
}

BOOST_AUTO_TEST_CASE(trims_ascii_space_at_both_ends) {
  BOOST_TEST(trim_space(" \t\r\n\fa b\n") == "a b");
  BOOST_TEST(trim_space("x") == "x");
  BOOST_TEST(trim_space(" \n ").empty());
  BOOST_TEST(trim_space("\xC2\xA0x\xC2\xA0") == "\xC2\xA0x\xC2\xA0");  // NBSP is not ASCII space
}

BOOST_AUTO_TEST_SUITE_END()
