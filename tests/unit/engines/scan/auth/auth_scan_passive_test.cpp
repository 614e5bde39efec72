// The auth scan's passive checks as the user (engines/scan/auth/auth_scan.hpp, page_observers),
// against a loopback site with a cookie login: the observers read the anonymous and the logged-in
// pages; only what the logged-in pages add is reported, marked, redacted and replayable.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <memory>

#include "dozor_source_dir.hpp"
#include "engines/audit/passive/passive.hpp"
#include "engines/scan/auth/auth_scan.hpp"
#include "tests/unit/support/local_http.hpp"

using namespace dozor;
using dozor::test::LocalHttp;

namespace {

// Reports "banner" and "10.40.2.15" wherever a page shows them, one evidence per page and word.
class WordObserver : public audit::PageObserver {
 public:
  std::string name() const override { return "words"; }
  void observe(const crawl::PageSeen& page) override {
    if (!page.html) return;
    for (const char* word : {"banner", "10.40.2.15"})
      if (page.html->find(word) != std::string::npos) found_.evidence.push_back({page.url, word, "t", std::nullopt});
  }
  void finish(const crawl::CrawlResult&, audit::AuditParts& out) override {
    if (found_.evidence.empty()) return;
    found_.check = "test-words";
    found_.title = "Words";
    found_.owasp = "A01:2021";
    out.findings.push_back(found_);
  }

