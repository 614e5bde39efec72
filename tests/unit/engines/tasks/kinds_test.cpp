#include "engines/tasks/kinds.hpp"

#include <boost/test/unit_test.hpp>
#include <set>
#include <string>

#include "engines/cancel.hpp"
#include "engines/limits.hpp"
#include "engines/tasks/task_id.hpp"

using namespace dozor::tasks;

BOOST_AUTO_TEST_SUITE(task_kinds)

BOOST_AUTO_TEST_CASE(the_kinds_this_version_runs_and_no_other) {
  for (const char* name : {"scan", "audit", "crawl", "owasp", "scanner", "endpoints", "api-check", "auth-scan"})
    BOOST_TEST(find_kind(name) != nullptr, name);
  for (const char* name : {"", "Scan", "OWASP", "scan ", "crawl\n", "api_check"})
    BOOST_TEST(find_kind(name) == nullptr, name);
  BOOST_TEST(kind_list() == "'scan', 'audit', 'crawl', 'owasp', 'scanner', 'endpoints', 'api-check' or 'auth-scan'");
}

BOOST_AUTO_TEST_CASE(endpoints_takes_a_timeout_within_the_route_bounds) {
  const auto& opts = find_kind("endpoints")->options;
  BOOST_REQUIRE(opts.size() == 1u);
  BOOST_TEST(std::string(opts[0].name) == "timeout");
  BOOST_TEST(opts[0].min == dozor::limits::endpoints::kTimeoutMin);
  BOOST_TEST(opts[0].max == dozor::limits::endpoints::kTimeoutMax);
  BOOST_TEST(opts[0].fallback == dozor::limits::endpoints::kTimeoutDefault);
}

BOOST_AUTO_TEST_CASE(api_check_takes_max_operations_within_the_route_bounds) {
  const auto* kind = find_kind("api-check");
  BOOST_REQUIRE(kind != nullptr);
  BOOST_TEST(kind->active);
  BOOST_REQUIRE(kind->options.size() == 1u);
  BOOST_TEST(std::string(kind->options[0].name) == "max_operations");
  BOOST_TEST(kind->options[0].min == 1);
  BOOST_TEST(kind->options[0].max == static_cast<int>(dozor::limits::api::kOperations));
}

BOOST_AUTO_TEST_CASE(auth_scan_is_active_and_takes_its_credentials_as_bounded_strings) {
  const auto* kind = find_kind("auth-scan");
  BOOST_REQUIRE(kind);
  BOOST_TEST(kind->active);
  BOOST_TEST(kind->options.empty());
  std::set<std::string> names;
  for (const auto& o : kind->strings) {
    names.insert(o.name);
    BOOST_TEST(o.max_chars > 0u);
  }
  BOOST_TEST((names == std::set<std::string>{"username", "password", "login_url", "cookie", "bearer"}));
  // Its rule across options: one way of logging in, complete; the other kinds have none.
  BOOST_REQUIRE(kind->check != nullptr);
  auto half = kind->check(boost::json::object{{"username", "alice"}}, "https://example.org/");
  BOOST_REQUIRE(half.has_value());
  BOOST_TEST(half->message.find("alice") == std::string::npos);
  BOOST_TEST(!kind->check(boost::json::object{{"username", "a"}, {"password", "p"}}, "https://example.org/"));
  BOOST_TEST(!kind->check(boost::json::object{}, "https://example.org/"));
  BOOST_TEST(find_kind("owasp")->check == nullptr);
}

BOOST_AUTO_TEST_CASE(options_take_the_crawl_routes_bounds) {
  const auto& opts = find_kind("crawl")->options;
  BOOST_REQUIRE(opts.size() == 2u);
  BOOST_TEST(std::string(opts[0].name) == "depth");
  BOOST_TEST(opts[0].min == 0);
  BOOST_TEST(opts[0].max == dozor::limits::kCrawlDepthMax);
  BOOST_TEST(opts[0].fallback == dozor::limits::kCrawlDepthDefault);
  BOOST_TEST(std::string(opts[1].name) == "max_pages");
  BOOST_TEST(opts[1].min == 1);
  BOOST_TEST(opts[1].max == dozor::limits::kCrawlPagesMax);
  BOOST_TEST(opts[1].fallback == dozor::limits::kCrawlPagesDefault);
}

BOOST_AUTO_TEST_CASE(task_ids_are_128_random_bits_in_base64url) {
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    auto id = new_task_id();
    BOOST_TEST(id.size() == 22u);
    BOOST_TEST(looks_like_task_id(id), id);
    seen.insert(id);
  }
  BOOST_TEST(seen.size() == 2000u);
  BOOST_TEST(!looks_like_task_id(""));
  BOOST_TEST(!looks_like_task_id(std::string(21, 'A')));
  BOOST_TEST(!looks_like_task_id(std::string(23, 'A')));
  BOOST_TEST(!looks_like_task_id(std::string(21, 'A') + "="));
  BOOST_TEST(!looks_like_task_id(std::string(21, 'A') + "/"));
  BOOST_TEST(looks_like_task_id(std::string(20, 'z') + "-_"));
}

BOOST_AUTO_TEST_CASE(copies_of_a_cancel_token_share_one_flag) {
  dozor::CancelToken a;
  auto b = a;
  BOOST_TEST(!b.cancelled());
  a.cancel();
  BOOST_TEST(b.cancelled());
  BOOST_TEST(!dozor::CancelToken().cancelled());  // a new token is its own
}

BOOST_AUTO_TEST_SUITE_END()
