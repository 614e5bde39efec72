// Catch-all detection of the endpoint wordlist (engines/scan/endpoints/catch_all.hpp).
#include "engines/scan/endpoints/catch_all.hpp"

#include <boost/test/unit_test.hpp>

using dozor::endpoints::Answer;
using dozor::endpoints::catch_all_detected;
using dozor::endpoints::is_endpoint;

namespace {

const char* kShell =
    "<html><body><div id=app><p>Loading the shop application, please wait.</p><p>You asked for "
    "%s</p></div></body></html>";

Answer spa(const std::string& path) {
  std::string body = kShell;
  body.replace(body.find("%s"), 2, path);
  return {path, 200, "text/html", "", body};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoints_catch_all)

BOOST_AUTO_TEST_CASE(a_site_that_answers_404_keeps_every_existing_status) {
  std::vector<Answer> base = {{"/dozor-dzr0123456789", 404, "text/plain", "", "not found"}};
  BOOST_TEST(!catch_all_detected(base));
  BOOST_TEST(is_endpoint({"/admin", 200, "text/html", "", "<h1>Admin</h1>"}, base));
  BOOST_TEST(is_endpoint({"/private", 403, "text/plain", "", "forbidden"}, base));
  BOOST_TEST(is_endpoint({"/api", 401, "", "", ""}, base));
  BOOST_TEST(is_endpoint({"/admin", 301, "", "/admin/", ""}, base));
  BOOST_TEST(!is_endpoint({"/nope", 404, "text/plain", "", "not found"}, base));
  BOOST_TEST(!is_endpoint({"/boom", 500, "text/plain", "", "error"}, base));
  BOOST_TEST(!is_endpoint({"/gone", 0, "", "", ""}, base));
}

BOOST_AUTO_TEST_CASE(answers_like_the_catch_all_are_not_endpoints_even_when_they_echo_the_path) {
  std::vector<Answer> base = {spa("/dozor-dzr0123456789"), spa("/dozor-dzr9876543210/index.php")};
  BOOST_TEST(catch_all_detected(base));
  BOOST_TEST(!is_endpoint(spa("/admin"), base));
  BOOST_TEST(!is_endpoint(spa("/.env"), base));
  BOOST_TEST(!is_endpoint(spa("/api/v1"), base));
  BOOST_TEST(is_endpoint({"/actuator/health", 200, "application/json", "", R"({"status": "UP"})"}, base));
  BOOST_TEST(is_endpoint({"/admin", 403, "text/plain", "", "forbidden"}, base));
}

BOOST_AUTO_TEST_CASE(redirect_catch_alls_compare_the_location) {
  std::vector<Answer> base = {{"/dozor-dzr0123456789", 302, "", "/login?next=/dozor-dzr0123456789", ""}};
  BOOST_TEST(catch_all_detected(base));
  BOOST_TEST(!is_endpoint({"/admin", 302, "", "/login?next=/admin", ""}, base));
  BOOST_TEST(is_endpoint({"/admin", 302, "", "/admin/", ""}, base));
}

BOOST_AUTO_TEST_SUITE_END()
