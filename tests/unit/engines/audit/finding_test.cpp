#include "engines/audit/finding.hpp"

#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor::audit;

BOOST_AUTO_TEST_SUITE(finding)

BOOST_AUTO_TEST_CASE(severities_order_from_info_to_critical_and_round_trip) {
  BOOST_TEST((Severity::Critical > Severity::High && Severity::Low > Severity::Info));
  for (auto s : {Severity::Info, Severity::Low, Severity::Medium, Severity::High, Severity::Critical})
    BOOST_TEST((severity_from(to_string(s)) == s));
  BOOST_TEST(!severity_from("severe"));
  BOOST_TEST(!severity_from("High"));  // the API's words are lower case
}

BOOST_AUTO_TEST_CASE(a_severity_list_keeps_known_names_and_reports_the_unknown_in_order) {
  auto list = severities_from("high,,critical,severe,High");
  BOOST_TEST((list.wanted == std::set<Severity>{Severity::High, Severity::Critical}));
  BOOST_TEST((list.unknown == std::vector<std::string>{"severe", "High"}));
  BOOST_TEST(severities_from("").wanted.empty());
  BOOST_TEST(severities_from(",").unknown.empty());
  BOOST_TEST(severities_from("info").wanted.size() == 1U);
}

BOOST_AUTO_TEST_CASE(a_finding_serialises_with_nulls_for_missing_categories) {
  Finding f;
  f.check = "cookie-without-secure";
  f.title = "Cookie without Secure";
  f.severity = Severity::Medium;
  f.cwe = 614;
  dozor::net::Exchange x;
  x.url = "https://example.test/";
  x.status = 200;
  x.response_headers = {{"set-cookie", "sid=1"}};
  f.evidence.push_back({"https://example.test/", "Set-Cookie: sid=1", "no Secure attribute", x});
  auto j = to_json(f);
  BOOST_TEST(j.at("severity").as_string() == "medium");
  BOOST_TEST(j.at("owasp").is_null());
  BOOST_TEST(j.at("cwe").as_int64() == 614);
  const auto& e = j.at("evidence").as_array().at(0).as_object();
  BOOST_TEST(e.at("exchange").at("response_headers").as_array().at(0).as_array().at(1).as_string() == "sid=1");
  BOOST_TEST(boost::json::serialize(j).find("\"references\":[]") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
