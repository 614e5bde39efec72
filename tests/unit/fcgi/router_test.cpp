#include "fcgi/router.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::http;

namespace {

Handler named(const std::string& name) {
  return PublicHandler([name](dozor::handlers::Context&) {
    Response r;
    r.body = name;
    return r;
  });
}

Handler named_for_user(const std::string& name) {
  return UserHandler([name](dozor::handlers::UserContext&) {
    Response r;
    r.body = name;
    return r;
  });
}

Router sample() {
  Router r;
  r.add({"GET", "/api/services", named_for_user("list"), Access::User});
  r.add({"POST", "/api/services", named_for_user("create"), Access::User});
  r.add({"DELETE", "/api/services/{service_id:int}", named_for_user("delete"), Access::User});
  r.add({"POST", "/api/services/{service_id:int}/check", named_for_user("check"), Access::User});
  // Same method, overlapping shapes: the most specific must win whatever the order of adding.
  r.add({"GET", "/api/audit/{target_url:path}", named("audit-any"), Access::Public});
  r.add({"POST", "/api/audit/{target_url:path}", named("audit"), Access::Public});
  r.add({"GET", "/api/audit/headers/{target_url:path}", named("headers"), Access::Public});
  r.add({"GET", "/api/items/{item_id}", named("item"), Access::Public});
  r.add({"GET", "/api/items/latest", named("latest"), Access::Public});
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
  BOOST_TEST(m.allowed == (std::vector<std::string>{"GET", "HEAD", "POST"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(head_is_answered_by_the_get_route_and_listed_in_allow) {
  auto r = sample();
  auto m = r.match("HEAD", "/api/services");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->method == "GET");
  auto none = r.match("HEAD", "/api/services/1/check");  // POST only: no HEAD
  BOOST_TEST(!none.route);
  BOOST_TEST(none.allowed == (std::vector<std::string>{"POST"}), boost::test_tools::per_element());
  auto put = r.match("PUT", "/api/services");
  BOOST_TEST(put.allowed == (std::vector<std::string>{"GET", "HEAD", "POST"}), boost::test_tools::per_element());
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
  // GET /api/audit/{target_url:path} would also take this path (target "headers/example.com").
  auto r = sample();
  auto m = r.match("GET", "/api/audit/headers/example.com");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->pattern == "/api/audit/headers/{target_url:path}");
  BOOST_TEST(m.params.at("target_url") == "example.com");
  auto other = r.match("GET", "/api/audit/example.com/headers");
  BOOST_REQUIRE(other.route);
  BOOST_TEST(other.route->pattern == "/api/audit/{target_url:path}");
}

BOOST_AUTO_TEST_CASE(literal_beats_parameter_added_before_it) {
  auto r = sample();
  auto m = r.match("GET", "/api/items/latest");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->pattern == "/api/items/latest");
  auto p = r.match("GET", "/api/items/7");
  BOOST_REQUIRE(p.route);
  BOOST_TEST(p.params.at("item_id") == "7");
}

BOOST_AUTO_TEST_CASE(handler_kind_must_match_the_access_of_its_route) {
  Router r;
  BOOST_CHECK_THROW(r.add({"GET", "/open", named_for_user("x"), Access::Public}), std::logic_error);
  BOOST_CHECK_THROW(r.add({"GET", "/private", named("x"), Access::User}), std::logic_error);
  BOOST_CHECK_THROW(r.add({"GET", "/admin", named("x"), Access::Admin}), std::logic_error);
  BOOST_CHECK_NO_THROW(r.add({"GET", "/admin", named_for_user("x"), Access::Admin}));
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

BOOST_AUTO_TEST_CASE(only_literals_may_follow_a_rest_capture) {
  Router r;
  BOOST_CHECK_THROW(r.add({"GET", "/a/{x:path}/{y}", named("bad"), Access::Public}), std::logic_error);
  BOOST_CHECK_THROW(r.add({"GET", "/a/{x:path}/b/{y:path}", named("bad"), Access::Public}), std::logic_error);
  BOOST_CHECK_NO_THROW(r.add({"GET", "/a/{x:path}/b", named("ok"), Access::Public}));
}

BOOST_AUTO_TEST_CASE(rest_capture_stops_before_its_literal_tail) {
  auto r = sample();
  r.add({"GET", "/api/audit/{target_url:path}/report", named("report"), Access::Public});
  auto m = r.match("GET", "/api/audit/https://example.com/a/report");
  BOOST_REQUIRE(m.route);
  BOOST_TEST(m.route->pattern == "/api/audit/{target_url:path}/report");
  BOOST_TEST(m.params.at("target_url") == "https://example.com/a");
  auto enc = r.match("GET", "/api/audit/https%3A%2F%2Fexample.com%2Freport/report");
  BOOST_REQUIRE(enc.route);
  BOOST_TEST(enc.params.at("target_url") == "https%3A%2F%2Fexample.com%2Freport");
  // Without the tail, or with nothing before it, the capture-only route (or none) answers.
  auto plain = r.match("GET", "/api/audit/example.com/reports");
  BOOST_REQUIRE(plain.route);
  BOOST_TEST(plain.route->pattern == "/api/audit/{target_url:path}");
  auto empty = r.match("GET", "/api/audit/report");
  BOOST_REQUIRE(empty.route);
  BOOST_TEST(empty.route->pattern == "/api/audit/{target_url:path}");
  BOOST_TEST(empty.params.at("target_url") == "report");
  // A longer literal prefix still wins over the capture.
  auto headers = r.match("GET", "/api/audit/headers/example.com/report");
  BOOST_REQUIRE(headers.route);
  BOOST_TEST(headers.route->pattern == "/api/audit/headers/{target_url:path}");
}

BOOST_AUTO_TEST_SUITE_END()
