// Fingerprint patterns: RE2 sets, version templates, excerpts (docs/audit.md "Technologies").
#include "engines/audit/tech/patterns.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor::audit::tech;

BOOST_AUTO_TEST_SUITE(tech_patterns)

BOOST_AUTO_TEST_CASE(a_set_reports_every_matching_pattern_with_its_version) {
  PatternSet set;
  set.add(parse_pattern(boost::json::parse(R"({"regex":"jquery-(\\d+(?:\\.\\d+)+)\\.js","version":"\\1"})"), 0,
                        "script_src", "a"));
  set.add(parse_pattern(boost::json::parse(R"("/js/")"), 1, "script_src", "b"));
  set.add(parse_pattern(boost::json::parse(R"J({"regex":"v(\\d+)_(\\d+)","version":"\\1.\\2","confidence":40})J"), 2,
                        "script_src", "c"));
  set.compile();
  std::vector<std::pair<std::size_t, std::string>> hits;
  set.match("https://x.test/js/JQUERY-3.4.1.js?v2_7",
            [&](const Pattern& p, const Match& m) { hits.emplace_back(p.owner, m.version); });
  BOOST_REQUIRE(hits.size() == 3u);  // case-insensitive
  BOOST_TEST(hits[0].second == "3.4.1");
  BOOST_TEST(hits[1].second.empty());
  BOOST_TEST(hits[2].second == "2.7");
  BOOST_TEST(set.patterns()[2].confidence == 40);
}

BOOST_AUTO_TEST_CASE(an_implausible_capture_is_not_a_version_and_excerpts_are_bounded) {
  auto p = parse_pattern(boost::json::parse(R"J({"regex":"ver=([^&]+)","version":"\\1"})J"), 0, "url", "x");
  Match m;
  BOOST_REQUIRE(match_pattern(p, "/a?ver=<script>", m));
  BOOST_TEST(m.version.empty());
  auto long_match = parse_pattern(boost::json::parse(R"("a+")"), 0, "html", "y");
  BOOST_REQUIRE(match_pattern(long_match, std::string(10000, 'a'), m));
  BOOST_TEST(m.excerpt.size() <= 160u);
}

BOOST_AUTO_TEST_CASE(bad_patterns_are_refused) {
  BOOST_CHECK_THROW(parse_pattern(boost::json::parse("42"), 0, "html", "x"), std::runtime_error);
  BOOST_CHECK_THROW(parse_pattern(boost::json::parse(R"({"version":"\\1"})"), 0, "html", "x"), std::runtime_error);
  BOOST_CHECK_THROW(parse_pattern(boost::json::parse(R"({"regex":"a","extra":1})"), 0, "html", "x"),
                    std::runtime_error);
  BOOST_CHECK_THROW(parse_pattern(boost::json::parse(R"("(?P<x")"), 0, "html", "x"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
