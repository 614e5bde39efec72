// The auth scan's credential rules (engines/scan/auth/auth_scan.hpp): one way of logging in, a
// login_url on the scanned origin, no control characters (no header injection), bounded sizes.
#include "engines/scan/auth/auth_scan.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor::authscan;

namespace {

std::string problem(const Credentials& c) {
  auto p = check_credentials(c, "https://shop.test/");
  return p ? p->field + ": " + p->message : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_scan_credentials)

BOOST_AUTO_TEST_CASE(each_way_of_logging_in_alone_is_accepted) {
  BOOST_TEST(problem({}) == "");
  BOOST_TEST(problem({"alice", "pw", "", "", ""}) == "");
  BOOST_TEST(problem({"alice", "pw", "https://shop.test/signin", "", ""}) == "");
  BOOST_TEST(problem({"", "", "", "sid=1", ""}) == "");
  BOOST_TEST(problem({"", "", "", "", "eyJ"}) == "");
  BOOST_TEST(Credentials{}.mode() == "anonymous");
  BOOST_TEST((Credentials{"a", "b", "", "", ""}.mode() == "form"));
  BOOST_TEST((Credentials{"", "", "", "c", ""}.mode() == "cookie"));
  BOOST_TEST((Credentials{"", "", "", "", "t"}.mode() == "bearer"));
}

BOOST_AUTO_TEST_CASE(mixed_or_incomplete_credentials_are_refused) {
  BOOST_TEST(problem({"alice", "pw", "", "sid=1", ""}).find("one of") != std::string::npos);
  BOOST_TEST(problem({"alice", "", "", "", ""}).rfind("password:", 0) == 0);
  BOOST_TEST(problem({"", "pw", "", "", ""}).rfind("username:", 0) == 0);
  BOOST_TEST(problem({"", "", "https://shop.test/l", "", ""}).rfind("login_url:", 0) == 0);
}

BOOST_AUTO_TEST_CASE(a_login_url_elsewhere_or_control_characters_are_refused) {
  BOOST_TEST(problem({"a", "b", "https://evil.test/login", "", ""}).rfind("login_url:", 0) == 0);
  BOOST_TEST(problem({"a", "b", "ftp://shop.test/login", "", ""}).rfind("login_url:", 0) == 0);
  BOOST_TEST(problem({"", "", "", "sid=1\r\nX-Injected: 1", ""}).rfind("cookie:", 0) == 0);
  BOOST_TEST(problem({"", "", "", "", std::string(5000, 'a')}).rfind("bearer:", 0) == 0);
}

BOOST_AUTO_TEST_CASE(credentials_are_read_from_options_ignoring_other_keys) {
  auto o = boost::json::parse(R"({"username": "alice", "password": "pw", "depth": 2})").as_object();
  auto c = credentials_from(o);
  BOOST_TEST(c.username == "alice");
  BOOST_TEST(c.password == "pw");
  BOOST_TEST(c.cookie.empty());
}

BOOST_AUTO_TEST_SUITE_END()
