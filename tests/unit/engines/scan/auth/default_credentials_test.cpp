// The default credentials of the auth scan (share/audit/auth/default-credentials.json): the
// shipped file loads, names only technologies that detection knows, and bad files are refused.
#include "engines/scan/auth/default_credentials.hpp"

#include <boost/test/unit_test.hpp>
#include <stdexcept>

#include "engines/limits.hpp"
#include "tests/unit/support/audit_data.hpp"

using dozor::authscan::DefaultCredentials;

namespace {

bool throws_with(const std::string& json, const std::string& part) {
  try {
    DefaultCredentials::parse(json);
  } catch (const std::runtime_error& e) {
    return std::string(e.what()).find(part) != std::string::npos;
  }
  return false;
}

std::string file_with(const std::string& panel) {
  return R"({"format": 1, "version": "t", "panels": [)" + panel + "]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_default_credentials)

BOOST_AUTO_TEST_CASE(the_shipped_file_loads_and_names_known_technologies) {
  const auto& data = dozor::test::shipped_audit_data();
  const auto& d = data.default_credentials;
  BOOST_TEST(!d.version().empty());
  BOOST_TEST(d.panels().size() >= 10U);
  for (const auto& p : d.panels()) {
    BOOST_TEST(data.tech.by_slug.count(p.technology) == 1U, p.technology);
    BOOST_TEST(p.credentials.size() <= dozor::limits::auth::kDefaultTriesPerPanel);
  }
  const auto* wp = d.find("wordpress");
  BOOST_REQUIRE(wp);
  BOOST_TEST(wp->login_paths.front() == "/wp-login.php");
  BOOST_TEST(wp->credentials.front().first == "admin");
  BOOST_TEST(!d.find("no-such-panel"));
}

BOOST_AUTO_TEST_CASE(bad_files_are_refused_with_a_reason) {
  const std::string ok = R"({"technology": "x", "name": "X", "login_paths": ["/l"], "credentials": [["a", "b"]]})";
  BOOST_TEST(!throws_with(file_with(ok), "x"));
  BOOST_TEST(throws_with(file_with(ok + "," + ok), "listed twice"));
  BOOST_TEST(
      throws_with(file_with(R"({"technology": "x", "name": "X", "login_paths": ["l"], "credentials": [["a", "b"]]})"),
                  "plain absolute path"));
  BOOST_TEST(throws_with(file_with(R"({"technology": "x", "name": "X", "login_paths": ["/l"],)"
                                   R"( "credentials": [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]})"),
                         "more than 3"));
  BOOST_TEST(
      throws_with(file_with(R"({"technology": "x", "name": "X", "login_paths": ["/l"], "credentials": [["a"]]})"),
                  "is not [\"user\", \"password\"]"));
  BOOST_TEST(
      throws_with(file_with(R"({"name": "X", "login_paths": ["/l"], "credentials": [["a", "b"]]})"), "'technology'"));
  BOOST_TEST(throws_with(R"({"format": 2, "version": "t", "panels": []})", "format"));
}

BOOST_AUTO_TEST_SUITE_END()
