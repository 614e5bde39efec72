// Technology detection over pages, robots.txt and probes: versions, confidence, implies,
// excludes, evidence, and no false positives on a plain page (docs/audit.md "Technologies").
#include "engines/audit/tech/detector.hpp"
#include "tests/unit/support/audit_data.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "engines/audit/tech/audit_plug.hpp"
#include "engines/crawl/html_extract.hpp"
#include "tests/unit/support/local_http.hpp"

using namespace dozor;
using namespace dozor::audit;
using namespace dozor::audit::tech;

namespace {

const Fingerprints& shipped() { return dozor::test::shipped_audit_data().tech; }

const VulnLibraries& libraries() { return dozor::test::shipped_audit_data().vulnlibs; }

net::Exchange answer(const std::string& url, std::vector<net::HeaderField> headers) {
  net::Exchange x;
  x.url = url;
  x.status = 200;
  x.response_headers = std::move(headers);
  return x;
}

// Feeds one page to `d` as the crawler would (HTML read by gumbo).
void feed(Detector& d, const std::string& url, const std::string& html, std::vector<net::HeaderField> headers = {}) {
  std::vector<net::Exchange> exchanges{answer(url, std::move(headers))};
  auto facts = crawl::extract_html(html, url);
  d.page(crawl::PageSeen{url, 0, 200, exchanges, &html, &facts});
}

std::vector<Detection> detect(const std::string& html, std::vector<net::HeaderField> headers = {},
                              const std::string& url = "https://site.test/") {
  Detector d(shipped());
  feed(d, url, html, std::move(headers));
  return d.results();
}

const Detection* find(const std::vector<Detection>& ds, const std::string& slug) {
  for (const auto& d : ds)
    if (d.tech->slug == slug) return &d;
  return nullptr;
}

std::string slugs(const std::vector<Detection>& ds) {
  std::string out;
  for (const auto& d : ds) out += d.tech->slug + " ";
  return out;
}

// The sources of `slug`'s evidence, "header html …": what it was detected on.
std::string sources(const std::vector<Detection>& ds, const std::string& slug) {
  std::string out;
  for (const auto& d : ds)
    if (d.tech->slug == slug)
      for (const auto& e : d.evidence) out += e.source + " ";
  return out;
}

// Detected on evidence of its own, not only because another technology implies it.
bool on_its_own(const std::vector<Detection>& ds, const std::string& slug) {
  std::string s = sources(ds, slug);
  return !s.empty() && s.find("implied") == std::string::npos;
}

const std::string kPlain =
    "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Plain</title>"
    "<meta name='description' content='A plain page'><link rel='stylesheet' href='/style.css'></head>"
    "<body><h1>Hello</h1><p>Nothing but text, a <a href='/about'>link</a> and an image.</p>"
    "<img src='/logo.png' alt='logo'><script src='/app.js'></script>"
    "<script>document.querySelector('h1').textContent += '!';</script>"
    "<form action='/search'><input name='q'></form></body></html>";

}  // namespace

BOOST_AUTO_TEST_SUITE(tech_detector)

BOOST_AUTO_TEST_CASE(a_plain_page_yields_nothing_but_its_server) {
  auto ds = detect(kPlain);
  BOOST_TEST(ds.empty(), slugs(ds));
  ds = detect(kPlain, {{"server", "nginx/1.22.1"}, {"content-type", "text/html"}});
  BOOST_TEST(ds.size() == 1u, slugs(ds));
  BOOST_REQUIRE(find(ds, "nginx"));
  BOOST_TEST(find(ds, "nginx")->version == "1.22.1");
}

