#include "engines/audit/full_audit.hpp"

#include <boost/test/unit_test.hpp>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace dozor::audit;

namespace {

Finding of(Severity s) {
  Finding f;
  f.check = "x";
  f.severity = s;
  return f;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(full_audit)

BOOST_AUTO_TEST_CASE(the_score_starts_at_the_header_score_and_loses_points_by_severity) {
  BOOST_TEST(*overall_score(100, {}) == 100);
  BOOST_TEST(*overall_score(135, {}) == 100);  // bonuses cushion findings but the score stays within 0..100
  BOOST_TEST(*overall_score(135, {of(Severity::High), of(Severity::Medium)}) == 100);  // 135 - 28 = 107 → 100
  BOOST_TEST(*overall_score(90, {of(Severity::Critical)}) == 50);
  BOOST_TEST(*overall_score(90, {of(Severity::High)}) == 70);
  BOOST_TEST(*overall_score(90, {of(Severity::Medium)}) == 82);
  BOOST_TEST(*overall_score(90, {of(Severity::Low)}) == 88);
  BOOST_TEST(*overall_score(90, {of(Severity::Info)}) == 90);
  BOOST_TEST(*overall_score(10, {of(Severity::Critical)}) == 0);  // never below 0
  BOOST_TEST(!overall_score(std::nullopt, {of(Severity::Low)}));  // no header grade: not graded
}

BOOST_AUTO_TEST_CASE(grades_use_observatorys_bands) {
  BOOST_TEST(overall_grade(100) == "A+");
  BOOST_TEST(overall_grade(92) == "A");
  BOOST_TEST(overall_grade(82) == "B+");
  BOOST_TEST(overall_grade(50) == "C");
  BOOST_TEST(overall_grade(0) == "F");
}

BOOST_AUTO_TEST_CASE(a_failing_step_is_an_error_and_an_exhausted_budget_skips_the_rest) {
  dozor::net::EgressPolicy policy(false);
  AuditOptions o;
  o.time_budget = std::chrono::milliseconds(200);
  AuditPlan plan;
  plan.before_crawl.push_back({"boom", [](const StepInput&, AuditParts&) { throw std::runtime_error("kaput"); }});
  plan.before_crawl.push_back({"slow", [](const StepInput& in, AuditParts& out) {
                                 std::this_thread::sleep_until(in.deadline);
                                 out.parts["tls"] = boost::json::object{{"host", "x"}};
                               }});
  plan.after_crawl.push_back({"late", [](const StepInput&, AuditParts&) { BOOST_FAIL("must not run"); }});
  // A refused target (the egress policy refuses loopback) makes the crawl end at once.
  auto r = run_audit("http://127.0.0.1:9/", policy, o, std::move(plan));
  auto j = to_json(r);
  std::map<std::string, std::string> errors;
  for (const auto& e : r.parts.errors) errors[e.check] = e.error;
  BOOST_TEST(errors["boom"] == "kaput");
  BOOST_TEST(errors["late"].find("time budget") != std::string::npos);
  BOOST_TEST(errors["crawl"].find("time budget") != std::string::npos);
  BOOST_TEST(j.at("tls").at("host").as_string() == "x");  // what a step stored before the budget ran out stays
  BOOST_TEST(j.at("score").is_null());                    // no header grade
  BOOST_TEST(j.at("geo").is_null());
  BOOST_TEST(j.at("technologies").as_array().empty());
  BOOST_TEST(j.at("crawl").at("stopped").as_string() == "not_run");
}

BOOST_AUTO_TEST_CASE(a_cancelled_audit_starts_nothing_more_and_says_so) {
  dozor::net::EgressPolicy policy(false);
  AuditOptions o;
  std::vector<std::string> phases;
  o.on_progress = [&](const std::string& phase) { phases.push_back(phase); };
  AuditPlan plan;
  plan.before_crawl.push_back({"first", [&](const StepInput&, AuditParts&) { o.scan.cancel.cancel(); }});
  plan.before_crawl.push_back({"second", [](const StepInput&, AuditParts&) { BOOST_FAIL("must not run"); }});
  plan.after_crawl.push_back({"late", [](const StepInput&, AuditParts&) { BOOST_FAIL("must not run"); }});
  auto r = run_audit("http://127.0.0.1:9/", policy, o, std::move(plan));
  std::map<std::string, std::string> errors;
  for (const auto& e : r.parts.errors) errors[e.check] = e.error;
  BOOST_TEST(errors["second"].find("cancelled") != std::string::npos);
  BOOST_TEST(errors["crawl"].find("cancelled") != std::string::npos);
  BOOST_TEST(errors["late"].find("cancelled") != std::string::npos);
  BOOST_TEST(r.crawl.stopped == "not_run");
  BOOST_TEST(phases == std::vector<std::string>{"first"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(step_time_share)

BOOST_AUTO_TEST_CASE(a_step_takes_at_most_its_share_of_what_is_left) {
  const std::string target = "https://example.com/", kind = "audit";
  const dozor::net::EgressPolicy policy(false);
  const dozor::net::ScanOptions scan;
  auto now = std::chrono::steady_clock::now();
  dozor::audit::StepInput in{target, kind, policy, scan, now + std::chrono::seconds(40)};
  auto half = in.share_of_time(0.5);
  BOOST_TEST((half > now + std::chrono::seconds(19) && half <= now + std::chrono::seconds(21)));
  BOOST_TEST((in.share_of_time(1.0) <= in.deadline));
  dozor::audit::StepInput late{target, kind, policy, scan, now - std::chrono::seconds(1)};
  BOOST_TEST((late.share_of_time(0.5) == late.deadline));  // nothing left: nothing to share
}

BOOST_AUTO_TEST_SUITE_END()