 private:
  audit::Finding found_;
};

class Throwing : public audit::PageObserver {
 public:
  std::string name() const override { return "throwing"; }
  void observe(const crawl::PageSeen&) override { throw std::runtime_error("broken"); }
  void finish(const crawl::CrawlResult&, audit::AuditParts&) override {}
};

bool logged_in(const std::string& head) { return head.find("sid=u1-Sekr3t-value") != std::string::npos; }

std::string page(const std::string& body) {
  return LocalHttp::answer(200, "Content-Type: text/html\r\n", "<html><body>" + body + "</body></html>");
}

// A cookie-login scan of `site` whose observers are the real passive rules.
authscan::AuthResult scan_with_passive_rules(const LocalHttp& site) {
  const net::EgressPolicy allow_loopback(true);
  auto defaults = authscan::DefaultCredentials::load(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  auto passive = audit::passive::Data::load(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  audit::tech::Fingerprints fingerprints;
  authscan::AuthOptions o;
  o.credentials.cookie = "sid=u1-Sekr3t-value";
  o.scan.request_timeout = std::chrono::seconds(5);
  o.requests_per_second = 1000;
  o.page_observers = [&passive] {
    std::vector<std::unique_ptr<audit::PageObserver>> v;
    v.push_back(std::make_unique<audit::passive::PassiveObserver>(passive));
    return v;
  };
  return authscan::scan(site.url("/"), allow_loopback, defaults, fingerprints, std::move(o));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_scan_passive)

BOOST_AUTO_TEST_CASE(only_what_the_logged_in_pages_add_is_reported_as_logged_in) {
  LocalHttp site({{"/",
                   [](const std::string& head) {
                     return logged_in(head) ? page(
                                                  "<p>banner</p><p>Hello alice</p><a href=\"/account\">Account</a>"
                                                  "<a href=\"/logout\">Sign out</a>")
                                            : page("<p>banner</p><a href=\"/account\">Account</a>");
                   }},
                  {"/account", [](const std::string& head) {
                     return logged_in(head) ? page("<p>banner</p><p>Backups on 10.40.2.15</p>")
                                            : LocalHttp::answer(302, "Location: /\r\n", "");
                   }}});
  const net::EgressPolicy allow_loopback(true);
  auto defaults = authscan::DefaultCredentials::load(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  audit::tech::Fingerprints fingerprints;
  authscan::AuthOptions o;
  o.credentials.cookie = "sid=u1-Sekr3t-value";
  o.scan.request_timeout = std::chrono::seconds(5);
  o.requests_per_second = 1000;
  o.budget = std::chrono::seconds(30);
  int sets = 0;
  o.page_observers = [&sets] {
    ++sets;
    std::vector<std::unique_ptr<audit::PageObserver>> v;
    v.push_back(std::make_unique<Throwing>());
    v.push_back(std::make_unique<WordObserver>());
    return v;
  };
  auto r = authscan::scan(site.url("/"), allow_loopback, defaults, fingerprints, std::move(o));
  BOOST_TEST(r.logged_in);
  BOOST_TEST(sets == 2);  // one set for the anonymous pages, one for the logged-in ones
  BOOST_REQUIRE_EQUAL(r.logged_in_findings.size(), 1U);
  const auto& f = r.logged_in_findings.front();
  BOOST_TEST(f.check == "test-words");
  BOOST_TEST(f.title == "Words (logged-in pages)");
  // "banner" is on the anonymous pages too: not repeated.
  BOOST_REQUIRE_EQUAL(f.evidence.size(), 1U);
  BOOST_TEST(f.evidence[0].url == site.url("/account"));
  BOOST_TEST(f.evidence[0].excerpt == "10.40.2.15");
  BOOST_TEST(f.evidence[0].note == "logged-in page: t");
  BOOST_TEST(f.evidence[0].replay.find("Cookie: ****") != std::string::npos, f.evidence[0].replay);
  BOOST_TEST(f.evidence[0].replay.find("Sekr3t") == std::string::npos);
  // The broken observer is named, once per set; the other one kept its pages.
  BOOST_REQUIRE_EQUAL(r.passive_errors.size(), 2U);
  BOOST_TEST(r.passive_errors[0].check == "throwing");
  auto j = authscan::to_json(r);
  BOOST_TEST(j.at("findings").as_array().back().as_object().at("logged_in").as_bool());
  BOOST_TEST(j.at("by_category").as_object().at("A01:2021").as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(the_passive_rules_see_a_private_address_on_a_logged_in_page) {
  LocalHttp site({{"/",
                   [](const std::string& head) {
                     return logged_in(head) ? page(
                                                  "<p>Hello alice</p><a href=\"/account/settings\">Account</a>"
                                                  "<a href=\"/logout\">Sign out</a>")
                                            : page("<a href=\"/account/settings\">Account</a>");
                   }},
                  {"/account/settings", [](const std::string& head) {
                     return logged_in(head) ? page("<p>Statements are archived nightly on 10.40.2.15.</p>")
                                            : LocalHttp::answer(302, "Location: /\r\n", "");
                   }}});
  auto r = scan_with_passive_rules(site);
  BOOST_TEST(r.logged_in);
  BOOST_REQUIRE_EQUAL(r.logged_in_findings.size(), 1U);
  BOOST_TEST(r.logged_in_findings[0].check == "private-ip-disclosure");
}

BOOST_AUTO_TEST_CASE(a_cookie_set_again_on_every_answer_is_not_repeated_as_logged_in) {
  // A load balancer's cookie: a new value and expiry on each answer, no Secure/HttpOnly/SameSite.
  auto counter = std::make_shared<std::atomic<int>>(0);
  auto with_cookie = [counter](const std::string& body) {
    auto n = std::to_string(++*counter);
    return LocalHttp::answer(
        200, "Content-Type: text/html\r\nSet-Cookie: LBROUTE=route" + n + "xyz; Max-Age=" + n + "00; Path=/\r\n",
        "<html><body>" + body + "</body></html>");
  };
  LocalHttp site({{"/",
                   [with_cookie](const std::string& head) {
                     return with_cookie(logged_in(head) ? "<a href=\"/account\">Account</a><a href=\"/logout\">Out</a>"
                                                        : "<a href=\"/account\">Account</a>");
                   }},
                  {"/account", [with_cookie](const std::string& head) {
                     return logged_in(head) ? with_cookie("<p>Your orders</p>")
                                            : LocalHttp::answer(302, "Location: /\r\n", "");
                   }}});
  auto r = scan_with_passive_rules(site);
  BOOST_TEST(r.logged_in);
  for (const auto& f : r.logged_in_findings) BOOST_TEST(f.check.rfind("cookie-", 0) != 0, f.check);
}

BOOST_AUTO_TEST_CASE(an_anonymous_scan_runs_no_observer) {
  LocalHttp site({{"/", LocalHttp::fixed(page("<p>10.40.2.15</p>"))}});
  const net::EgressPolicy allow_loopback(true);
  auto defaults = authscan::DefaultCredentials::load(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  audit::tech::Fingerprints fingerprints;
  authscan::AuthOptions o;
  o.scan.request_timeout = std::chrono::seconds(5);
  o.requests_per_second = 1000;
  int sets = 0;
  o.page_observers = [&sets] {
    ++sets;
    return std::vector<std::unique_ptr<audit::PageObserver>>{};
  };
  auto r = authscan::scan(site.url("/"), allow_loopback, defaults, fingerprints, std::move(o));
  BOOST_TEST(sets == 0);
  BOOST_TEST(r.logged_in_findings.empty());
}

BOOST_AUTO_TEST_SUITE_END()