BOOST_AUTO_TEST_CASE(wordpress_is_found_with_its_version_categories_and_implied_php_and_mysql) {
  std::string html =
      "<html><head><meta name='generator' content='WordPress 6.4.2'>"
      "<link rel='stylesheet' href='/wp-content/themes/twentyone/style.css'>"
      "<script src='/wp-includes/js/jquery/jquery.min.js?ver=3.7.1'></script></head><body></body></html>";
  auto ds = detect(html, {{"link", "<https://site.test/wp-json/>; rel=\"https://api.w.org/\""}});
  const auto* wp = find(ds, "wordpress");
  BOOST_REQUIRE(wp);
  BOOST_TEST(wp->version == "6.4.2");
  BOOST_TEST(wp->confidence == 100);
  BOOST_TEST(wp->tech->website == "https://wordpress.org");
  BOOST_TEST(wp->evidence.size() >= 3u);
  const auto* php = find(ds, "php");
  BOOST_REQUIRE(php);
  BOOST_TEST(php->evidence.front().source == "implied");
  BOOST_TEST(php->evidence.front().key == "wordpress");
  BOOST_TEST(find(ds, "mysql"));
  const auto* jq = find(ds, "jquery");
  BOOST_REQUIRE(jq);
  BOOST_TEST(jq->version == "3.7.1");
  auto j = to_json(ds, shipped());
  const auto& first = j.at(0).as_object();
  BOOST_TEST(first.contains("name"));
  BOOST_TEST(first.at("categories").is_array());
  BOOST_TEST(first.at("evidence").is_array());
}

BOOST_AUTO_TEST_CASE(bitrix_is_found_from_headers_and_cookies_without_showing_cookie_values) {
  auto ds = detect("<html><body><p>x</p></body></html>", {{"x-powered-cms", "Bitrix Site Manager (DEMO)"},
                                                          {"set-cookie", "BITRIX_SM_GUEST_ID=8134; path=/; HttpOnly"},
                                                          {"x-powered-by", "PHP/8.1.2"}});
  const auto* bx = find(ds, "1c-bitrix");
  BOOST_REQUIRE(bx);
  BOOST_TEST(bx->confidence == 100);
  bool cookie = false;
  for (const auto& e : bx->evidence)
    if (e.source == "cookie") {
      cookie = true;
      BOOST_TEST(e.key == "BITRIX_SM_");
      BOOST_TEST(e.match.empty());
    }
  BOOST_TEST(cookie);
  const auto* php = find(ds, "php");
  BOOST_REQUIRE(php);
  BOOST_TEST(php->version == "8.1.2");  // detected itself: its own evidence, not "implied"
  BOOST_TEST(php->evidence.front().source == "header");
}

BOOST_AUTO_TEST_CASE(implies_are_transitive) {
  auto ds = detect("<html><body><img src='/wa-data/public/shop/products/1.jpg'></body></html>");
  BOOST_TEST(find(ds, "shop-script"));
  BOOST_TEST(find(ds, "webasyst"));  // shop-script → webasyst
  BOOST_TEST(find(ds, "php"));       // → php
}

BOOST_AUTO_TEST_CASE(confidence_sums_distinct_patterns_caps_at_100_and_counts_a_pattern_once) {
  std::string cats = R"({"format":1,"version":"t","categories":{"cms":"CMS"}})";
  std::string techs = R"({"format":1,"version":"t","technologies":{
    "x":{"name":"X","categories":["cms"],"html":[{"regex":"x-one","confidence":30},{"regex":"x-two","confidence":30},
      {"regex":"x-three","confidence":50}]},
    "a":{"name":"A","categories":["cms"],"html":"a-mark","excludes":["b"]},
    "b":{"name":"B","categories":["cms"],"html":"b-mark"}}})";
  auto fp = Fingerprints::parse(cats, {{"t.json", techs}});
  Detector d(fp);
  feed(d, "https://s.test/1", "<p>x-one</p>");
  feed(d, "https://s.test/2", "<p>x-one again</p>");  // the same pattern on another page: still 30
  auto ds = d.results();
  BOOST_REQUIRE(ds.size() == 1u);
  BOOST_TEST(ds[0].confidence == 30);
  feed(d, "https://s.test/3", "<p>x-two</p>");
  BOOST_TEST(d.results()[0].confidence == 60);
  feed(d, "https://s.test/4", "<p>x-three</p>");
  BOOST_TEST(d.results()[0].confidence == 100);  // 110, capped
  // Excludes: A seen removes B.
  feed(d, "https://s.test/5", "<p>b-mark</p>");
  BOOST_TEST(d.results().size() == 2u);
  feed(d, "https://s.test/6", "<p>a-mark</p>");
  auto final = d.results();
  BOOST_TEST(final.size() == 2u);
  for (const auto& x : final) BOOST_TEST(x.tech->slug != "b");
}

