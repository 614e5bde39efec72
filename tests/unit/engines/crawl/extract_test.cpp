#include <boost/test/unit_test.hpp>
#include <string>

#include "engines/crawl/charset.hpp"
#include "engines/crawl/contacts.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/crawl/site_maps.hpp"

using namespace dozor::crawl;

BOOST_AUTO_TEST_SUITE(crawl_extract)

BOOST_AUTO_TEST_CASE(links_forms_scripts_and_media_are_read_from_html) {
  const std::string html = R"HTML(<!doctype html><html><head><title> Главная  страница </title>
<base href="/site/">
<link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/s.css">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'"><meta name="generator" content="Bitrix">
<script src="js/app.js" integrity="sha384-abc" crossorigin="anonymous"></script>
<script>fetch("/api/v1/items?limit=5"); var u = './data/list.json';</script>
</head><body>
<a href="page2.html#top">Next</a> <a href="https://other.example/x">Out</a> <a href="javascript:void(0)">js</a>
<a href="mailto:Info@Example.RU?subject=hi">mail</a> <a href="tel:+7 (495) 123-45-67">call</a>
<a href="/docs/report.PDF">PDF</a>
<img src="/i/a.png" srcset="/i/a2.png 2x, /i/a3.png 3x"><video src="/v.mp4" poster="/p.jpg"></video>
<audio><source src="/a.ogg"></audio><iframe src="https://www.youtube.com/embed/x"></iframe>
<form action="/login" method="post"><input name="user" required placeholder="Логин">
<input type="password" name="pass"><input type="checkbox" name="agree" checked><select name="city"></select>
<textarea name="msg"></textarea><button>Go</button></form>
<form><input name="q"></form>
<!-- TODO: remove debug -->
</body></html>)HTML";
  auto f = extract_html(html, "https://example.com/index.html");
  BOOST_TEST(f.title == "Главная страница");
  BOOST_REQUIRE(f.links.size() >= 2u);
  BOOST_TEST(f.links[0].url == "https://example.com/site/page2.html");
  BOOST_TEST(f.links[1].url == "https://other.example/x");
  BOOST_TEST(f.mailto.at(0) == "Info@Example.RU");
  BOOST_TEST(f.tel.at(0) == "+7 (495) 123-45-67");
  BOOST_REQUIRE(f.scripts.size() == 2u);
  BOOST_TEST(f.scripts[0].raw_src == "js/app.js");
  BOOST_TEST(f.scripts[0].src == "https://example.com/site/js/app.js");
  BOOST_TEST(f.scripts[0].integrity == "sha384-abc");
  BOOST_TEST(f.scripts[1].inline_text.find("/api/v1/items") != std::string::npos);
  BOOST_REQUIRE(f.forms.size() == 2u);
  BOOST_TEST(f.forms[0].action == "https://example.com/login");
  BOOST_TEST(f.forms[0].method == "POST");
  BOOST_REQUIRE(f.forms[0].fields.size() == 6u);
  BOOST_TEST(f.forms[0].fields[0].name == "user");
  BOOST_TEST(f.forms[0].fields[0].type == "text");
  BOOST_TEST(f.forms[0].fields[0].required);
  BOOST_TEST(f.forms[0].fields[0].placeholder == "Логин");
  BOOST_TEST(f.forms[0].fields[1].type == "password");
  BOOST_TEST(f.forms[0].fields[2].checked);
  BOOST_TEST(f.forms[0].fields[3].type == "select");
  BOOST_TEST(f.forms[0].fields[5].type == "submit");
  BOOST_TEST(f.forms[1].method == "GET");
  BOOST_TEST(f.forms[1].action == "https://example.com/site/");  // no action: the page (after <base>)
  BOOST_TEST(f.forms[1].fields.size() == 1u);
  auto has_media = [&](const std::string& kind, const std::string& url) {
    for (const auto& m : f.media)
      if (m.kind == kind && m.url == url) return true;
    return false;
  };
  BOOST_TEST(has_media("icon", "https://example.com/favicon.ico"));
  BOOST_TEST(has_media("img", "https://example.com/i/a3.png"));
  BOOST_TEST(has_media("video", "https://example.com/v.mp4"));
  BOOST_TEST(has_media("img", "https://example.com/p.jpg"));
  BOOST_TEST(has_media("source", "https://example.com/a.ogg"));
  BOOST_TEST(has_media("iframe", "https://www.youtube.com/embed/x"));
  BOOST_TEST(has_media("document", "https://example.com/docs/report.PDF"));
  BOOST_TEST(f.http_equiv.at(0).name == "content-security-policy");
  BOOST_TEST(f.meta.at(0).content == "Bitrix");
  BOOST_TEST(f.comments.at(0) == "TODO: remove debug");
  BOOST_TEST(f.text.find("fetch(") == std::string::npos);  // scripts are not text
}

BOOST_AUTO_TEST_CASE(deeply_nested_pages_are_bounded) {
  // Gumbo is quadratic in nesting and frees recursively: 100,000 nested elements took minutes
  // and gigabytes before the pre-scan bound.
  for (const char* open : {"<div>", "<b><i>", "<span class=x>"}) {
    std::string html = "<a href=\"/first\">f</a>";
    for (int i = 0; i < 150000; ++i) html += open;
    html += "<a href=\"/deep\">x</a>";
    auto f = extract_html(html, "https://example.com/");
    BOOST_TEST(f.links.at(0).url == "https://example.com/first");
    BOOST_TEST(f.links.size() == 1u);  // what lies below the bound is not read
  }
  // Ordinary pages with many siblings (implicitly closed <p> and <li>) are read whole.
  std::string list = "<ul>";
  for (int i = 0; i < 3000; ++i) list += "<li><p>item";
  list += "</ul><a href=\"/end\">end</a>";
  BOOST_TEST(extract_html(list, "https://example.com/").links.at(0).url == "https://example.com/end");
}

