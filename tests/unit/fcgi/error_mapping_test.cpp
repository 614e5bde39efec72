#include "fcgi/error_mapping.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "db/errors.hpp"
#include "engines/errors.hpp"
#include "engines/text/utf8.hpp"
#include "fcgi/http_error.hpp"

using namespace dozor;

namespace {

http::Response map(auto&& ex) { return http::response_for(std::make_exception_ptr(ex)); }

std::string header(const http::Response& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(error_mapping)

BOOST_AUTO_TEST_CASE(each_failure_has_its_status) {
  BOOST_TEST(map(NotFound("x")).status == 404);
  BOOST_TEST(map(Conflict("x")).status == 409);
  BOOST_TEST(map(Forbidden("x")).status == 403);
  BOOST_TEST(map(db::DbUnavailable("x")).status == 503);
  BOOST_TEST(map(db::DbError("x")).status == 500);
  BOOST_TEST(map(std::runtime_error("x")).status == 500);
}

// A query value may hold any bytes; JSON is UTF-8. Each invalid sequence is echoed as U+FFFD, in the
// input, the location, the message and the context alike, and so is a plain error's detail.
BOOST_AUTO_TEST_CASE(echoed_invalid_utf8_becomes_the_replacement_character) {
  http::FieldIssue issue{"int_parsing", boost::json::array{"query", "in\xfft"}, "got \xc3(",
                         boost::json::value("\xff\xfex"), boost::json::object{{"expected", "\x80"}}};
  auto r = map(http::ValidationFailed({issue}));
  BOOST_TEST(r.status == 422);
  BOOST_TEST(dozor::text::is_valid_utf8(r.body));
  auto item = boost::json::parse(r.body).at("detail").at(0);
  BOOST_TEST(item.at("input").as_string() == "\xEF\xBF\xBD\xEF\xBF\xBDx");
  BOOST_TEST(item.at("loc").at(1).as_string() == "in\xEF\xBF\xBDt");
  BOOST_TEST(item.at("msg").as_string() == "got \xEF\xBF\xBD(");
  BOOST_TEST(item.at("ctx").at("expected").as_string() == "\xEF\xBF\xBD");
  // Valid text is untouched, and a long invalid echo is still cut as an excerpt.
  auto ok =
      map(http::ValidationFailed({{"x", boost::json::array{"query", "q"}, "m", boost::json::value("\xD0\xB6"), {}}}));
  BOOST_TEST(boost::json::parse(ok.body).at("detail").at(0).at("input").as_string() == "\xD0\xB6");
  auto plain = http::Response::error(404, "no \xff here");
  BOOST_TEST(dozor::text::is_valid_utf8(plain.body));
  BOOST_TEST(boost::json::parse(plain.body).at("detail").as_string() == "no \xEF\xBF\xBD here");
}

BOOST_AUTO_TEST_CASE(unauthenticated_is_401_with_bearer_challenge) {
  auto r = map(Unauthenticated("expired"));
  BOOST_TEST(r.status == 401);
  BOOST_TEST(header(r, "WWW-Authenticate") == "Bearer");
  BOOST_TEST(boost::json::parse(r.body).at("detail").as_string() == "Not authenticated");
}

BOOST_AUTO_TEST_CASE(throttled_login_carries_retry_after) {
  auto r = map(TooManyAttempts("slow down", 42));
  BOOST_TEST(r.status == 429);
  BOOST_TEST(header(r, "Retry-After") == "42");
}

BOOST_AUTO_TEST_CASE(a_full_hashing_queue_is_429_with_retry_after) {
  auto r = map(Busy("Too many logins in progress; try again in a moment", 1));
  BOOST_TEST(r.status == 429);
  BOOST_TEST(header(r, "Retry-After") == "1");
  BOOST_TEST(r.body.find("in progress") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_engine_field_rule_is_a_422_at_its_field_without_the_input) {
  auto r = map(InvalidField("password", "The password is too common"));
  BOOST_TEST(r.status == 422);
  BOOST_TEST(r.body.find("\"loc\":[\"body\",\"password\"]") != std::string::npos);
  BOOST_TEST(r.body.find("\"type\":\"value_error\"") != std::string::npos);
  BOOST_TEST(r.body.find("Value error, The password is too common") != std::string::npos);
  BOOST_TEST(r.body.find("\"input\":null") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(internal_errors_do_not_leak_their_text) {
  auto r = map(std::runtime_error("password=hunter2 in SQL"));
  BOOST_TEST(r.body.find("hunter2") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(validation_failure_lists_every_issue_in_fastapi_shape) {
  std::vector<http::FieldIssue> issues;
  issues.push_back({"missing", {"body", "name"}, "Field required", boost::json::value(nullptr), {}});
  issues.push_back(
      {"url_scheme", {"body", "url"}, "URL scheme should be 'http' or 'https'", boost::json::value("ftp://x"), {}});
  auto r = map(http::ValidationFailed(issues));
  BOOST_TEST(r.status == 422);
  auto detail = boost::json::parse(r.body).at("detail").as_array();
  BOOST_REQUIRE(detail.size() == 2u);
  BOOST_TEST(detail[0].at("type").as_string() == "missing");
  BOOST_TEST(detail[0].at("loc").as_array()[1].as_string() == "name");
  BOOST_TEST(detail[1].at("type").as_string() == "url_scheme");
  BOOST_TEST(detail[1].at("input").as_string() == "ftp://x");
  BOOST_TEST(detail[1].as_object().contains("msg"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(validation_echo)

namespace {
boost::json::value first_input(const http::Response& r) {
  return boost::json::parse(r.body).at("detail").at(0).at("input");
}
http::ValidationFailed failed(boost::json::array loc, boost::json::value input) {
  return http::ValidationFailed({{"string_type", std::move(loc), "bad", std::move(input), {}}});
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_huge_input_is_echoed_as_a_bounded_excerpt) {
  std::string big(1 << 20, 'a');
  auto r = map(failed({"body", "name"}, boost::json::string(big)));
  BOOST_TEST(r.status == 422);
  BOOST_TEST(r.body.size() < 1024u);
  BOOST_TEST(first_input(r).as_string().size() < 200u);
  boost::json::array many;
  for (int i = 0; i < 100000; ++i) many.push_back(i);
  auto a = map(failed({"body"}, many));
  BOOST_TEST(a.body.size() < 1024u);
}

BOOST_AUTO_TEST_CASE(a_secret_field_is_never_echoed) {
  auto r = map(failed({"body", "password"}, "hunter2-secret"));
  BOOST_TEST(r.body.find("hunter2") == std::string::npos);
  BOOST_TEST(first_input(r).as_string() == "****");
  // Nested in a body echoed whole: the member is masked at any depth.
  boost::json::value body = {{"username", "ivan"}, {"params", {{"bot_token", "123:ABCDEF"}, {"chat_id", "5"}}}};
  auto n = map(failed({"body"}, body));
  BOOST_TEST(n.body.find("ABCDEF") == std::string::npos);
  BOOST_TEST(n.body.find("ivan") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_cut_never_splits_a_utf8_character) {
  std::string cyr;
  for (int i = 0; i < 200; ++i) cyr += "\xD0\xB4";  // "д"
  auto r = map(failed({"body", "name"}, boost::json::string(cyr)));
  auto echoed = std::string(first_input(r).as_string());
  BOOST_TEST(echoed.size() == 128u * 2 + std::string("…").size());
}

BOOST_AUTO_TEST_SUITE_END()