BOOST_AUTO_TEST_CASE(the_most_specific_newest_version_wins) {
  BOOST_TEST(best_version({"3", "3.4", "3.4.1", "3.3.9"}) == "3.4.1");
  BOOST_TEST(best_version({"1.12.4", "1.9.1"}) == "1.12.4");
  BOOST_TEST(best_version({}).empty());
}

BOOST_AUTO_TEST_CASE(russian_services_are_found_in_inline_scripts_and_script_urls) {
  std::string html =
      "<html><head><script src='https://static.tildacdn.com/js/tilda-scripts-3.0.min.js'></script>"
      "<script>(function(m,e,t,r,i,k,a){m[i]=m[i]||function(){};})(window, document, 'script', "
      "'https://mc.yandex.ru/metrika/tag.js', 'ym'); ym(12345678, 'init', {clickmap:true});</script>"
      "<script>var _tmr = window._tmr || (window._tmr = []); _tmr.push({id: '3300000', type: 'pageView'});</script>"
      "<script src='//code.jivo.ru/widget/AbCdEf' async></script>"
      "<script src='https://api-maps.yandex.ru/2.1/?lang=ru_RU'></script>"
      "<script src='https://vk.com/js/api/openapi.js?169'></script>"
      "<script>VK.Retargeting.Init('VK-RTRG-123456-abcde'); VK.Retargeting.Hit();</script>"
      "</head><body><div id='allrecords' class='t-records'></div></body></html>";
  auto ds = detect(html);
  for (const char* slug :
       {"tilda", "yandex-metrica", "top-mail-ru", "jivochat", "yandex-maps", "vk-widgets", "vk-pixel"})
    BOOST_TEST(find(ds, slug), slug << " in " << slugs(ds));
  BOOST_TEST(find(ds, "yandex-maps")->version == "2.1");
}

BOOST_AUTO_TEST_CASE(protection_services_are_found_from_their_headers) {
  auto ds = detect("<html></html>", {{"server", "ddos-guard"}, {"set-cookie", "__ddg1_=abc; Path=/"}});
  BOOST_TEST(find(ds, "ddos-guard"));
  ds = detect("<html></html>", {{"server", "QRATOR"}});
  BOOST_TEST(find(ds, "qrator"));
  ds = detect("<html></html>", {{"server", "cloudflare"}, {"cf-ray", "8a1b2c3d4e5f-AMS"}});
  BOOST_TEST(find(ds, "cloudflare"));
}

BOOST_AUTO_TEST_CASE(probes_count_only_2xx_answers_whose_body_matches) {
  Detector d(shipped());
  d.probe("https://s.test/readme.html", "/readme.html", 404, "<title>WordPress &#8250; ReadMe</title>");
  BOOST_TEST(d.results().empty());
  d.probe("https://s.test/readme.html", "/readme.html", 200, "<html><title>Welcome</title></html>");  // catch-all
  BOOST_TEST(d.results().empty());
  d.probe("https://s.test/readme.html", "/readme.html", 200, "<html><title>WordPress &#8250; ReadMe</title>");
  BOOST_TEST(find(d.results(), "wordpress"));
  d.probe("https://s.test/CHANGELOG.txt", "/CHANGELOG.txt", 200, "\nDrupal 7.98, 2023-06-07\n----------\n");
  auto after = d.results();
  const auto* dr = find(after, "drupal");
  BOOST_REQUIRE(dr);
  BOOST_TEST(dr->version == "7.98");
  d.probe("https://s.test/robots.txt", "/robots.txt", 200, "User-agent: *\nDisallow: /bitrix/\n");
  BOOST_TEST(find(d.results(), "1c-bitrix"));
}

BOOST_AUTO_TEST_CASE(a_favicon_is_matched_by_its_sha256) {
  // sha256("fake-icon") computed with `printf fake-icon | sha256sum`.
  std::string cats = R"({"format":1,"version":"t","categories":{"cms":"CMS"}})";
  std::string techs = R"({"format":1,"version":"t","technologies":{"x":{"name":"X","categories":["cms"],
    "favicon_sha256":["57bcc841fbee9fa2099b351a91e04d04c9f7c4ec41299b922c769627de174581"]}}})";
  auto fp = Fingerprints::parse(cats, {{"t.json", techs}});
  BOOST_TEST((fp.probe_paths() == std::vector<std::string>{"/favicon.ico"}));
  Detector d(fp);
  d.probe("https://s.test/favicon.ico", "/favicon.ico", 200, "another-icon");
  BOOST_TEST(d.results().empty());
  d.probe("https://s.test/favicon.ico", "/favicon.ico", 200, "fake-icon");
  BOOST_REQUIRE(d.results().size() == 1u);
  BOOST_TEST(d.results()[0].evidence[0].source == "favicon");
}

