#include "fcgi/request.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::http;

BOOST_AUTO_TEST_SUITE(request)

BOOST_AUTO_TEST_CASE(target_splits_raw_path_and_decoded_query) {
  Request r;
  BOOST_REQUIRE(parse_target("/api/crawl/example.com?depth=3&max_pages=a%20b", r));
  BOOST_TEST(r.raw_path == "/api/crawl/example.com");
  BOOST_TEST(*r.query_param("depth") == "3");
  BOOST_TEST(*r.query_param("max_pages") == "a b");
  BOOST_TEST(!r.query_param("nope"));
}

BOOST_AUTO_TEST_CASE(path_stays_percent_encoded) {
  Request r;
  BOOST_REQUIRE(parse_target("/api/audit/https%3A%2F%2Fx.org%2F", r));
  BOOST_TEST(r.raw_path == "/api/audit/https%3A%2F%2Fx.org%2F");
}

BOOST_AUTO_TEST_CASE(unencoded_url_in_path_is_kept) {
  Request r;
  BOOST_REQUIRE(parse_target("/api/audit/https://x.org/a", r));
  BOOST_TEST(r.raw_path == "/api/audit/https://x.org/a");
}

BOOST_AUTO_TEST_CASE(non_origin_target_is_rejected) {
  Request r;
  BOOST_TEST(!parse_target("http://evil/", r));
  BOOST_TEST(!parse_target("", r));
}

BOOST_AUTO_TEST_CASE(cookies_are_split) {
  auto c = parse_cookies("a=1; session=xyz;  b=");
  BOOST_TEST(c.at("a") == "1");
  BOOST_TEST(c.at("session") == "xyz");
  BOOST_TEST(c.at("b") == "");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(request_aliasing)

// The worker parses the request's own raw_target: the view must stay valid while parsing.
BOOST_AUTO_TEST_CASE(parsing_a_view_of_the_request_itself_is_safe) {
  Request r;
  r.raw_target = "/api/v1/services/12345/check?depth=2";
  BOOST_REQUIRE(parse_target(r.raw_target, r));
  BOOST_TEST(r.raw_path == "/api/v1/services/12345/check");
  BOOST_TEST(*r.query_param("depth") == "2");
}

BOOST_AUTO_TEST_SUITE_END()
