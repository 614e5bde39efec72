#include "engines/crawl/crawler.hpp"

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "tests/unit/support/local_http.hpp"

using namespace dozor::crawl;
using dozor::test::LocalHttp;

namespace {

const dozor::net::EgressPolicy allow_loopback(true);

CrawlOptions quick(int depth = 2, int pages = 50) {
  CrawlOptions o;
  o.depth = depth;
  o.max_pages = pages;
  o.scan.request_timeout = std::chrono::seconds(3);
  o.scan.per_host_interval = std::chrono::milliseconds(0);
  o.time_budget = std::chrono::seconds(20);
  return o;
}

std::string html(const std::string& body) { return LocalHttp::answer(200, "Content-Type: text/html\r\n", body); }

const PageRecord* page(const CrawlResult& r, const std::string& suffix) {
  for (const auto& p : r.pages)
    if (p.url.size() >= suffix.size() && p.url.compare(p.url.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &p;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(crawler)

BOOST_AUTO_TEST_CASE(crawls_breadth_first_within_the_origin_and_collects_everything) {
  int port = 0;
  LocalHttp s(
      {{"/", LocalHttp::fixed(html(
                 "<a href=\"/a\">a</a><a href=\"/b?id=1&sort=asc\">b</a><a href=\"http://elsewhere.example/\">x</a>"
                 "<a href=\"/files/price.xlsx\">price</a><script src=\"/app.js\"></script>"
                 "<p>Контакты: +7 (495) 123-45-67, sales@example.com</p>"))},
       {"/a", LocalHttp::fixed(html("<form action=\"/search\"><input name=\"q\" placeholder=\"Поиск\"></form>"
                                    "<a href=\"/a/deeper\">d</a><a href=\"mailto:boss@example.com\">m</a>"))},
       {"/b", LocalHttp::fixed(html("<img src=\"/logo.png\"><a href=\"/b/two\">2</a>"))},
       {"/a/deeper", LocalHttp::fixed(html("<a href=\"/a/deeper/still\">too deep for depth 2</a>"))},
       {"/b/two", LocalHttp::fixed(html("two"))},
       {"/app.js", LocalHttp::fixed(LocalHttp::answer(200, "", "fetch('/api/orders?status=new');"))},
       {"/robots.txt",
        [&](const std::string&) {
          return LocalHttp::answer(200, "",
                                   "User-agent: *\nDisallow: /private/\nSitemap: http://127.0.0.1:" +
                                       std::to_string(port) + "/sitemap_index.xml\n");
        }},
       {"/sitemap_index.xml",
        [&](const std::string&) {
          return LocalHttp::answer(200, "",
                                   "<sitemapindex><sitemap><loc>http://127.0.0.1:" + std::to_string(port) +
                                       "/sm1.xml</loc></sitemap></sitemapindex>");
        }},
       {"/sm1.xml",
        [&](const std::string&) {
          return LocalHttp::answer(
              200, "",
              "<urlset><url><loc>http://127.0.0.1:" + std::to_string(port) + "/from-sitemap</loc></url></urlset>");
        }},
       {"/from-sitemap", LocalHttp::fixed(html("<a href=\"tel:88005553535\">call</a>"))},
       {"/private/", LocalHttp::fixed(html("secret"))}});
  port = s.port();
  auto r = crawl(s.url("/"), allow_loopback, quick());
  BOOST_TEST(r.stopped == "complete");
  BOOST_TEST(page(r, "/")->depth == 0);
  BOOST_TEST(page(r, "/a")->depth == 1);
  BOOST_TEST(page(r, "/a/deeper")->depth == 2);
  BOOST_TEST(!page(r, "/a/deeper/still"));  // depth 3
  BOOST_TEST(page(r, "/from-sitemap")->found_via == "sitemap");
  BOOST_TEST(page(r, "/private/")->found_via == "robots");
  BOOST_TEST(!page(r, "/files/price.xlsx"));  // documents are listed, not fetched
  BOOST_TEST(r.sitemaps.size() == 2u);
  BOOST_TEST(r.robots_disallow.at(0) == "/private/");
  BOOST_TEST(r.forms.size() == 1u);
  BOOST_TEST(r.forms[0].form.fields.at(0).placeholder == "Поиск");
  BOOST_TEST(r.emails.size() == 2u);
  BOOST_TEST(r.phones.size() == 2u);
  bool got_ru = false, got_tel = false;
  for (const auto& p : r.phones) {
    got_ru |= p.e164 == "+74951234567" && p.as_found == "+7 (495) 123-45-67";
    got_tel |= p.e164 == "+78005553535" && p.source == "tel";
  }
  BOOST_TEST(got_ru);
  BOOST_TEST(got_tel);
  BOOST_TEST(r.external_links.at(0) == "http://elsewhere.example/");
  bool doc = false;
  for (const auto& m : r.media) doc |= m.kind == "document";
  BOOST_TEST(doc);
  BOOST_TEST(r.js_paths.count("/api/orders?status=new") == 1u);
  auto b = r.endpoints.find("GET " + s.url("/b"));
  BOOST_REQUIRE(b != r.endpoints.end());
  BOOST_TEST(b->second.params == (std::set<std::string>{"id", "sort"}));
  BOOST_TEST(r.endpoints.count("GET " + s.url("/search")) == 1u);
  BOOST_TEST(r.endpoints.count("GET " + s.url("/api/orders")) == 1u);
  auto tree = structure_tree(r.structure);
  BOOST_TEST(tree.at("name").as_string() == "/");
  BOOST_TEST(tree.at("children").as_array().size() >= 4u);
}

BOOST_AUTO_TEST_CASE(an_infinite_link_trap_stops_at_max_pages) {
  LocalHttp s({}, [](const std::string& head) {
    auto sp = head.find(' ');
    std::string path = head.substr(sp + 1, head.find(' ', sp + 1) - sp - 1);
    std::string body;
    for (int i = 0; i < 5; ++i)
      body += "<a href=\"" + path + (path.back() == '/' ? "" : "/") + std::to_string(i) + "\">x</a>";
    return LocalHttp::answer(200, "Content-Type: text/html\r\n", body);
  });
  auto started = std::chrono::steady_clock::now();
  auto r = crawl(s.url("/trap"), allow_loopback, quick(10, 40));
  BOOST_TEST(r.stopped == "max_pages");
  BOOST_TEST(r.pages.size() == 40u);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(10)));
}

BOOST_AUTO_TEST_CASE(a_trap_of_ever_new_urls_stops_at_the_url_limit) {
  // A PHP site with session ids in its links (trans_sid): every answer links to 20 URLs never seen
  // before. Pages and depth are set past what the trap can reach here; only max_urls can end it.
  std::atomic<int> next_sid{0};
  LocalHttp s({}, [&](const std::string&) {
    std::string body = "<ul>";
    for (int i = 0; i < 20; ++i)
      body += "<li><a href=\"/catalog/?PHPSESSID=" + std::to_string(next_sid++) + "\">Раздел</a></li>";
    return html(body + "</ul>");
  });
  auto o = quick(10, 2000);
  o.max_urls = 120;
  auto started = std::chrono::steady_clock::now();
  auto r = crawl(s.url("/"), allow_loopback, o);
  BOOST_TEST(r.stopped == "url_limit");
  // Every URL remembered is fetched once (pages allow it), and no URL past the bound is.
  BOOST_TEST(r.pages.size() == o.max_urls);
  BOOST_TEST(s.heads().size() <= o.max_urls + 2);                   // + robots.txt and sitemap.xml
  BOOST_TEST(next_sid.load() > static_cast<int>(o.max_urls) * 10);  // the trap offered far more
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(10)));
}

