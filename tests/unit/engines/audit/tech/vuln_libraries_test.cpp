// Vulnerable JavaScript libraries: versions from script URLs and banners, advisories by range,
// the route's JSON and the findings (docs/audit.md "Vulnerable JavaScript libraries").
#include "engines/audit/tech/vuln_libraries.hpp"
#include "tests/unit/support/audit_data.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>

using namespace dozor::audit;
using namespace dozor::audit::tech;

namespace {

const VulnLibraries& data() { return dozor::test::shipped_audit_data().vulnlibs; }

std::vector<LibraryHit> scan_urls(const std::vector<std::string>& urls) {
  LibraryScanner s(data());
  for (const auto& u : urls) s.script_url(u, "https://site.test/");
  return s.vulnerable();
}

bool has_id(const LibraryHit& h, const std::string& id) {
  for (const auto* a : h.advisories)
    if (a->id == id) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tech_vuln_libraries)

BOOST_AUTO_TEST_CASE(jquery_versions_are_read_from_the_usual_url_shapes) {
  for (const char* url : {"https://code.jquery.com/jquery-1.12.4.min.js", "https://site.test/js/jquery-1.12.4.js",
                          "https://cdn.jsdelivr.net/npm/jquery@1.12.4/dist/jquery.min.js",
                          "https://ajax.googleapis.com/ajax/libs/jquery/1.12.4/jquery.min.js",
                          "https://yastatic.net/jquery/1.12.4/jquery.min.js",
                          "https://site.test/wp-includes/js/jquery/jquery.min.js?ver=1.12.4"}) {
    BOOST_TEST_CONTEXT(url) {
      auto hits = scan_urls({url});
      BOOST_REQUIRE(hits.size() == 1u);
      BOOST_TEST(hits[0].library->id == "jquery");
      BOOST_TEST(hits[0].version == "1.12.4");
      BOOST_TEST(has_id(hits[0], "CVE-2020-11022"));
      BOOST_TEST(has_id(hits[0], "CVE-2015-9251"));
      BOOST_TEST(!has_id(hits[0], "CVE-2012-6708"));  // fixed in 1.9.0
      BOOST_TEST(hits[0].sightings[0].script == url);
    }
  }
}

BOOST_AUTO_TEST_CASE(current_versions_and_other_plugins_are_not_reported) {
  BOOST_TEST(scan_urls({"https://code.jquery.com/jquery-3.7.1.min.js"}).empty());
  BOOST_TEST(scan_urls({"https://site.test/js/jquery.cookie-1.4.1.min.js"}).empty());
  BOOST_TEST(scan_urls({"https://site.test/js/app-1.2.3.js"}).empty());
  // jQuery UI is its own library, not jQuery 1.12.1.
  auto ui =
      scan_urls({"https://code.jquery.com/ui/1.12.1/jquery-ui.min.js", "https://site.test/jquery-ui-1.12.1.min.js"});
  BOOST_REQUIRE(ui.size() == 1u);
  BOOST_TEST(ui[0].library->id == "jquery-ui");
}

BOOST_AUTO_TEST_CASE(ranges_with_a_lower_bound_pick_the_right_advisories) {
  auto b3 = scan_urls({"https://stackpath.bootstrapcdn.com/bootstrap/3.3.7/js/bootstrap.min.js"});
  BOOST_REQUIRE(b3.size() == 1u);
  BOOST_TEST(has_id(b3[0], "CVE-2018-20676"));
  BOOST_TEST(has_id(b3[0], "CVE-2019-8331"));
  BOOST_TEST(!has_id(b3[0], "CVE-2024-6531"));  // 4.x only
  auto b4 = scan_urls({"https://cdn.jsdelivr.net/npm/bootstrap@4.3.1/dist/js/bootstrap.bundle.min.js"});
  BOOST_REQUIRE(b4.size() == 1u);
  BOOST_TEST(has_id(b4[0], "CVE-2024-6531"));
  BOOST_TEST(!has_id(b4[0], "CVE-2019-8331"));  // fixed in 4.3.1
  BOOST_TEST(scan_urls({"https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.min.js"}).empty());
}

BOOST_AUTO_TEST_CASE(banners_in_script_text_give_the_version) {
  LibraryScanner s(data());
  s.script_text("/*! jQuery v2.2.4 | (c) jQuery Foundation | jquery.org/license */\n!function(a,b){}", "/js/lib.js",
                "https://site.test/");
  s.script_text("/**! @license\n handlebars v4.0.11\n", "/js/hb.js", "https://site.test/");
  s.script_text("//! moment.js\n//! version : 2.29.1\n//! authors", "/js/m.js", "https://site.test/");
  auto hits = s.vulnerable();
  BOOST_REQUIRE(hits.size() == 3u);
  BOOST_TEST(hits[0].library->id == "handlebars");  // critical first
  BOOST_TEST((worst(hits[0]) == Severity::Critical));
  std::set<std::string> seen;
  for (const auto& h : hits) seen.insert(h.library->id + " " + h.version);
  BOOST_TEST(seen.count("jquery 2.2.4"));
  BOOST_TEST(seen.count("moment 2.29.1"));
}

BOOST_AUTO_TEST_CASE(unversioned_library_files_are_worth_fetching_for_their_banner) {
  LibraryScanner s(data());
  BOOST_TEST(s.worth_fetching("https://site.test/js/jquery.min.js"));
  BOOST_TEST(s.worth_fetching("https://site.test/static/lodash.js?v=3"));
  BOOST_TEST(!s.worth_fetching("https://site.test/js/jquery-1.12.4.min.js"));  // the URL says it
  BOOST_TEST(!s.worth_fetching("https://site.test/js/app.js"));
  BOOST_TEST(!s.worth_fetching("https://site.test/css/bootstrap.css"));
}

BOOST_AUTO_TEST_CASE(end_of_life_advisories_have_no_fixed_version) {
  auto hits = scan_urls({"https://ajax.googleapis.com/ajax/libs/angularjs/1.8.3/angular.min.js"});
  BOOST_REQUIRE(hits.size() == 1u);
  BOOST_TEST(has_id(hits[0], "CVE-2022-25869"));
  auto j = to_json(hits);
  bool null_fix = false;
  for (const auto& a : j.at(0).at("advisories").as_array()) null_fix = null_fix || a.at("fixed_in").is_null();
  BOOST_TEST(null_fix);
  auto fs = findings_of(hits);
  BOOST_REQUIRE(fs.size() == 1u);
  BOOST_TEST(fs[0].recommendation.find("no fixed release") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(json_has_the_documented_shape) {
  auto j = to_json(scan_urls({"https://code.jquery.com/jquery-3.4.1.min.js"}));
  BOOST_REQUIRE(j.size() == 1u);
  const auto& o = j.at(0).as_object();
  BOOST_TEST(o.at("name").as_string() == "jQuery");
  BOOST_TEST(o.at("version").as_string() == "3.4.1");
  BOOST_TEST(o.at("severity").as_string() == "medium");
  const auto& a = o.at("advisories").at(0).as_object();
  for (const char* k : {"id", "identifiers", "severity", "fixed_in", "summary"}) BOOST_TEST(a.contains(k), k);
  BOOST_TEST(o.at("evidence").at(0).at("script").as_string() == "https://code.jquery.com/jquery-3.4.1.min.js");
}

BOOST_AUTO_TEST_SUITE_END()
