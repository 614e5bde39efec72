// The template scanner against a loopback server (engines/scan/templates/scanner.hpp): findings
// with evidence and a replay command, a catch-all site that matches nothing, stop-at-first-match,
// the severity filter, request bodies, cancellation and the deadline.
#include "engines/scan/templates/scanner.hpp"

#include <boost/test/unit_test.hpp>

#include "dozor_source_dir.hpp"
#include "tests/unit/support/local_http.hpp"

using namespace dozor;
using namespace dozor::scan::templates;
using dozor::test::LocalHttp;

namespace {

const net::EgressPolicy allow_loopback(true);

RunOptions quick() {
  RunOptions o;
  o.scan.request_timeout = std::chrono::seconds(5);
  o.scan.per_host_interval = std::chrono::milliseconds(0);
  o.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  return o;
}

Template tpl(const std::string& id, const std::string& severity, const std::string& block) {
  return parse_template("id: " + id + "\ninfo: {name: " + id + ", author: a, severity: " + severity +
                        ", tags: 'panel,exposure'}\nhttp:\n  - " + block);
}

const std::string kPanel =
    "method: GET\n    path: ['{{BaseURL}}/pma/', '{{BaseURL}}/phpMyAdmin/']\n"
    "    matchers-condition: and\n"
    "    matchers:\n      - {type: status, status: [200]}\n      - {type: word, words: ['<title>phpMyAdmin']}\n"
    "    extractors: [{type: regex, name: version, group: 1, regex: ['PMA_VERSION:\"([0-9.]+)\"']}]\n";

std::vector<Template> shipped() {
  return load_library({std::filesystem::path(DOZOR_SOURCE_DIR) / "share/scan/templates"}).loaded;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(template_scanner)

BOOST_AUTO_TEST_CASE(a_match_is_a_finding_with_evidence_extracted_values_and_a_replay) {
  LocalHttp site(
      {{"/phpMyAdmin/", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/html\r\n",
                                                           "<title>phpMyAdmin</title> PMA_VERSION:\"5.2.1\""))}});
  std::vector<Template> ts{tpl("pma", "medium", kPanel)};
  auto r = run(site.url("/"), ts, allow_loopback, quick());
  BOOST_TEST(r.complete);
  BOOST_TEST(r.templates_run == 1u);
  BOOST_TEST(r.requests == 2u);
  BOOST_TEST_REQUIRE(r.findings.size() == 1u);
  const auto& f = r.findings[0];
  BOOST_TEST(f.template_id == "pma");
  BOOST_TEST(f.finding.check == "template:pma");
  BOOST_TEST((f.finding.severity == audit::Severity::Medium));
  BOOST_TEST(f.finding.owasp == "A05:2021");
  BOOST_TEST(f.extracted == std::vector<std::string>{"version=5.2.1"}, boost::test_tools::per_element());
  BOOST_TEST(f.curl == "curl -i -s -k '" + site.url("/phpMyAdmin/") + "'");
  BOOST_TEST_REQUIRE(f.finding.evidence.size() == 1u);
  const auto& e = f.finding.evidence[0];
  BOOST_TEST(e.url == site.url("/phpMyAdmin/"));
  BOOST_TEST(e.excerpt == "status 200; <title>phpMyAdmin");
  BOOST_TEST_REQUIRE(e.exchange.has_value());
  BOOST_TEST(e.exchange->request_line == "GET /phpMyAdmin/ HTTP/1.1");
  BOOST_TEST(e.exchange->body_excerpt.find("phpMyAdmin") != std::string::npos);
  auto json = to_json(f);
  BOOST_TEST(json.at("template_id").as_string() == "pma");
  BOOST_TEST(json.at("extracted").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_catch_all_site_matches_none_of_the_shipped_templates) {
  auto page = LocalHttp::answer(200, "Content-Type: text/html\r\n",
                                "<html><head><title>Shop</title></head><body>Welcome! Login, admin, "
                                "installation, index, debug, Drupal, WordPress, Joomla, bitrix</body></html>");
  LocalHttp site({}, LocalHttp::fixed(page));
  auto ts = shipped();
  auto o = quick();
  o.scan.per_host_concurrency = 16;
  auto r = run(site.url("/"), ts, allow_loopback, o);
  BOOST_TEST(r.complete);
  BOOST_TEST(r.templates_run == ts.size());
  BOOST_TEST(r.failed_requests == 0u);
  for (const auto& f : r.findings) BOOST_ERROR("false positive on a catch-all site: " << f.template_id);
}

BOOST_AUTO_TEST_CASE(shipped_templates_find_what_is_planted) {
  LocalHttp site(
      {{"/actuator",
        LocalHttp::fixed(LocalHttp::answer(
            200, "Content-Type: application/json\r\n",
            R"({"_links":{"self":{"href":"http://x/actuator"},"env":{"href":"http://x/actuator/env"}}})"))},
       {"/CHANGELOG.txt", LocalHttp::fixed(LocalHttp::answer(200, "", "\nDrupal 7.50, 2016-07-07\n---\n"))},
       {"/debug/vars", LocalHttp::fixed(LocalHttp::answer(200, "", R"({"cmdline":["/app"],"memstats":{}})"))},
       {"/nginx_status",
        LocalHttp::fixed(LocalHttp::answer(
            200, "", "Active connections: 2 \nserver accepts handled requests\n 10 10 20 \nReading: 0 Writing: 1\n"))},
       {"/backup.sql",
        LocalHttp::fixed(LocalHttp::answer(
            200, "", "-- MySQL dump 10.13\nDROP TABLE IF EXISTS `users`;\nCREATE TABLE `users` (id int);\n"))},
       {"/web.config",
        LocalHttp::fixed(LocalHttp::answer(
            200, "", "<?xml version=\"1.0\"?>\n<configuration>\n  <connectionStrings>x</connectionStrings>\n"))}});
  auto ts = shipped();
  auto r = run(site.url("/"), ts, allow_loopback, quick());
  std::set<std::string> found;
  for (const auto& f : r.findings) found.insert(f.template_id);
  BOOST_TEST(
      found == (std::set<std::string>{"spring-actuator-index", "drupal-changelog", "drupal-cve-2018-7600", "go-expvar",
                                      "nginx-stub-status", "sql-dump-exposure", "web-config-exposure"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(stop_at_first_match_stops_the_block) {
  auto hit = LocalHttp::fixed(LocalHttp::answer(200, "", "<title>phpMyAdmin"));
  LocalHttp site({{"/pma/", hit}, {"/phpMyAdmin/", hit}});
  std::vector<Template> both{tpl("pma", "info", kPanel)};
  auto all = run(site.url("/"), both, allow_loopback, quick());
  BOOST_TEST(all.requests == 2u);
  BOOST_TEST(all.findings.at(0).finding.evidence.size() == 2u);
  std::vector<Template> first{tpl("pma", "info", kPanel + "    stop-at-first-match: true\n")};
  auto one = run(site.url("/"), first, allow_loopback, quick());
  BOOST_TEST(one.requests == 1u);
  BOOST_TEST(one.findings.at(0).finding.evidence.size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_severity_filter_selects_templates) {
  LocalHttp site({}, LocalHttp::fixed(LocalHttp::answer(200, "", "<title>phpMyAdmin")));
  std::vector<Template> ts{tpl("a", "info", kPanel), tpl("b", "high", kPanel), tpl("c", "critical", kPanel)};
  auto o = quick();
  o.severities = {audit::Severity::High, audit::Severity::Critical};
  auto r = run(site.url("/"), ts, allow_loopback, o);
  BOOST_TEST(r.templates_selected == 2u);
  BOOST_TEST(r.findings.size() == 2u);
  for (const auto& f : r.findings) BOOST_TEST(f.template_id != "a");
}

BOOST_AUTO_TEST_CASE(raw_requests_send_method_headers_and_body) {
  LocalHttp site({{"/api/echo", LocalHttp::fixed(LocalHttp::answer(200, "X-Request-Id: r-1\r\n", "echo v1.2"))}});
  auto lib = load_library({std::filesystem::path(DOZOR_SOURCE_DIR) / "tests/fixtures/scan/templates/good"});
  std::vector<Template> ts{lib.loaded.at(0)};  // legacy-requests
  auto r = run(site.url("/"), ts, allow_loopback, quick());
  BOOST_TEST_REQUIRE(r.findings.size() == 1u);
  auto heads = site.heads();
  BOOST_TEST_REQUIRE(heads.size() == 1u);
  BOOST_TEST(heads[0].starts_with("POST /api/echo?x=1 HTTP/1.1\r\n"));
  BOOST_TEST(heads[0].find("Content-Type: application/json\r\n") != std::string::npos);
  BOOST_TEST(heads[0].find("Content-Length: 22\r\n") != std::string::npos);  // {"probe": "127.0.0.1"}
  BOOST_TEST(r.findings[0].extracted == (std::vector<std::string>{"r-1", "ver=1.2"}), boost::test_tools::per_element());
  BOOST_TEST(r.findings[0].curl.find("--data-raw '{\"probe\": \"127.0.0.1\"}'") != std::string::npos);
  BOOST_TEST(r.findings[0].curl.find("-X 'POST'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cancellation_stops_before_the_next_request) {
  LocalHttp site({}, LocalHttp::fixed(LocalHttp::answer(404, "", "")));
  std::vector<Template> ts;
  for (int i = 0; i < 40; ++i) ts.push_back(tpl("t" + std::to_string(i), "info", kPanel));
  auto o = quick();
  int asked = 0;
  o.cancelled = [&] { return ++asked > 5; };
  auto r = run(site.url("/"), ts, allow_loopback, o);
  BOOST_TEST(!r.complete);
  BOOST_TEST(r.requests <= 5u);
  BOOST_TEST(r.errors.at(0) == "stopped: cancelled");
}

BOOST_AUTO_TEST_CASE(the_egress_policy_applies_to_every_request) {
  LocalHttp site({}, LocalHttp::fixed(LocalHttp::answer(200, "", "<title>phpMyAdmin")));
  std::vector<Template> ts{tpl("pma", "info", kPanel)};
  net::EgressPolicy public_only(false);
  auto r = run(site.url("/"), ts, public_only, quick());
  BOOST_TEST(r.findings.empty());
  BOOST_TEST(r.failed_requests == 2u);
  BOOST_TEST(site.heads().empty());
}

BOOST_AUTO_TEST_CASE(curl_commands_quote_for_the_shell) {
  BOOST_TEST(curl_command("GET", "http://a/b'c", {}, "") == "curl -i -s -k 'http://a/b'\\''c'");
  BOOST_TEST(curl_command("PUT", "http://a/", {"X: y"}, "d") ==
             "curl -i -s -k -X 'PUT' -H 'X: y' --data-raw 'd' 'http://a/'");
}

BOOST_AUTO_TEST_SUITE_END()