BOOST_AUTO_TEST_CASE(hostile_pages_are_bounded_with_clear_errors) {
  LocalHttp s({{"/", LocalHttp::fixed(html("<a href=\"/loop\">l</a><a href=\"/huge\">h</a><a href=\"/slow\">s</a>"))},
               {"/loop", LocalHttp::fixed("HTTP/1.0 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n")},
               {"/huge", LocalHttp::fixed(html(std::string(3 * 1024 * 1024, 'x')))},
               {"/slow", [](const std::string&) {
                  std::this_thread::sleep_for(std::chrono::seconds(4));
                  return html("late");
                }}});
  auto o = quick();
  o.scan.max_body = 1024 * 1024;
  o.scan.request_timeout = std::chrono::milliseconds(500);
  auto r = crawl(s.url("/"), allow_loopback, o);
  BOOST_TEST(page(r, "/loop")->error_kind == "too_many_redirects");
  BOOST_TEST(page(r, "/huge")->error_kind == "too_large");
  BOOST_TEST(page(r, "/slow")->error_kind == "timeout");
  BOOST_TEST(page(r, "/")->error.empty());
}

BOOST_AUTO_TEST_CASE(the_time_budget_ends_the_crawl) {
  LocalHttp s({}, [](const std::string&) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    return html("late");
  });
  auto o = quick();
  o.time_budget = std::chrono::milliseconds(400);
  auto started = std::chrono::steady_clock::now();
  auto r = crawl(s.url("/"), allow_loopback, o);
  BOOST_TEST(r.stopped == "time_budget");
  BOOST_TEST(page(r, "/")->error_kind == "timeout");
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(2)));
}

BOOST_AUTO_TEST_CASE(windows_1251_pages_are_read) {
  LocalHttp s({{"/", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/html; charset=windows-1251\r\n",
                                                        "<title>\xcf\xf0\xe8\xe2\xe5\xf2</title>"))}});
  auto r = crawl(s.url("/"), allow_loopback, quick());
  BOOST_TEST(r.pages.at(0).title == "Привет");
  BOOST_TEST(r.pages.at(0).charset == "windows-1251");
}

BOOST_AUTO_TEST_CASE(every_in_scope_answer_reaches_the_page_hook_with_its_heads) {
  LocalHttp s({{"/", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/html\r\nSet-Cookie: sid=1\r\n",
                                                        "<title>Главная</title><a href=\"/data\">d</a>"))},
               {"/data", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/plain\r\n", "plain"))}});
  auto o = quick();
  std::vector<std::string> html_pages, other_pages;
  std::string cookie;
  o.on_page = [&](const PageSeen& p) {
    BOOST_TEST_REQUIRE(!p.exchanges.empty());
    if (!p.html) {
      other_pages.push_back(p.url);
      return;
    }
    html_pages.push_back(p.url);
    BOOST_TEST(p.facts->title == "Главная");
    BOOST_TEST(p.html->find("<a href") != std::string::npos);
    cookie = dozor::net::first_header(p.exchanges.back().response_headers, "set-cookie").value_or("");
  };
  crawl(s.url("/"), allow_loopback, o);
  BOOST_TEST(html_pages == std::vector<std::string>{s.url("/")});
  BOOST_TEST(other_pages == std::vector<std::string>{s.url("/data")});
  BOOST_TEST(cookie == "sid=1");
}

BOOST_AUTO_TEST_SUITE_END()
