#include "engines/monitor/check_rules.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::monitor;
using dozor::net::CheckOutcome;

namespace {
CheckOutcome answer(int status, std::string body = {}) {
  CheckOutcome o;
  o.responded = true;
  o.status = status;
  o.body = std::move(body);
  return o;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(check_rules)

BOOST_AUTO_TEST_CASE(status_ranges_parse_lists_and_ranges) {
  auto r = parse_status_ranges("200-299, 301,404");
  BOOST_REQUIRE(r);
  BOOST_TEST(r->size() == 3u);
  BOOST_TEST((*r)[0].low == 200);
  BOOST_TEST((*r)[0].high == 299);
  BOOST_TEST((*r)[2].low == 404);
  BOOST_TEST((*r)[2].high == 404);
}

BOOST_AUTO_TEST_CASE(status_ranges_refuse_what_is_not_a_code) {
  std::string why;
  for (const char* bad : {"", "20", "2000", "99", "600", "300-200", "200-", "abc", "200,,301", "2x0"}) {
    BOOST_TEST(!parse_status_ranges(bad, &why), bad);
    BOOST_TEST(!why.empty());
  }
  std::string many;
  for (int i = 0; i < 32; ++i) many += (i ? "," : "") + std::to_string(200 + i);
  BOOST_TEST(parse_status_ranges(many).has_value());  // 32 items: the limit
  BOOST_TEST(!parse_status_ranges(many + ",299").has_value());
}

BOOST_AUTO_TEST_CASE(default_is_2xx_and_3xx) {
  CheckRules rules;
  BOOST_TEST(judge("https://x/", rules, answer(200)).available);
  BOOST_TEST(judge("https://x/", rules, answer(399)).available);
  auto v = judge("https://x/", rules, answer(404));
  BOOST_TEST(!v.available);
  BOOST_TEST(*v.error == "HTTP status 404");
}

BOOST_AUTO_TEST_CASE(expected_status_replaces_the_default) {
  CheckRules rules;
  rules.expected_status = "401,500-503";
  BOOST_TEST(judge("https://x/", rules, answer(401)).available);
  BOOST_TEST(judge("https://x/", rules, answer(503)).available);
  auto v = judge("https://x/", rules, answer(200));
  BOOST_TEST(!v.available);
  BOOST_TEST(*v.error == "HTTP status 200 (expected 401,500-503)");
}

BOOST_AUTO_TEST_CASE(keyword_must_or_must_not_appear) {
  CheckRules rules;
  rules.keyword = "Welcome";
  BOOST_TEST(judge("https://x/", rules, answer(200, "<h1>Welcome</h1>")).available);
  auto v = judge("https://x/", rules, answer(200, "<h1>Maintenance</h1>"));
  BOOST_TEST(!v.available);
  BOOST_TEST(*v.error == "keyword not found: Welcome");
  BOOST_TEST(!judge("https://x/", rules, answer(500, "Welcome")).available);  // the status still counts
  rules.keyword = "Fatal error";
  rules.keyword_absent = true;
  BOOST_TEST(judge("https://x/", rules, answer(200, "all fine")).available);
  BOOST_TEST(!judge("https://x/", rules, answer(200, "PHP Fatal error: ...")).available);
}

BOOST_AUTO_TEST_CASE(transport_errors_win_over_status) {
  CheckOutcome o = answer(200);
  o.error = "stopped after 5 redirects";
  auto v = judge("https://x/", CheckRules{}, o);
  BOOST_TEST(!v.available);
  BOOST_TEST(*v.error == "stopped after 5 redirects");
}

BOOST_AUTO_TEST_CASE(requests_follow_the_options) {
  CheckRules rules;
  rules.method = "HEAD";
  auto head = request_for("https://x/", rules, std::chrono::seconds(5));
  BOOST_TEST(head.head);
  BOOST_TEST(!head.keep_body);
  rules.method = "GET";
  rules.keyword = "ok";
  auto get = request_for("https://x/", rules, std::chrono::seconds(5));
  BOOST_TEST(get.keep_body);
  BOOST_TEST(get.max_body == kKeywordBodyLimit);
  BOOST_TEST(get.timeout.count() == 5000);
  auto tcp = request_for("tcp://db.example:5432", CheckRules{}, std::chrono::seconds(5));
  BOOST_TEST(tcp.connect_only);
  BOOST_TEST(tcp.url == "http://db.example:5432");
  CheckOutcome connected;
  connected.responded = true;
  BOOST_TEST(judge("tcp://db.example:5432", CheckRules{}, connected).available);
}

BOOST_AUTO_TEST_SUITE_END()