BOOST_AUTO_TEST_CASE(the_audit_observer_writes_technologies_and_one_finding_per_vulnerable_library) {
  auto shared = std::make_shared<Shared>(shipped(), libraries());
  TechObserver observer(shared);
  std::string url = "https://shop.test/";
  std::string html =
      "<html><head><script src='/js/jquery-1.12.4.min.js'></script>"
      "<script src='https://cdn.jsdelivr.net/npm/bootstrap@3.3.7/dist/js/bootstrap.min.js'></script>"
      "<script src='/js/lodash@4.17.21/lodash.min.js'></script></head><body></body></html>";
  std::vector<net::Exchange> exchanges{answer(url, {{"server", "nginx"}})};
  auto facts = crawl::extract_html(html, url);
  observer.observe(crawl::PageSeen{url, 0, 200, exchanges, &html, &facts});
  AuditParts parts;
  crawl::CrawlResult crawl;
  observer.finish(crawl, parts);
  const auto& techs = parts.parts.at("technologies").as_array();
  BOOST_TEST(techs.size() >= 4u);              // jQuery, Bootstrap, Lodash, nginx, jsDelivr
  BOOST_REQUIRE(parts.findings.size() == 2u);  // lodash 4.17.21 has no advisory
  const auto& jq = parts.findings[0].check == "vulnerable-js-jquery" ? parts.findings[0] : parts.findings[1];
  BOOST_TEST(jq.check == "vulnerable-js-jquery");
  BOOST_TEST(jq.owasp == "A06:2021");
  BOOST_TEST(jq.cwe == 1104);
  BOOST_TEST((jq.severity == Severity::Medium));
  BOOST_TEST(jq.title.find("1.12.4") != std::string::npos);
  BOOST_REQUIRE(!jq.evidence.empty());
  BOOST_TEST(jq.evidence[0].url == "https://shop.test/js/jquery-1.12.4.min.js");
  bool cve = false;
  for (const auto& r : jq.references) cve = cve || r == "CVE-2020-11022";
  BOOST_TEST(cve);
  BOOST_TEST(jq.recommendation.find("3.5.0") != std::string::npos);
}

// Russian CMSs the review found untested (issue 8): each on the page a real site of it serves,
// detected on its own evidence, and a lookalike page that must not be taken for it.

BOOST_AUTO_TEST_CASE(umi_cms_is_found_from_its_header_and_its_edit_in_place_attributes) {
  // UMI.CMS marks editable fields for its in-page editor and loads its scripts from /js/cms/.
  std::string page =
      "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Главная — ООО «Ромашка»</title>"
      "<script type='text/javascript' src='/js/jquery/jquery.js'></script>"
      "<script type='text/javascript' src='/js/cms/compressed.js?3.2.1'></script></head>"
      "<body><div class='content' umi:element-id='12' umi:field-name='content' umi:empty='Пусто'>"
      "<p>Добро пожаловать</p></div>"
      "<ul umi:element-id='3' umi:method='menu' umi:module='content'><li><a href='/about/'>О нас</a></li></ul>"
      "</body></html>";
  auto ds = detect(page, {{"x-generated-by", "UMI.CMS"}, {"x-powered-by", "PHP/7.4.33"}});
  BOOST_REQUIRE(find(ds, "umi-cms"));
  BOOST_TEST(find(ds, "umi-cms")->confidence == 100);
  std::string got = sources(ds, "umi-cms");
  BOOST_TEST(got.find("header") != std::string::npos, got);
  BOOST_TEST(got.find("html") != std::string::npos, got);
  // Without the header (a proxy strips it), the markup alone is enough.
  ds = detect(page);
  BOOST_TEST(on_its_own(ds, "umi-cms"), slugs(ds));
  // A blog post about UMI.CMS's attributes is not a UMI.CMS site.
  ds = detect(
      "<html><body><p>Атрибут <code>umi:element-id</code> включает редактирование,"
      " см. <a href='https://www.umi-cms.ru/support/'>документацию</a>.</p>"
      "<script src='/js/cms-widgets/app.js'></script></body></html>");
  BOOST_TEST(!find(ds, "umi-cms"), slugs(ds));
}

