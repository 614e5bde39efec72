// The dsl matcher subset of the template scanner (engines/scan/templates/dsl.hpp).
#include "engines/scan/templates/dsl.hpp"

#include <boost/test/unit_test.hpp>
#include <stdexcept>

using dozor::scan::templates::DslExpr;
using dozor::scan::templates::Response;

namespace {

Response answer(int status, std::string body, std::string headers = "Server: nginx\r\n") {
  Response r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

bool eval(const std::string& e, const Response& r) { return DslExpr::parse(e).eval(r); }

}  // namespace

BOOST_AUTO_TEST_SUITE(template_dsl)

BOOST_AUTO_TEST_CASE(comparisons_and_logic_follow_the_answer) {
  auto r = answer(200, "<title>Admin</title>");
  BOOST_TEST(eval("status_code==200", r));
  BOOST_TEST(!eval("status_code != 200", r));
  BOOST_TEST(eval("status_code >= 200 && status_code < 300", r));
  BOOST_TEST(eval("status_code == 404 || contains(body, 'Admin')", r));
  BOOST_TEST(eval("!(status_code == 404)", r));
  BOOST_TEST(eval("len(body) < 100 && content_length == 20", r));
  BOOST_TEST(!eval("len(body) > 100", r));
  BOOST_TEST(eval("contains(tolower(body), \"admin\")", r));
  BOOST_TEST(eval("contains(toupper(body), \"ADMIN\")", r));
  BOOST_TEST(eval("contains(header, \"nginx\") && contains(all_headers, 'Server')", r));
  BOOST_TEST(eval("contains(response, 'nginx') && contains(response, 'Admin')", r));
  BOOST_TEST(eval("contains_any(body, 'x', 'Admin') && !contains_all(body, 'x', 'Admin')", r));
  BOOST_TEST(eval("starts_with(body, '<title>') && ends_with(body, 'nope', '</title>')", r));
  BOOST_TEST(eval("regex('<title>[A-Z][a-z]+</title>', body)", r));
  BOOST_TEST(eval("body == \"<title>Admin</title>\"", r));
  BOOST_TEST(eval("true && !false", r));
}

BOOST_AUTO_TEST_CASE(type_errors_are_false_not_errors) {
  auto r = answer(200, "x");
  BOOST_TEST(!eval("status_code == 'x'", r));   // int against string
  BOOST_TEST(!eval("status_code", r));          // not a boolean
  BOOST_TEST(!eval("body < 3", r));             // ordering of a string
  BOOST_TEST(!eval("status_code && true", r));  // && of an integer
  BOOST_TEST(!eval("len(status_code) == 3", r));
}

BOOST_AUTO_TEST_CASE(anything_outside_the_subset_is_refused_at_parse_time) {
  for (const char* e : {"compare_versions(version, '< 2.0')", "status_code_1 == 200", "body + 'x'", "contains(body)",
                        "len(body, body) == 1", "regex(body, 'x')", "regex('(', body)", "status_code == ",
                        "(status_code == 200", "md5(body) == 'x'", "'unterminated", "status_code ~ 200",
                        "len(body) == 1)", "duration > 5", "interactsh_protocol == 'dns'", "1234567890123456 == 1", ""})
    BOOST_CHECK_THROW(DslExpr::parse(e), std::invalid_argument);
  std::string deep(100, '(');
  BOOST_CHECK_THROW(DslExpr::parse(deep + "true" + std::string(100, ')')), std::invalid_argument);
  BOOST_CHECK_THROW(DslExpr::parse(std::string(3000, ' ') + "true"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(string_escapes_are_read) {
  auto r = answer(200, "a\"b\nc");
  BOOST_TEST(eval("contains(body, \"a\\\"b\\nc\")", r));
}

BOOST_AUTO_TEST_SUITE_END()
