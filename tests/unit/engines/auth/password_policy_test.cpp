#include "engines/auth/password_policy.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include "dozor_source_dir.hpp"

using dozor::auth::PasswordPolicy;

namespace {

PasswordPolicy shipped() {
  return PasswordPolicy::load(std::string(DOZOR_SOURCE_DIR) + "/share/passwords/common-passwords.txt", 8);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(password_policy)

BOOST_AUTO_TEST_CASE(the_shipped_list_has_at_least_ten_thousand_passwords) {
  BOOST_TEST(shipped().list_size() >= 10000u);
}

BOOST_AUTO_TEST_CASE(common_passwords_are_refused_in_any_case_or_width) {
  auto p = shipped();
  for (const char* pw : {"password", "PASSWORD", "Password", "12345678", "iloveyou", "qwertyuiop", "sunshine",
                         "\xEF\xBD\x90\xEF\xBD\x81\xEF\xBD\x93\xEF\xBD\x93\xEF\xBD\x97\xEF\xBD\x8F\xEF\xBD\x92"
                         "\xEF\xBD\x84"}) {  // fullwidth ｐａｓｓｗｏｒｄ
    BOOST_TEST_CONTEXT(pw) { BOOST_TEST(p.problem(pw, "alice").find("too common") != std::string::npos); }
  }
}

BOOST_AUTO_TEST_CASE(short_passwords_count_characters_not_bytes) {
  auto p = shipped();
  BOOST_TEST(p.problem("Zx9-q", "alice").find("at least 8 characters") != std::string::npos);
  // 7 Cyrillic letters are 14 bytes but 7 characters: too short.
  BOOST_TEST(p.problem("\xD0\xB6\xD1\x91\xD0\xBB\xD1\x83\xD0\xB4\xD1\x8C\xD1\x8E", "alice").find("at least") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_username_is_neither_the_password_nor_inside_it) {
  auto p = shipped();
  BOOST_TEST(p.problem("Marianna-Kowalska", "marianna-kowalska").find("not be the username") != std::string::npos);
  BOOST_TEST(p.problem("xx-MARIANNA-2024", "marianna").find("not contain the username") != std::string::npos);
  // Names are compared canonically: a fullwidth spelling is the same name.
  BOOST_TEST(p.problem("xx-\xEF\xBD\x8D\xEF\xBD\x81\xEF\xBD\x92\xEF\xBD\x89\xEF\xBD\x81-2024", "maria")
                 .find("not contain the username") != std::string::npos);
  // A two-letter name inside a password is a coincidence, not a weakness.
  BOOST_TEST(p.problem("Kx7-al-93-Zq", "al").empty());
}

BOOST_AUTO_TEST_CASE(a_reasonable_password_passes) { BOOST_TEST(shipped().problem("Pw-7hGq2_xLw9", "alice").empty()); }

BOOST_AUTO_TEST_CASE(a_missing_or_truncated_list_is_an_error_not_a_weaker_rule) {
  BOOST_CHECK_THROW(PasswordPolicy::load("/nonexistent/common-passwords.txt", 8), std::runtime_error);
  auto path = std::filesystem::temp_directory_path() / "dozor-short-list.txt";
  {
    std::ofstream out(path);
    out << "# a header\npassword\n123456\n";
  }
  BOOST_CHECK_THROW(PasswordPolicy::load(path.string(), 8), std::runtime_error);
  std::filesystem::remove(path);
}

BOOST_AUTO_TEST_SUITE_END()