BOOST_AUTO_TEST_CASE(netcat_is_found_from_its_template_upload_and_script_paths) {
  std::string page =
      "<!DOCTYPE html><html><head><title>Каталог</title>"
      "<link rel='stylesheet' href='/netcat_template/template/main/css/style.css'>"
      "<script src='/netcat/require/js/jquery.min.js'></script>"
      "<script src='/netcat/modules/default/js/cart.js'></script></head>"
      "<body><img src='/netcat_files/generated/145/392/300x200/50/4f3e2d1c.jpg' alt='Товар'>"
      "<a href='/netcat_files/multifile/2401/price.pdf'>Прайс</a></body></html>";
  auto ds = detect(page);
  BOOST_REQUIRE(find(ds, "netcat"));
  BOOST_TEST(on_its_own(ds, "netcat"), slugs(ds));
  std::string got = sources(ds, "netcat");
  BOOST_TEST(got.find("script_src") != std::string::npos, got);
  BOOST_TEST(got.find("html") != std::string::npos, got);
  BOOST_TEST(find(ds, "php"));
  // The developer's credit link and a logo file named after it are not NetCat.
  ds = detect(
      "<html><body><img src='/images/netcat_logo.png'>"
      "<a href='https://netcat.ru/'>Сайт работает на NetCat</a></body></html>");
  BOOST_TEST(!find(ds, "netcat"), slugs(ds));
}

BOOST_AUTO_TEST_CASE(hostcms_is_found_from_its_header_and_its_template_and_system_paths) {
  std::string page =
      "<!DOCTYPE html><html><head><title>Новости</title>"
      "<link rel='stylesheet' type='text/css' href='/templates/template15/style.css?1700000000'>"
      "<script src='/hostcmsfiles/jquery/jquery.js'></script>"
      "<script src='/hostcmsfiles/main.js'></script></head>"
      "<body><img src='/upload/information_system_12/1/2/3/item_123/small_item_123.jpg'></body></html>";
  auto ds = detect(page, {{"x-powered-by", "PHP/8.1.27"}, {"x-powered-by", "HostCMS 6.9"}});
  BOOST_REQUIRE(find(ds, "hostcms"));
  BOOST_TEST(find(ds, "hostcms")->version == "6.9");  // the header's version is the fingerprint's group
  std::string got = sources(ds, "hostcms");
  BOOST_TEST(got.find("header") != std::string::npos, got);  // the second X-Powered-By is read too
  BOOST_TEST(got.find("html") != std::string::npos, got);
  ds = detect(page, {{"x-powered-by", "HostCMS"}});  // a bare banner: found, no version made up
  BOOST_REQUIRE(find(ds, "hostcms"));
  BOOST_TEST(find(ds, "hostcms")->version.empty());
  ds = detect(page);
  BOOST_TEST(on_its_own(ds, "hostcms"), slugs(ds));
  // Joomla's template directory has a name, not template<N>, and no /hostcmsfiles/.
  ds = detect(
      "<html><head><link rel='stylesheet' href='/templates/cassiopeia/css/template.min.css'>"
      "<link rel='stylesheet' href='/templates/template_main/style.css'></head><body></body></html>");
  BOOST_TEST(!find(ds, "hostcms"), slugs(ds));
}

