// Vulnerable JavaScript libraries: versions from script URLs and banners, advisories by range,
// the route's JSON and the findings (docs/audit.md "Vulnerable JavaScript libraries").
#include "engines/audit/tech/vuln_libraries.hpp"
#include "tests/unit/support/audit_data.hpp"

#include <algorithm>
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

// The findings a page would get from one script URL, as the audit writes them.
std::vector<Finding> findings_for_url(const std::string& url) { return findings_of(scan_urls({url})); }

// The findings for one script's text (an inline script, or a file the route fetched).
std::vector<Finding> findings_for_text(const std::string& text) {
  LibraryScanner s(data());
  s.script_text(text, "https://site.test/js/vendor.js", "https://site.test/");
  return findings_of(s.vulnerable());
}

bool refers(const Finding& f, const std::string& id) {
  return std::find(f.references.begin(), f.references.end(), id) != f.references.end();
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

// The four libraries below had no test showing a vulnerable version reported (review of issue 8).
// Each: the URL shapes and banners real sites serve, the advisory's id and severity on the
// finding, and the fixed release (or a newer one) reported by nobody.

BOOST_AUTO_TEST_CASE(vue_2_is_reported_from_its_cdn_urls_and_banner_and_vue_3_is_not) {
  for (const char* url : {"https://cdn.jsdelivr.net/npm/vue@2.6.14/dist/vue.min.js",
                          "https://cdnjs.cloudflare.com/ajax/libs/vue/2.6.14/vue.min.js"}) {
    BOOST_TEST_CONTEXT(url) {
      auto fs = findings_for_url(url);
      BOOST_REQUIRE(fs.size() == 1u);
      BOOST_TEST(fs[0].check == "vulnerable-js-vue");
      BOOST_TEST(fs[0].title.find("2.6.14") != std::string::npos);
      BOOST_TEST(refers(fs[0], "CVE-2024-6783"));
      BOOST_TEST(refers(fs[0], "CVE-2024-9506"));
      BOOST_TEST((fs[0].severity == Severity::Medium));  // the worst of medium and low
    }
  }
  // vue.js as webpack-less sites ship it: the banner names the version, the URL does not.
  auto banner = findings_for_text(
      "/*!\n * Vue.js v2.7.16\n * (c) 2014-2023 Evan You\n * Released under the MIT License.\n */\n"
      "(function (global, factory) {})(this, function () { 'use strict'; });");
  BOOST_REQUIRE(banner.size() == 1u);
  BOOST_TEST(refers(banner[0], "CVE-2024-6783"));
  // Vue 3 is the fixed line.
  BOOST_TEST(findings_for_url("https://unpkg.com/vue@3.0.0/dist/vue.global.prod.js").empty());
  BOOST_TEST(findings_for_url("https://cdn.jsdelivr.net/npm/vue@3.4.21/dist/vue.global.prod.js").empty());
}

BOOST_AUTO_TEST_CASE(react_dom_with_the_ssr_xss_is_reported_and_its_patch_releases_are_not) {
  auto fs = findings_for_url("https://unpkg.com/react-dom@16.4.1/umd/react-dom.production.min.js");
  BOOST_REQUIRE(fs.size() == 1u);
  BOOST_TEST(fs[0].check == "vulnerable-js-react-dom");
  BOOST_TEST(refers(fs[0], "CVE-2018-6341"));
  BOOST_TEST((fs[0].severity == Severity::Medium));
  auto cdnjs =
      findings_for_url("https://cdnjs.cloudflare.com/ajax/libs/react-dom/16.3.2/umd/react-dom.production.min.js");
  BOOST_REQUIRE(cdnjs.size() == 1u);
  BOOST_TEST(refers(cdnjs[0], "CVE-2018-6341"));
  // The licence banner of the UMD build (React 16 puts the file name on the next line).
  auto banner = findings_for_text(
      "/** @license React v16.4.1\n * react-dom.production.min.js\n *\n"
      " * Copyright (c) 2013-present, Facebook, Inc.\n */\n'use strict';");
  BOOST_REQUIRE(banner.size() == 1u);
  BOOST_TEST(refers(banner[0], "CVE-2018-6341"));
  // Each affected minor line was patched: 16.4.2, 16.3.3, and later majors are clean.
  BOOST_TEST(findings_for_url("https://unpkg.com/react-dom@16.4.2/umd/react-dom.production.min.js").empty());
  BOOST_TEST(findings_for_url("https://cdnjs.cloudflare.com/ajax/libs/react-dom/16.3.3/umd/react-dom.production.min.js")
                 .empty());
  BOOST_TEST(findings_for_url("https://unpkg.com/react-dom@18.2.0/umd/react-dom.production.min.js").empty());
  // React's own banner is not React DOM's.
  BOOST_TEST(findings_for_text("/** @license React v16.4.1\n * react.production.min.js\n */").empty());
}

BOOST_AUTO_TEST_CASE(dompurify_before_its_fixes_is_reported_worst_first_and_3_2_4_is_not) {
  auto old = findings_for_url("https://cdnjs.cloudflare.com/ajax/libs/dompurify/2.0.12/purify.min.js");
  BOOST_REQUIRE(old.size() == 1u);
  BOOST_TEST(old[0].check == "vulnerable-js-dompurify");
  BOOST_TEST(refers(old[0], "CVE-2024-48910"));
  BOOST_TEST(refers(old[0], "CVE-2020-26870"));
  BOOST_TEST((old[0].severity == Severity::Critical));  // prototype pollution, below 2.4.2
  auto v3 = findings_for_url("https://cdn.jsdelivr.net/npm/dompurify@3.1.2/dist/purify.min.js");
  BOOST_REQUIRE(v3.size() == 1u);
  BOOST_TEST(refers(v3[0], "CVE-2024-45801"));
  BOOST_TEST(refers(v3[0], "CVE-2024-47875"));
  BOOST_TEST(!refers(v3[0], "CVE-2024-48910"));  // the 2.x prototype pollution does not reach 3.x
  BOOST_TEST((v3[0].severity == Severity::High));
  // purify.min.js begins with this one-line banner.
  auto banner = findings_for_text(
      "/*! @license DOMPurify 2.3.3 | (c) Cure53 and other contributors | Released under the Apache license 2.0 "
      "and Mozilla Public License 2.0 | github.com/cure53/DOMPurify/blob/2.3.3/LICENSE */\n!function(e,t){}");
  BOOST_REQUIRE(banner.size() == 1u);
  BOOST_TEST((banner[0].severity == Severity::Critical));
  BOOST_TEST(findings_for_url("https://cdn.jsdelivr.net/npm/dompurify@3.2.4/dist/purify.min.js").empty());
  BOOST_TEST(findings_for_url("https://cdnjs.cloudflare.com/ajax/libs/dompurify/3.2.6/purify.min.js").empty());
}

BOOST_AUTO_TEST_CASE(lodash_before_4_17_21_is_reported_with_its_worst_advisory_and_4_17_21_is_not) {
  auto critical = findings_for_url("https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.11/lodash.min.js");
  BOOST_REQUIRE(critical.size() == 1u);
  BOOST_TEST(critical[0].check == "vulnerable-js-lodash");
  BOOST_TEST(refers(critical[0], "CVE-2019-10744"));
  BOOST_TEST((critical[0].severity == Severity::Critical));  // defaultsDeep, below 4.17.12
  auto high = findings_for_url("https://cdn.jsdelivr.net/npm/lodash@4.17.15/lodash.min.js");
  BOOST_REQUIRE(high.size() == 1u);
  BOOST_TEST(refers(high[0], "CVE-2020-8203"));
  BOOST_TEST(refers(high[0], "CVE-2021-23337"));
  BOOST_TEST(!refers(high[0], "CVE-2019-10744"));
  BOOST_TEST((high[0].severity == Severity::High));
  auto local = findings_for_url("https://site.test/assets/js/lodash-4.17.20.min.js");
  BOOST_REQUIRE(local.size() == 1u);
  BOOST_TEST(refers(local[0], "CVE-2021-23337"));
  BOOST_TEST(local[0].title.find("4.17.20") != std::string::npos);  // ".min" is not part of the version
  for (const char* url : {"https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js",
                          "https://cdn.jsdelivr.net/npm/lodash@4.17.21/lodash.min.js",
                          "https://site.test/assets/js/lodash-4.17.21.min.js"})
    BOOST_TEST(findings_for_url(url).empty(), url);
}

// Lodash's banner carries no version, so a same-origin lodash.js without one in its URL is read
// for the VERSION constant and the one it declares next. The texts are the heads of Debian 12's
// node-lodash 4.17.21 files (lodash.js, lodash.min.js, lodash.core.js), the version changed.
BOOST_AUTO_TEST_CASE(lodash_is_versioned_from_its_file_when_the_url_says_nothing) {
  const std::string full =
      "/**\n * @license\n * Lodash <https://lodash.com/>\n * Copyright OpenJS Foundation and other contributors "
      "<https://openjsf.org/>\n * Released under MIT license <https://lodash.com/license>\n */\n;(function() {\n\n"
      "  /** Used as a safe reference for `undefined` in pre-ES5 environments. */\n  var undefined;\n\n"
      "  /** Used as the semantic version number. */\n  var VERSION = '4.17.20';\n\n"
      "  /** Used as the size to enable large array optimizations. */\n  var LARGE_ARRAY_SIZE = 200;\n";
  auto f = findings_for_text(full);
  BOOST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].check == "vulnerable-js-lodash");
  BOOST_TEST(refers(f[0], "CVE-2021-23337"));
  const std::string minified =
      "(function(){var undefined;var VERSION=\"4.17.11\";var LARGE_ARRAY_SIZE=200;var CORE_ERROR_TEXT=\"x\";";
  auto m = findings_for_text(minified);
  BOOST_REQUIRE(m.size() == 1u);
  BOOST_TEST((m[0].severity == Severity::Critical));
  const std::string core =
      ";(function() {\n  var undefined;\n\n  /** Used as the semantic version number. */\n  var VERSION = '4.17.15';"
      "\n\n  /** Error message constants. */\n  var FUNC_ERROR_TEXT = 'Expected a function';\n";
  BOOST_TEST(findings_for_text(core).size() == 1u);
  BOOST_TEST(findings_for_text("var VERSION = '4.17.21';\n  var LARGE_ARRAY_SIZE = 200;").empty());
  // Another library's VERSION constant is not Lodash's.
  BOOST_TEST(findings_for_text("var VERSION = '1.2.3';\nvar root = this;").empty());
}

BOOST_AUTO_TEST_SUITE_END()
