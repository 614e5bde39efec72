// Where XXE and SSRF probes go: endpoints that take XML and parameters that carry URLs.
#include "engines/scan/owasp/oob_targets.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;
using namespace dozor;

BOOST_AUTO_TEST_SUITE(owasp_oob_targets)

BOOST_AUTO_TEST_CASE(xml_types_are_recognised_with_parameters_and_any_case) {
  BOOST_TEST(is_xml_type("application/xml"));
  BOOST_TEST(is_xml_type("Text/XML; charset=utf-8"));
  BOOST_TEST(is_xml_type("application/soap+xml"));
  BOOST_TEST(is_xml_type(" application/atom+xml ;x=y"));
  BOOST_TEST(!is_xml_type("text/html"));
  BOOST_TEST(!is_xml_type("application/json"));
  BOOST_TEST(!is_xml_type("application/xmlfoo"));
  BOOST_TEST(!is_xml_type(""));
}

BOOST_AUTO_TEST_CASE(url_like_parameters_by_name_or_value) {
  for (const char* name : {"url", "URL", "uri", "dest", "callback", "feed", "webhook", "image_url", "returnUrl"})
    BOOST_TEST(url_like(name, "x"), name);
  BOOST_TEST(url_like("q", "http://example.com/a"));
  BOOST_TEST(url_like("q", "HTTPS://example.com"));
  BOOST_TEST(url_like("q", "//cdn.example.com/x"));
  BOOST_TEST(!url_like("q", "shoes"));
  BOOST_TEST(!url_like("next", "/search"));
  BOOST_TEST(!url_like("id", "1"));
  BOOST_TEST(!url_like("curly", "1"));  // "url" inside a word
}

BOOST_AUTO_TEST_CASE(xml_endpoints_in_order_same_origin_without_duplicates) {
  crawl::CrawlResult c;
  c.origin = "http://h";
  auto page = [&](std::string url, std::string type, int status = 200) {
    crawl::PageRecord p;
    p.url = p.final_url = std::move(url);
    p.content_type = std::move(type);
    p.status = status;
    c.pages.push_back(p);
  };
  page("http://h/", "text/html");
  page("http://h/orders?x=1", "application/xml");
  page("http://h/api/soap/v1", "text/html");
  page("http://h/broken.xml", "text/plain", 500);
  page("http://h/feed", "application/rss+xml", 404);
  crawl::FormRecord f;
  f.form.action = "http://h/login";
  f.form.method = "POST";
  c.forms.push_back(f);
  f.form.action = "http://other/collect";
  c.forms.push_back(f);
  f.form.action = "http://h/search";
  f.form.method = "GET";
  c.forms.push_back(f);
  c.endpoints["POST http://h/orders"] = crawl::Endpoint{"http://h/orders", "POST", {}, "js", {"js"}};
  c.endpoints["POST http://h/api/upload"] = crawl::Endpoint{"http://h/api/upload", "POST", {}, "js", {"js"}};
  auto got = xml_endpoints(c, 10);
  std::vector<std::string> want{"http://h/orders", "http://h/api/soap/v1", "http://h/login", "http://h/api/upload"};
  BOOST_TEST(got == want, boost::test_tools::per_element());
  BOOST_TEST(xml_endpoints(c, 2).size() == 2u);
}

BOOST_AUTO_TEST_CASE(url_points_keep_only_url_like_parameters) {
  Point a{"http://h/fetch", "GET", Place::Query, {{"url", "http://feeds.example/"}, {"lang", "en"}}, 0, "link", ""};
  Point b = a;
  b.index = 1;
  auto got = url_points({a, b}, 10);
  BOOST_TEST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].name() == "url");
  BOOST_TEST(url_points({a, a, a}, 2).size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