BOOST_AUTO_TEST_CASE(emails_are_found_in_text) {
  auto e = find_emails("Пишите: Sales@Example.com, info@пример.рф нет; support@mail.example.co.uk. logo@2x.png");
  BOOST_REQUIRE(e.size() == 2u);
  BOOST_TEST(e[0] == "sales@example.com");
  BOOST_TEST(e[1] == "support@mail.example.co.uk");
}

BOOST_AUTO_TEST_CASE(phones_are_normalised_to_e164_and_keep_the_text) {
  auto p = find_phones(
      "Звоните: 8 (495) 123-45-67 или +7 812 765 43 21, факс 8-800-555-35-35; London +44 20 7946 0958. "
      "Артикул 12345678901234, цена 1 200 руб., дата 2024-01-15.");
  BOOST_REQUIRE(p.size() == 4u);
  BOOST_TEST(p[0].e164 == "+74951234567");
  BOOST_TEST(p[0].as_found == "8 (495) 123-45-67");
  BOOST_TEST(p[1].e164 == "+78127654321");
  BOOST_TEST(p[2].e164 == "+78005553535");
  BOOST_TEST(p[3].e164 == "+442079460958");
  BOOST_TEST(to_e164("+7 (495) 123-45-67").value_or("") == "+74951234567");
  BOOST_TEST(to_e164("0049 30 1234567").value_or("") == "+49301234567");
  BOOST_TEST(!to_e164("12345"));
}

BOOST_AUTO_TEST_CASE(paths_are_found_in_javascript) {
  auto p =
      find_js_paths(R"JS(fetch("/api/v1/users?id=1"); load('./cfg/site.json'); x = "https://cdn.example.com/lib.js";
    type = "text/html"; d = "2024/01"; img = `assets/img/logo.svg`; "/")JS");
  auto has = [&](const std::string& s) { return std::find(p.begin(), p.end(), s) != p.end(); };
  BOOST_TEST(has("/api/v1/users?id=1"));
  BOOST_TEST(has("./cfg/site.json"));
  BOOST_TEST(has("https://cdn.example.com/lib.js"));
  BOOST_TEST(has("assets/img/logo.svg"));
  BOOST_TEST(!has("text/html"));
  BOOST_TEST(!has("2024/01"));
}

BOOST_AUTO_TEST_CASE(robots_and_sitemaps_are_read) {
  auto r = parse_robots(
      "User-agent: Googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nDisallow: /admin/ # staff\nAllow: /admin/help\n"
      "Disallow: /*.php$\nSitemap: https://example.com/sm.xml\n");
  BOOST_TEST(r.disallow.size() == 2u);
  BOOST_TEST(r.disallow[0] == "/admin/");
  BOOST_TEST(r.allow.at(0) == "/admin/help");
  BOOST_TEST(r.sitemaps.at(0) == "https://example.com/sm.xml");
  auto s = parse_sitemap(R"(<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc> https://example.com/a </loc></url><url><loc>https://example.com/b</loc></url></urlset>)");
  BOOST_TEST(s.valid);
  BOOST_TEST(s.urls.size() == 2u);
  BOOST_TEST(s.urls[0] == "https://example.com/a");
  auto idx = parse_sitemap(R"(<sitemapindex><sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>)");
  BOOST_TEST(idx.sitemaps.at(0) == "https://example.com/s1.xml");
  BOOST_TEST(!parse_sitemap("<html>not a sitemap</html>").valid);
  BOOST_TEST(!parse_sitemap("<<<").valid);
  // An entity bomb is not expanded: pugixml knows no DTD entities.
  auto bomb = parse_sitemap(
      R"(<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><urlset><url><loc>&b;</loc></url></urlset>)");
  BOOST_TEST(bomb.urls.size() <= 1u);
}

BOOST_AUTO_TEST_CASE(cyrillic_charsets_become_utf8) {
  const std::string cp1251 = "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!";  // "Привет, мир!" in windows-1251
  BOOST_TEST(to_utf8(cp1251, "text/html; charset=windows-1251") == "Привет, мир!");
  const std::string koi8 = "\xf0\xd2\xc9\xd7\xc5\xd4";  // "Привет" in KOI8-R
  BOOST_TEST(to_utf8(koi8, "text/html; charset=KOI8-R") == "Привет");
  const std::string meta = "<meta charset=\"windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
  BOOST_TEST(detect_charset(meta, "text/html") == "windows-1251");
  BOOST_TEST(to_utf8(meta, "text/html").find("Привет") != std::string::npos);
  // Without any label, a long Russian windows-1251 text is recognised by uchardet.
  std::string text;
  for (int i = 0; i < 20; ++i)
    text +=
        "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xdd\xf2\xee \xf2\xe5\xf1\xf2\xee\xe2\xe0\xff "
        "\xf1\xf2\xf0\xe0\xed\xe8\xf6\xe0 \xed\xe0 \xf0\xf3\xf1\xf1\xea\xee\xec \xff\xe7\xfb\xea\xe5. ";
  BOOST_TEST(to_utf8(text, "").find("Привет, мир") != std::string::npos);
  BOOST_TEST(to_utf8("plain ascii", "") == "plain ascii");
  BOOST_TEST(to_utf8("\xEF\xBB\xBFutf", "") == "utf");
}

BOOST_AUTO_TEST_SUITE_END()
