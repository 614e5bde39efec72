// Injection points from a crawl: query parameters, GET and POST form fields with the site's own
// values, numeric path segments, the User-Agent and Referer headers of each page.
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
  BOOST_TEST_REQUIRE(points.size() == 5u);  // login (POST): q; products: cat, page, sort; search: q
  BOOST_TEST(points[0].url == "http://h/login");
  BOOST_TEST(points[0].method == "POST");
  BOOST_TEST(points[0].label() == "POST parameter q");
  auto sent = points[0].request("x y&z");
  BOOST_TEST(sent.method == "POST");
  BOOST_TEST(sent.url == "http://h/login");
  BOOST_TEST(sent.body == "q=x%20y%26z");
  BOOST_TEST(sent.headers.at(0) == "Content-Type: application/x-www-form-urlencoded");
  BOOST_TEST(points[1].url == "http://h/products");
  BOOST_TEST(points[1].name() == "cat");
  BOOST_TEST(points[1].label() == "parameter cat");
  BOOST_TEST(points[1].value() == "books");
  BOOST_TEST(points[1].with("x'") == "http://h/products?cat=x%27&page=2&sort=1");
  BOOST_TEST(points[1].request("x").body.empty());
  BOOST_TEST(*points[1].request("x").max_redirects == 0);
  BOOST_TEST(points[3].name() == "sort");
  BOOST_TEST(points[4].url == "http://h/search");
  BOOST_TEST(points[4].name() == "q");
  BOOST_TEST(points[4].value() == "1");  // an empty field gets a value
  BOOST_TEST(injection_points(c, 2).size() == 2u);
}

BOOST_AUTO_TEST_CASE(numeric_path_segments_are_points_once_per_pattern) {
  crawl::CrawlResult c;
  for (const char* u : {"http://h/news/1?x=a%20b", "http://h/news/2", "http://h/users/7/posts/12", "http://h/about"}) {
    crawl::PageRecord p;
    p.url = p.final_url = u;
    c.pages.push_back(p);
  }
  auto points = injection_points(c, 100);
  std::vector<Point> path;
  for (const auto& p : points)
    if (p.place == Place::Path) path.push_back(p);
  BOOST_TEST_REQUIRE(path.size() == 3u);  // news/{n} once; users/{n}/posts/{n} twice
  BOOST_TEST(path[0].label() == "path segment 2");
  BOOST_TEST(path[0].url == "http://h/news/1");
  BOOST_TEST(path[0].request("1' /x").url == "http://h/news/1%27%20%2Fx?x=a%20b");  // one segment, query kept
  BOOST_TEST(path[1].request("9").url == "http://h/users/9/posts/12");
  BOOST_TEST(path[2].request("9").url == "http://h/users/7/posts/9");
  BOOST_TEST(injection_points(c, 2).size() == 2u);
}

BOOST_AUTO_TEST_CASE(user_agent_and_referer_of_each_html_page) {
  crawl::CrawlResult c;
  for (const char* u : {"http://h/a?x=1", "http://h/b", "http://h/a?x=1", "http://h/c"}) {
    crawl::PageRecord p;
    p.url = p.final_url = u;
    p.status = 200;
    p.content_type = std::string(u).back() == 'c' ? "image/png" : "text/html";
    c.pages.push_back(p);
  }
  auto points = header_points(c, "Dozor", 10);
  BOOST_TEST_REQUIRE(points.size() == 4u);  // a and b (the image and the repeat left out)
  BOOST_TEST(points[0].label() == "header User-Agent");
  auto r = points[1].request("http://h/a?x=1<x>");
  BOOST_TEST(r.url == "http://h/a?x=1");
  BOOST_TEST(r.headers.at(0) == "Referer: http://h/a?x=1<x>");
  BOOST_TEST(points[0].request("Dozor 1").headers.at(0) == "User-Agent: Dozor 1");
  BOOST_TEST(header_points(c, "Dozor", 1).size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