BOOST_AUTO_TEST_CASE(datalife_engine_is_found_from_its_generator_globals_and_script_loader) {
  // DLE's default template: the generator tag, the dle_* globals inline, the minifier's loader.
  std::string page =
      "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Новости дня</title>"
      "<meta name='generator' content='DataLife Engine (https://dle-news.ru)'>"
      "<script src='/engine/classes/min/index.php?g=general&amp;v=7a4b2'></script>"
      "<script src='/engine/classes/js/dle_js.js?v=7a4b2'></script></head><body>"
      "<script>\n<!--\nvar dle_root       = '/';\nvar dle_admin      = '';\n"
      "var dle_login_hash = '3f1c0ab27d4e5f60718293a4b5c6d7e8f9a0b1c2';\nvar dle_group      = 5;\n"
      "var dle_skin       = 'Default';\nvar dle_wysiwyg    = '0';\n//-->\n</script></body></html>";
  auto ds = detect(page);
  const auto* dle = find(ds, "datalife-engine");
  BOOST_REQUIRE(dle);
  BOOST_TEST(dle->confidence == 100);
  BOOST_TEST(on_its_own(ds, "datalife-engine"), slugs(ds));
  std::string got = sources(ds, "datalife-engine");
  for (const char* source : {"meta", "script_src", "scripts"}) BOOST_TEST(got.find(source) != std::string::npos, got);
  // Each kind of evidence is enough alone: the generator tag, or the globals.
  BOOST_TEST(find(detect("<html><head><meta name='generator' content='DataLife Engine (https://dle-news.ru)'>"
                         "</head></html>"),
                  "datalife-engine"));
  BOOST_TEST(find(detect("<html><body><script>var dle_root = '/'; var dle_skin = 'Default';</script></body></html>"),
                  "datalife-engine"));
  // Names that only end in "dle_…" are someone else's globals.
  ds = detect(
      "<html><body><script>var idle_root = '/'; var handle_skin = 'dark';</script>"
      "<script src='/engine/js/classes.js'></script></body></html>");
  BOOST_TEST(!find(ds, "datalife-engine"), slugs(ds));
}

BOOST_AUTO_TEST_CASE(webasyst_is_found_on_its_own_on_a_site_without_the_shop_app) {
  // A Webasyst "Site" app page: framework assets under /wa-content/, the theme under /wa-data/.
  std::string page =
      "<!DOCTYPE html><html><head><title>Студия</title><meta name='generator' content='Webasyst'>"
      "<link href='/wa-data/public/site/themes/default/default.css?v2.5.0' rel='stylesheet'>"
      "<script src='/wa-content/js/jquery/jquery-1.11.1.min.js'></script>"
      "<script src='/wa-data/public/site/themes/default/default.js?v2.5.0'></script></head>"
      "<body><h1>Студия дизайна</h1></body></html>";
  auto ds = detect(page);
  BOOST_REQUIRE(find(ds, "webasyst"));
  BOOST_TEST(on_its_own(ds, "webasyst"), sources(ds, "webasyst"));
  std::string got = sources(ds, "webasyst");
  for (const char* source : {"meta", "html", "script_src"}) BOOST_TEST(got.find(source) != std::string::npos, got);
  BOOST_TEST(!find(ds, "shop-script"), slugs(ds));  // no shop here
  // With the shop app its generator tag names its version; Webasyst stays detected on its own.
  ds = detect(
      "<html><head><meta name='generator' content='Shop-Script 8.21.2'>"
      "<link href='/wa-data/public/shop/themes/default/default.shop.css' rel='stylesheet'>"
      "<script src='/wa-content/js/jquery/jquery-1.11.1.min.js'></script></head></html>");
  BOOST_REQUIRE(find(ds, "shop-script"));
  BOOST_TEST(find(ds, "shop-script")->version == "8.21.2");
  BOOST_TEST(on_its_own(ds, "webasyst"), sources(ds, "webasyst"));
  // WordPress's /wp-content/ is one letter away and is not Webasyst.
  ds = detect(
      "<html><head><link rel='stylesheet' href='/wp-content/themes/astra/style.css'>"
      "<script src='/wp-content/plugins/contact-form-7/includes/js/index.js'></script></head></html>");
  BOOST_TEST(!find(ds, "webasyst"), slugs(ds));
}

BOOST_AUTO_TEST_SUITE_END()

// The full audit reads the same-origin scripts its crawl fetches: a lodash.js whose URL names no
// version is judged by its text, and the technologies list shows the version the scanner read.
BOOST_AUTO_TEST_SUITE(tech_in_the_full_audit)

