// Injection points from a crawl: query parameters and GET form fields with the site's own values.
#include "engines/scan/owasp/points.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;
using namespace dozor;

BOOST_AUTO_TEST_SUITE(owasp_points)

BOOST_AUTO_TEST_CASE(links_forms_and_endpoints_become_one_point_per_parameter) {
  crawl::CrawlResult c;
  crawl::PageRecord p;
  p.url = p.final_url = "http://h/products?cat=books&page=2";
  c.pages.push_back(p);
  crawl::FormRecord f;
  f.page = "http://h/";
  f.form.action = "http://h/search";
  f.form.method = "GET";
  f.form.fields = {{"input", "q", "text", "", "", false, false},
                   {"button", "go", "submit", "", "", false, false},
                   {"input", "", "text", "", "", false, false}};
  c.forms.push_back(f);
  crawl::FormRecord post = f;
  post.form.action = "http://h/login";
  post.form.method = "POST";
  c.forms.push_back(post);
  c.endpoints["GET http://h/products"] = crawl::Endpoint{"http://h/products", "GET", {"cat", "sort"}, "link", {"link"}};
  auto points = injection_points(c, 100);
  BOOST_TEST_REQUIRE(points.size() == 4u);  // products: cat, page, sort; search: q
  BOOST_TEST(points[0].url == "http://h/products");
  BOOST_TEST(points[0].name() == "cat");
  BOOST_TEST(points[0].value() == "books");
  BOOST_TEST(points[0].with("x'") == "http://h/products?cat=x%27&page=2&sort=1");
  BOOST_TEST(points[2].name() == "sort");
  BOOST_TEST(points[3].url == "http://h/search");
  BOOST_TEST(points[3].name() == "q");
  BOOST_TEST(points[3].value() == "1");  // an empty field gets a value
  BOOST_TEST(injection_points(c, 2).size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
