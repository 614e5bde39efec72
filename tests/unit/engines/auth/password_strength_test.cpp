#include "engines/auth/password_strength.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>

#include "dozor_source_dir.hpp"
#include "engines/auth/password_policy.hpp"
#include "engines/limits.hpp"

using dozor::auth::PasswordPolicy;
namespace limits = dozor::limits;

namespace {

const PasswordPolicy& shipped() {
  static const PasswordPolicy p =
      PasswordPolicy::load(std::string(DOZOR_SOURCE_DIR) + "/share/passwords/common-passwords.txt", 8);
  return p;
}

double guesses(const char* pw, const char* name = "alice") { return shipped().strength(pw, name).guesses; }

std::string patterns(const char* pw) {
  std::string out;
  for (const auto& p : shipped().strength(pw, "alice").patterns) out += (out.empty() ? "" : " ") + p;
  return out;
}

bool weak(const char* pw, const char* name = "alice") {
  return shipped().problem(pw, name).find("too easy to guess") != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(password_strength)

// The limit: kPasswordMinGuesses is accepted, anything below refused. Eight random characters
// (zxcvbn's bruteforce, 10 per character) are exactly 10^8 + 1: the minimum length passes when random.
BOOST_AUTO_TEST_CASE(eight_random_characters_are_the_threshold_and_pass) {
  BOOST_TEST(guesses("k7Qx2mZp") == limits::kPasswordMinGuesses + 1);
  BOOST_TEST(patterns("k7Qx2mZp") == "bruteforce");
  BOOST_TEST(shipped().problem("k7Qx2mZp", "alice").empty());
  // One character fewer is ten times fewer guesses (the length rule refuses it first).
  BOOST_TEST(guesses("k7Qx2mZ") == limits::kPasswordMinGuesses / 10 + 1);
}

BOOST_AUTO_TEST_CASE(a_pattern_inside_costs_what_it_saves) {
  // "abc" (a sequence, at least 50 as part of a longer password) + 5 random: two parts in order,
  // 2! * 50 * 10^5 + 10^4 (zxcvbn's charge for a longer sequence of parts): below.
  BOOST_TEST(guesses("abck7Qx2") == 2 * 50 * 1e5 + 1e4);
  BOOST_TEST(weak("abck7Qx2"));
  // "ab" + 6 random would be 2! * 50 * 10^6 + 10^4: more than all eight random, which is the estimate.
  BOOST_TEST(guesses("abk7Qx2m") == limits::kPasswordMinGuesses + 1);
  BOOST_TEST(!weak("abk7Qx2m"));
}

BOOST_AUTO_TEST_CASE(dictionary_words_with_digits_and_sequences_are_refused) {
  for (const char* pw : {"admin12345", "Admin2024", "Summer2024!", "Passw0rd2023", "monkey12345", "dragon2000",
                         "johnsmith1985", "Dozor2024!"}) {
    BOOST_TEST_CONTEXT(pw) {
      BOOST_TEST(guesses(pw) < limits::kPasswordMinGuesses);
      BOOST_TEST(weak(pw));
    }
  }
  BOOST_TEST(patterns("admin12345") == "dictionary dictionary");
  BOOST_TEST(patterns("Admin2024") == "dictionary year");
}

BOOST_AUTO_TEST_CASE(l33t_case_and_reversed_spellings_are_the_word) {
  BOOST_TEST(patterns("p4ssw0rd!") == "dictionary bruteforce");
  BOOST_TEST(weak("p4ssw0rd!"));
  BOOST_TEST(patterns("drowssap123") == "dictionary sequence");
  BOOST_TEST(weak("drowssap123"));
  // Mixed capitals cost a little, not enough.
  BOOST_TEST(guesses("mOnKeY12345") > guesses("monkey12345"));
  BOOST_TEST(weak("mOnKeY12345"));
}

BOOST_AUTO_TEST_CASE(keyboard_walks_repeats_and_sequences_are_refused) {
  BOOST_TEST(patterns("zxcvbnm,./") == "spatial");
  BOOST_TEST(weak("zxcvbnm,./"));
  // The same keys on the Russian layout.
  BOOST_TEST(patterns("\xD0\xB9\xD1\x86\xD1\x83\xD0\xBA\xD0\xB5\xD0\xBD\xD0\xB3\xD1\x88") == "spatial");  // йцукенгш
  BOOST_TEST(weak("\xD0\xB9\xD1\x86\xD1\x83\xD0\xBA\xD0\xB5\xD0\xBD\xD0\xB3\xD1\x88"));
  BOOST_TEST(patterns("/*-+963.0") == "spatial");  // down the numeric keypad
  BOOST_TEST(weak("/*-+963.0"));
  BOOST_TEST(patterns("aaaaaaaaaaaa") == "repeat");
  BOOST_TEST(weak("aaaaaaaaaaaa"));
  BOOST_TEST(weak("x-x-x-x-x-x-"));
  BOOST_TEST(patterns("abcdefghij") == "sequence");
  BOOST_TEST(weak("abcdefghij"));
  BOOST_TEST(weak("9876543210"));
}

BOOST_AUTO_TEST_CASE(dates_are_cheap) {
  BOOST_TEST(patterns("12.05.1990") == "date");
  BOOST_TEST(weak("12.05.1990"));
  BOOST_TEST(weak("01011990a"));
}

BOOST_AUTO_TEST_CASE(the_account_name_and_the_product_are_known_words) {
  BOOST_TEST(guesses("bobsmith-77", "bobsmith") < guesses("bobsmith-77", "carol"));
  BOOST_TEST(weak("dozor12345"));
}

BOOST_AUTO_TEST_CASE(random_and_long_passwords_pass) {
  for (const char* pw : {"Pw-7hGq2_xLw9", "Tr0ub4dour&3", "correct horse battery staple", "Long-enough-pw-1",
                         "Correct-Horse-9", "Zq7!limits-Xw9#"}) {
    BOOST_TEST_CONTEXT(pw) {
      BOOST_TEST(guesses(pw) >= limits::kPasswordMinGuesses);
      BOOST_TEST(shipped().problem(pw, "alice").empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(only_the_first_characters_are_read) {
  // 300 characters of one letter are a repeat of what the estimate reads: as weak as 128.
  std::string a300(300, 'a'), a128(limits::kPasswordEstimateChars, 'a');
  BOOST_TEST(guesses(a300.c_str()) == guesses(a128.c_str()));
  BOOST_TEST(weak(a300.c_str()));
  // A long random password costs no more time than its first 128 characters.
  std::string mixed;
  for (int i = 0; i < 256; ++i) mixed += static_cast<char>('!' + (i * 37) % 90);
  BOOST_TEST((std::isinf(guesses(mixed.c_str())) || guesses(mixed.c_str()) > 1e100));
}

BOOST_AUTO_TEST_SUITE_END()