BOOST_AUTO_TEST_CASE(a_same_origin_script_without_a_version_in_its_url_is_judged_by_its_text) {
  const std::string lodash_head =
      ";(function() {\n  var undefined;\n\n  /** Used as the semantic version number. */\n  var VERSION = '4.17.15';"
      "\n\n  /** Used as the size to enable large array optimizations. */\n  var LARGE_ARRAY_SIZE = 200;\n";
  dozor::test::LocalHttp site(
      {{"/", dozor::test::LocalHttp::fixed(dozor::test::LocalHttp::answer(
                 200, "Content-Type: text/html\r\n",
                 "<html><head><title>Shop</title><script src='/js/lodash.js'></script></head><body></body></html>"))},
       {"/js/lodash.js", dozor::test::LocalHttp::fixed(
                             dozor::test::LocalHttp::answer(200, "Content-Type: text/javascript\r\n", lodash_head))}});
  AuditPlan plan;
  add_to_plan(plan, shipped(), libraries(), Probing{true, "admin", {}});
  AuditOptions o;
  o.scan.request_timeout = std::chrono::seconds(3);
  o.scan.per_host_interval = std::chrono::milliseconds(0);
  o.time_budget = std::chrono::seconds(20);
  auto report = run_audit(site.url("/"), dozor::net::EgressPolicy(true), o, std::move(plan));

  const Finding* lodash = nullptr;
  for (const auto& f : report.parts.findings)
    if (f.check == "vulnerable-js-lodash") lodash = &f;
  BOOST_REQUIRE(lodash != nullptr);
  BOOST_TEST(lodash->title.find("4.17.15") != std::string::npos);
  BOOST_REQUIRE(!lodash->evidence.empty());
  BOOST_TEST(lodash->evidence[0].url == site.url("/js/lodash.js"));
  std::string version;
  for (const auto& t : report.parts.parts.at("technologies").as_array())
    if (t.at("slug").as_string() == "lodash" && t.at("version").is_string())
      version = std::string(t.at("version").as_string());
  BOOST_TEST(version == "4.17.15");
}

// Issue 26 §2: the fingerprints' probes of paths the site does not link are active work; without
// the scan permission only /robots.txt and /favicon.ico are asked, and the plan says what it skipped.
BOOST_AUTO_TEST_CASE(unlinked_probes_need_the_scan_permission) {
  auto asked_unlinked = [](const Probing& probing, std::vector<AuditSkip>& skipped) {
    dozor::test::LocalHttp site({{"/", dozor::test::LocalHttp::fixed(dozor::test::LocalHttp::answer(
                                           200, "Content-Type: text/html\r\n", "<html><body>plain</body></html>"))}});
    AuditPlan plan;
    add_to_plan(plan, shipped(), libraries(), probing);
    skipped = plan.skipped;
    AuditOptions o;
    o.scan.request_timeout = std::chrono::seconds(3);
    o.scan.per_host_interval = std::chrono::milliseconds(0);
    o.time_budget = std::chrono::seconds(20);
    run_audit(site.url("/"), dozor::net::EgressPolicy(true), o, std::move(plan));
    std::vector<std::string> unlinked, ordinary;
    for (const auto& head : site.heads()) {
      auto path = head.substr(4, head.find(' ', 4) - 4);
      (path == "/" || path == "/robots.txt" || path == "/favicon.ico" || path == "/sitemap.xml" ? ordinary : unlinked)
          .push_back(path);
    }
    BOOST_TEST(!ordinary.empty());
    return unlinked;
  };
  std::vector<AuditSkip> skipped;
  auto without = asked_unlinked(Probing{}, skipped);
  BOOST_TEST(without.empty(), "probed without the permission: " << without.size() << " paths");
  BOOST_REQUIRE(skipped.size() == 1u);
  BOOST_TEST(skipped[0].check == "technology-probes");
  BOOST_TEST(skipped[0].reason == "not_owned");
  BOOST_TEST(skipped[0].detail.find("/readme.html") != std::string::npos);
  std::vector<std::string> admitted;
  Probing allowed{true, "verified", [&](const std::string& origin) {
                    admitted.push_back(origin);
                    return true;
                  }};
  auto with = asked_unlinked(allowed, skipped);
  BOOST_TEST(skipped.empty());
  BOOST_TEST((std::find(with.begin(), with.end(), "/readme.html") != with.end()));
  BOOST_TEST(!admitted.empty(), "the probes did not ask the scope");
}

BOOST_AUTO_TEST_SUITE_END()
