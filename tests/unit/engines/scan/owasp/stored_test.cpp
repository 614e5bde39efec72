// The OWASP summary (categories, trend) and the "new serious findings" of a scheduled scan.
#include "engines/scan/owasp/stored.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor;
namespace json = boost::json;

namespace {

int canary = 0;

json::object finding(const char* check, const char* severity, const char* owasp, const char* url) {
  // The title names the place; the evidence URL carries a canary that changes with every scan.
  return {{"check", check},
          {"severity", severity},
          {"owasp", owasp},
          {"title", std::string(check) + ": parameter of " + url},
          {"evidence", json::array{json::object{{"url", std::string(url) + "&canary=" + std::to_string(++canary)}}}}};
}

json::object scan(std::int64_t id, int score, json::array findings) {
  return {{"id", id},
          {"target", "http://s/"},
          {"finished_at", "2026-11-26T00:00:00.000Z"},
          {"score", score},
          {"grade", "B"},
          {"counts", json::object{}},
          {"findings", std::move(findings)}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owasp_stored)

BOOST_AUTO_TEST_CASE(the_summary_counts_every_category_and_severity) {
  auto s = scan(
      7, 40,
      {finding("owasp-xss-reflected", "high", "A03:2021", "http://s/q?x=1"),
       finding("owasp-sqli-error", "critical", "A03:2021", "http://s/i?id=1"),
       finding("owasp-open-redirect", "medium", "A01:2021", "http://s/go"), finding("odd", "low", "", "http://s/")});
  auto sum = owasp::summary_json(s, nullptr);
  const auto& cats = sum.at("categories").as_array();
  BOOST_TEST(cats.size() == 10u);
  BOOST_TEST(cats[0].at("id").as_string() == "A01:2021");
  BOOST_TEST(cats[0].at("total").as_int64() == 1);
  BOOST_TEST(cats[0].at("medium").as_int64() == 1);
  BOOST_TEST(cats[2].at("total").as_int64() == 2);
  BOOST_TEST(cats[2].at("critical").as_int64() == 1);
  BOOST_TEST(cats[2].at("high").as_int64() == 1);
  BOOST_TEST(cats[9].at("total").as_int64() == 0);
  BOOST_TEST(sum.at("uncategorised").as_int64() == 1);
  BOOST_TEST(sum.at("scan_id").as_int64() == 7);
  BOOST_TEST(sum.at("score").as_int64() == 40);
  BOOST_TEST(sum.at("trend").is_null());
}

BOOST_AUTO_TEST_CASE(the_trend_counts_new_and_resolved_findings_against_the_previous_scan) {
  auto before = scan(1, 40,
                     {finding("owasp-xss-reflected", "high", "A03:2021", "http://s/q?x=1"),
                      finding("owasp-sqli-error", "critical", "A03:2021", "http://s/i?id=1")});
  auto after = scan(2, 72,
                    {finding("owasp-xss-reflected", "high", "A03:2021", "http://s/q?x=1"),
                     finding("owasp-open-redirect", "medium", "A01:2021", "http://s/go")});
  auto trend = owasp::summary_json(after, &before).at("trend").as_object();
  BOOST_TEST(trend.at("previous_scan_id").as_int64() == 1);
  BOOST_TEST(trend.at("previous_score").as_int64() == 40);
  BOOST_TEST(trend.at("score_change").as_int64() == 32);
  BOOST_TEST(trend.at("new_findings").as_int64() == 1);
  BOOST_TEST(trend.at("resolved_findings").as_int64() == 1);
  BOOST_TEST(trend.at("direction").as_string() == "improved");
  auto back = owasp::summary_json(before, &after).at("trend").as_object();
  BOOST_TEST(back.at("direction").as_string() == "worsened");
  BOOST_TEST(owasp::summary_json(after, &after).at("trend").at("direction").as_string() == "unchanged");
}

BOOST_AUTO_TEST_CASE(only_high_and_critical_findings_the_previous_scan_lacked_are_new) {
  auto before = scan(1, 40, {finding("owasp-xss-reflected", "high", "A03:2021", "http://s/q?x=1")});
  auto after = scan(2, 20,
                    {finding("owasp-xss-reflected", "high", "A03:2021", "http://s/q?x=1"),
                     finding("owasp-xss-reflected", "high", "A03:2021", "http://s/other?y=1"),  // same rule, new place
                     finding("owasp-sqli-error", "critical", "A03:2021", "http://s/i?id=1"),
                     finding("owasp-open-redirect", "medium", "A01:2021", "http://s/go")});
  auto fresh = owasp::new_serious(after, &before);
  BOOST_REQUIRE(fresh.size() == 2u);
  BOOST_TEST(fresh[0]->at("title").as_string() == "owasp-xss-reflected: parameter of http://s/other?y=1");
  BOOST_TEST(fresh[1]->at("check").as_string() == "owasp-sqli-error");
  BOOST_TEST(owasp::new_serious(after, nullptr).size() == 3u);  // the first scan: every serious one
  BOOST_TEST(owasp::new_serious(before, &after).empty());
}

BOOST_AUTO_TEST_CASE(a_scan_becomes_a_scored_audit_report_of_kind_owasp) {
  owasp::OwaspResult r;
  r.target = "http://s/";
  r.duration_ms = 1500;
  r.pages = 3;
  audit::Finding low;
  low.check = "a";
  low.severity = audit::Severity::Low;
  audit::Finding high;
  high.check = "b";
  high.severity = audit::Severity::High;
  r.findings = {low, high};
  auto report = owasp::as_audit_report(r, std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000)));
  BOOST_TEST(report.kind == "owasp");
  BOOST_TEST(report.parts.findings.front().check == "b");  // worst first
  BOOST_TEST(report.counts[2] == 0);
  BOOST_TEST(report.counts[1] == 1);
  BOOST_TEST(report.counts[3] == 1);
  BOOST_TEST(*report.score == 100 - 2 - 20);
  BOOST_TEST(report.finished_at == "2027-01-15T08:00:00.000Z");
  BOOST_TEST(report.started_at == "2027-01-15T07:59:58.500Z");
  BOOST_TEST(report.crawl.pages == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
