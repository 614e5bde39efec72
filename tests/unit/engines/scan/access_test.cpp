// The host an active scan's permission is decided by (engines/scan/access).
#include "engines/scan/access.hpp"

#include <boost/test/unit_test.hpp>
#include <set>
#include <string>
#include <vector>

#include "engines/limits.hpp"

using namespace dozor::scan;

BOOST_AUTO_TEST_SUITE(scan_access)

BOOST_AUTO_TEST_CASE(the_host_ignores_scheme_port_path_and_case) {
  BOOST_TEST(target_host("https://Shop.Example.COM:8443/a?b=c") == "shop.example.com");
  BOOST_TEST(target_host("http://shop.example.com/") == "shop.example.com");
  BOOST_TEST(target_host("http://127.0.0.1:9/") == "127.0.0.1");
  BOOST_TEST(target_host("http://[::1]:8080/") == "[::1]");
}

BOOST_AUTO_TEST_CASE(what_is_no_http_url_has_no_host) {
  BOOST_TEST(target_host("tcp://db.example.com:5432").empty());
  BOOST_TEST(target_host("not a url").empty());
  BOOST_TEST(target_host("").empty());
}

BOOST_AUTO_TEST_CASE(reasons_have_stable_names_for_the_log) {
  BOOST_TEST(to_string(Reason::Admin) == "admin");
  BOOST_TEST(to_string(Reason::Grant) == "grant");
  BOOST_TEST(to_string(Reason::Everyone) == "everyone");
  BOOST_TEST(to_string(Reason::Verified) == "verified");
  BOOST_TEST(to_string(Reason::OwnServiceGrace) == "own_service_grace");
  BOOST_TEST(to_string(Reason::NotVerified) == "not_verified");
  BOOST_TEST(to_string(Reason::NotOwned) == "not_owned");
  BOOST_TEST(to_string(Reason::OriginLimit) == "origin_limit");
}

namespace {

// A scope over a fixed table of decisions by host, recording what it asked and logged.
struct Recorder {
  std::vector<std::string> decided, logged;
  std::set<std::string> allowed_hosts;
  std::shared_ptr<Scope> open(const std::string& target) {
    return std::make_shared<Scope>(
        target,
        [this](const std::string& url) {
          decided.push_back(url);
          bool ok = allowed_hosts.count(target_host(url)) > 0;
          return Decision{ok, ok ? Reason::Verified : Reason::NotOwned};
        },
        [this](const std::string& url, const Decision& d) {
          logged.push_back(url + " " + std::string(to_string(d.reason)));
        });
  }
};

std::string origin(int i) { return "https://h" + std::to_string(i) + ".example:443"; }

}  // namespace

BOOST_AUTO_TEST_CASE(a_scope_decides_and_logs_each_origin_once) {
  Recorder r;
  r.allowed_hosts = {"a.example"};
  auto scope = r.open("https://a.example/shop?x=1");
  BOOST_TEST(scope->target_decision().allowed);
  BOOST_TEST(scope->admit("https://a.example:443"));  // the target's origin: decided already
  BOOST_TEST(!scope->admit("http://b.example:80"));   // a redirect elsewhere
  BOOST_TEST(!scope->admit("http://b.example:80"));
  BOOST_TEST(scope->admit("http://a.example:8080"));  // the same host's other port, by the table
  BOOST_TEST((r.decided ==
              std::vector<std::string>{"https://a.example/shop?x=1", "http://b.example:80", "http://a.example:8080"}));
  BOOST_TEST((r.logged == std::vector<std::string>{"https://a.example/shop?x=1 verified",
                                                   "http://b.example:80 not_owned", "http://a.example:8080 verified"}));
  auto entries = scope->entries();
  BOOST_REQUIRE(entries.size() == 3u);
  BOOST_TEST(entries[0].origin == "https://a.example:443");
  BOOST_TEST(!entries[1].decision.allowed);
  // The gate is the same decision, and keeps the scope alive.
  auto gate = scope->gate();
  scope.reset();
  BOOST_TEST(gate("https://a.example:443"));
  BOOST_TEST(!gate("http://b.example:80"));
}

BOOST_AUTO_TEST_CASE(a_refused_target_admits_nothing) {
  Recorder r;
  r.allowed_hosts = {"b.example"};
  auto scope = r.open("https://a.example/");
  BOOST_TEST(!scope->target_decision().allowed);
  BOOST_TEST(!scope->admit("https://b.example:443"));
  BOOST_TEST(r.decided.size() == 1u);  // nothing more was asked
}

BOOST_AUTO_TEST_CASE(a_scan_decides_at_most_k_origins_and_refuses_the_next_one) {
  const auto n = dozor::limits::scope::kOrigins;
  Recorder r;
  for (std::size_t i = 0; i <= n; ++i) r.allowed_hosts.insert("h" + std::to_string(i) + ".example");
  auto scope = r.open(origin(0));
  for (std::size_t i = 1; i < n; ++i) BOOST_TEST(scope->admit(origin(static_cast<int>(i))));
  BOOST_TEST(scope->entries().size() == n);  // N origins decided, the target included
  BOOST_TEST(!scope->admit(origin(static_cast<int>(n))), "origin N+1 was admitted");
  BOOST_TEST(!scope->admit(origin(static_cast<int>(n) + 1)));
  BOOST_TEST(r.decided.size() == n);
  BOOST_TEST(r.logged.size() == n + 1);  // the first refusal at the limit is logged once
  BOOST_TEST(r.logged.back() == origin(static_cast<int>(n)) + " origin_limit");
  BOOST_TEST(scope->admit(origin(1)), "an origin decided before the limit stays admitted");
}

BOOST_AUTO_TEST_CASE(a_refusal_says_how_to_get_the_right) {
  auto not_verified = refusal_message({false, Reason::NotVerified}, "https://Shop.example/a");
  BOOST_TEST(not_verified.find("shop.example") != std::string::npos);
  BOOST_TEST(not_verified.find("/api/v1/scan-verifications") != std::string::npos);
  auto not_owned = refusal_message({false, Reason::NotOwned}, "https://shop.example/");
  BOOST_TEST(not_owned.find("scan grant") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
