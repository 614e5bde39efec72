// The endpoint discovery data (share/audit/endpoints/paths.json) and its validation; the crawl's
// sources that endpoint discovery reads (JavaScript paths, robots.txt, sitemaps).
#include "engines/scan/endpoints/paths.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <stdexcept>

#include "engines/crawl/contacts.hpp"
#include "engines/crawl/site_maps.hpp"
#include "engines/limits.hpp"
#include "tests/unit/support/audit_data.hpp"

using dozor::endpoints::Paths;

namespace {

bool throws_with(const std::string& json, const std::string& part) {
  try {
    Paths::parse(json);
  } catch (const std::runtime_error& e) {
    return std::string(e.what()).find(part) != std::string::npos;
  }
  return false;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoints_paths)

BOOST_AUTO_TEST_CASE(the_shipped_file_loads_within_its_bounds) {
  const auto& p = dozor::test::shipped_audit_data().endpoint_paths;
  BOOST_TEST(!p.version().empty());
  BOOST_TEST(contains(p.documents(), "/openapi.json"));
  BOOST_TEST(contains(p.documents(), "/v2/api-docs"));
  BOOST_TEST(contains(p.wordlist(), "/actuator/health"));
  BOOST_TEST(p.wordlist().size() >= 100u);
  BOOST_TEST(p.wordlist().size() <= dozor::limits::endpoints::kWordlistPaths);
}

BOOST_AUTO_TEST_CASE(bad_files_are_refused_with_a_reason) {
  BOOST_TEST(throws_with("[]", "JSON object"));
  BOOST_TEST(throws_with(R"({"format": 1, "documents": ["/a"], "wordlist": ["/b"]})", "version"));
  BOOST_TEST(throws_with(R"({"format": 1, "version": "1", "documents": [], "wordlist": ["/b"]})", "documents"));
  BOOST_TEST(throws_with(R"({"format": 1, "version": "1", "documents": ["/a"], "wordlist": ["b"]})", "'b'"));
  BOOST_TEST(throws_with(R"({"format": 1, "version": "1", "documents": ["/a"], "wordlist": ["/../x"]})", "/../x"));
  BOOST_TEST(throws_with(R"({"format": 1, "version": "1", "documents": ["/a"], "wordlist": ["/a b"]})", "/a b"));
  BOOST_TEST(throws_with(R"({"format": 1, "version": "1", "documents": ["/a"], "wordlist": ["/b", "/b"]})", "twice"));
  std::string many = R"({"format": 1, "version": "1", "documents": ["/a"], "wordlist": [)";
  for (std::size_t i = 0; i <= dozor::limits::endpoints::kWordlistPaths; ++i)
    many += (i ? ",\"/p" : "\"/p") + std::to_string(i) + "\"";
  BOOST_TEST(throws_with(many + "]}", "more than"));
}

BOOST_AUTO_TEST_CASE(api_paths_in_javascript_are_found_with_their_queries) {
  auto paths = dozor::crawl::find_js_paths(
      "const api = { orders: (s) => fetch('/api/v2/orders?status=' + s), profile: () => fetch(\"/api/v2/profile\"),"
      " ver: `/api/v3/users`, mime: 'application/json', note: 'it is 1/2' };");
  BOOST_TEST(contains(paths, "/api/v2/orders?status="));
  BOOST_TEST(contains(paths, "/api/v2/profile"));
  BOOST_TEST(contains(paths, "/api/v3/users"));
  BOOST_TEST(!contains(paths, "application/json"));
  BOOST_TEST(!contains(paths, "1/2"));
}

BOOST_AUTO_TEST_CASE(robots_and_sitemap_name_paths) {
  auto r =
      dozor::crawl::parse_robots("User-agent: *\nDisallow: /private-area/\nSitemap: http://127.0.0.1:1/sitemap.xml\n");
  BOOST_TEST(contains(r.disallow, "/private-area/"));
  BOOST_TEST(contains(r.sitemaps, "http://127.0.0.1:1/sitemap.xml"));
  auto s = dozor::crawl::parse_sitemap(
      R"(<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://127.0.0.1:1/news/2026</loc></url></urlset>)");
  BOOST_TEST(s.valid);
  BOOST_TEST(contains(s.urls, "http://127.0.0.1:1/news/2026"));
}

BOOST_AUTO_TEST_SUITE_END()
