#include "fcgi/router.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::http;

namespace {

Handler named(std::string name) {
  return [name](dozor::handlers::Context&) {
    Response r;
    r.body = name;
    return r;
  };
}

Router sample() {
  Router r;
  r.add({"GET", "/api/services", named("list"), Access::User});
  r.add({"POST", "/api/services", named("create"), Access::User});
  r.add({"DELETE", "/api/services/{service_id:int}", named("delete"), Access::User});
  r.add({"POST", "/api/services/{service_id:int}/check", named("check"), Access::User});
  r.add({"POST", "/api/audit/{target_url:path}", named("audit"), Access::User});
  r.add({"GET", "/api/audit/headers/{target_url:path}", named("headers"), Access::User});
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(router)

BOOST_AUTO_TEST_CASE(literal_route_matches_its_method) {
  auto r = sample();
  auto m = r.match("POST", "/api/services");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->method == "POST");
  BOOST_TEST(m.route->pattern == "/api/services");
}

BOOST_AUTO_TEST_CASE(wrong_method_lists_allowed_methods) {
  auto r = sample();
  auto m = r.match("PUT", "/api/services");
  BOOST_TEST(!m.route);
  BOOST_TEST(m.allowed == (std::vector<std::string>{"GET", "POST"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_path_has_no_allowed_methods) {
  auto r = sample();
  auto m = r.match("GET", "/api/nothing");
  BOOST_TEST(!m.route);
  BOOST_TEST(m.allowed.empty());
}

BOOST_AUTO_TEST_CASE(typed_parameter_captures_raw_text_for_the_handler_to_validate) {
  auto r = sample();
  auto m = r.match("DELETE", "/api/services/abc");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.params.at("service_id") == "abc");
}

BOOST_AUTO_TEST_CASE(trailing_slash_or_extra_segment_does_not_match) {
  auto r = sample();
  BOOST_TEST(!r.match("GET", "/api/services/").route);
  BOOST_TEST(!r.match("POST", "/api/services/1/check/x").route);
  BOOST_TEST(!r.match("POST", "/api/services//check").route);
}

BOOST_AUTO_TEST_CASE(rest_capture_keeps_slashes_and_encoding) {
  auto r = sample();
  auto m = r.match("POST", "/api/audit/https://example.com/a/b");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.params.at("target_url") == "https://example.com/a/b");
  auto enc = r.match("POST", "/api/audit/https%3A%2F%2Fexample.com%2Fa");
  BOOST_REQUIRE(enc.route);
  BOOST_TEST(enc.params.at("target_url") == "https%3A%2F%2Fexample.com%2Fa");
}

BOOST_AUTO_TEST_CASE(literal_beats_capture) {
  auto r = sample();
  auto m = r.match("GET", "/api/audit/headers/example.com");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->pattern == "/api/audit/headers/{target_url:path}");
  BOOST_TEST(m.params.at("target_url") == "example.com");
}

BOOST_AUTO_TEST_CASE(rest_capture_needs_a_value) {
  auto r = sample();
  BOOST_TEST(!r.match("POST", "/api/audit/").route);
  BOOST_TEST(!r.match("POST", "/api/audit").route);
}

BOOST_AUTO_TEST_CASE(percent_encoded_literal_segment_matches) {
  auto r = sample();
  BOOST_TEST(r.match("GET", "/api/%73ervices").route);
}

BOOST_AUTO_TEST_CASE(rest_capture_must_be_last) {
  Router r;
  BOOST_CHECK_THROW(r.add({"GET", "/a/{x:path}/b", named("bad"), Access::Public}), std::logic_error);
}

BOOST_AUTO_TEST_SUITE_END()
