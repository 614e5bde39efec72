// Every passive rule with a page that must fire it and one that must not (docs/audit.md "Passive rules").
#include "engines/audit/passive/passive.hpp"
#include "tests/unit/support/audit_data.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/audit/passive/rules.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/limits.hpp"

using namespace dozor;
using namespace dozor::audit;
using namespace dozor::audit::passive;

namespace {

const Data& data() { return dozor::test::shipped_audit_data().passive; }

net::Exchange answer(const std::string& url, std::vector<net::HeaderField> headers, std::string body = "") {
  net::Exchange x;
  x.url = url;
  x.request_line = "GET / HTTP/1.1";
  x.status = 200;
  x.status_line = "HTTP/1.1 200 OK";
  x.response_headers = std::move(headers);
  x.body_excerpt = std::move(body);
  return x;
}

// Runs every rule over one page: HTML when `html` is given (as the crawler passes 2xx HTML pages).
std::vector<Finding> scan(const std::string& url, const std::string& html, std::vector<net::HeaderField> headers = {},
                          int status = 200) {
  std::vector<net::Exchange> exchanges{answer(url, std::move(headers), html)};
  exchanges.back().status = status;
  PassiveObserver observer(data());
  if (status >= 200 && status < 300 && !html.empty()) {
    auto facts = crawl::extract_html(html, url);
    observer.observe(crawl::PageSeen{url, 0, status, exchanges, &html, &facts});
  } else {
    observer.observe(crawl::PageSeen{url, 0, status, exchanges});
  }
  return observer.take();
}

const Finding* find(const std::vector<Finding>& fs, const std::string& check) {
  for (const auto& f : fs)
    if (f.check == check) return &f;
  return nullptr;
}

bool has(const std::vector<Finding>& fs, const std::string& check) { return find(fs, check) != nullptr; }

const std::string kHttps = "https://site.test/";
const std::string kHttp = "http://site.test/";

}  // namespace

BOOST_AUTO_TEST_SUITE(passive_rules)

BOOST_AUTO_TEST_CASE(the_shipped_rules_file_validates_and_a_broken_one_is_refused) {
  BOOST_TEST(data().error_patterns.size() >= 15u);
  BOOST_TEST(!data().csrf_field_names.empty());
  BOOST_CHECK_THROW(Data::parse("{"), std::runtime_error);
  BOOST_CHECK_THROW(Data::parse("{\"format\": 2}"), std::runtime_error);
  std::string bad_regex = R"({"format":1,"csrf_field_names":["a"],"csrf_field_substrings":["a"],"csrf_meta_names":["a"],
    "session_cookie_substrings":["a"],"version_headers":["server"],"comment_suspicious_words":["todo"],
    "comment_credential_words":["password"],"error_patterns":[{"id":"x","kind":"error","title":"t","regex":"(("}]})";
  BOOST_CHECK_THROW(Data::parse(bad_regex), std::runtime_error);
  std::string bad_kind = R"({"format":1,"csrf_field_names":["a"],"csrf_field_substrings":["a"],"csrf_meta_names":["a"],
    "session_cookie_substrings":["a"],"version_headers":["server"],"comment_suspicious_words":["todo"],
    "comment_credential_words":["password"],"error_patterns":[{"id":"x","kind":"oops","title":"t","regex":"a"}]})";
  BOOST_CHECK_THROW(Data::parse(bad_kind), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(cookie_without_secure_fires_on_https_only) {
  auto fs = scan(kHttps, "<p>x</p>", {{"set-cookie", "lang=ru; Path=/; SameSite=Lax"}});
  const auto* f = find(fs, "cookie-without-secure");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.at(0).exchange.has_value());  // header-based: the exchange is the evidence
  BOOST_TEST(f->evidence.at(0).excerpt.find("Set-Cookie: lang=ru") == 0u);
  BOOST_TEST(f->owasp == "A05:2021");
  BOOST_TEST(f->cwe == 614);
  BOOST_TEST(!has(scan(kHttp, "<p>x</p>", {{"set-cookie", "lang=ru; Path=/; SameSite=Lax"}}), "cookie-without-secure"));
  BOOST_TEST(
      !has(scan(kHttps, "<p>x</p>", {{"set-cookie", "lang=ru; Secure; SameSite=Lax"}}), "cookie-without-secure"));
  // A deletion is not a cookie to protect.
  BOOST_TEST(!has(scan(kHttps, "<p>x</p>", {{"set-cookie", "lang=; Max-Age=0"}}), "cookie-without-secure"));
}

BOOST_AUTO_TEST_CASE(httponly_is_required_of_session_like_cookies_only) {
  auto fs = scan(kHttps, "<p>x</p>", {{"set-cookie", "PHPSESSID=abcdef123456; Secure; SameSite=Lax"}});
  const auto* f = find(fs, "cookie-without-httponly");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.at(0).excerpt.find("abcdef123456") == std::string::npos);  // the value is masked
  BOOST_TEST(
      !has(scan(kHttps, "<p>x</p>", {{"set-cookie", "theme=dark; Secure; SameSite=Lax"}}), "cookie-without-httponly"));
  BOOST_TEST(!has(scan(kHttps, "<p>x</p>", {{"set-cookie", "sessionid=1; Secure; HttpOnly; SameSite=Lax"}}),
                  "cookie-without-httponly"));
  // Double-submit CSRF tokens are read by scripts on purpose.
  BOOST_TEST(!has(scan(kHttps, "<p>x</p>", {{"set-cookie", "XSRF-TOKEN=1; Secure; SameSite=Lax"}}),
                  "cookie-without-httponly"));
}

BOOST_AUTO_TEST_CASE(samesite_missing_invalid_or_none_without_secure_fires) {
  BOOST_TEST(has(scan(kHttps, "<p>x</p>", {{"set-cookie", "a=1; Secure"}}), "cookie-without-samesite"));
  BOOST_TEST(
      has(scan(kHttps, "<p>x</p>", {{"set-cookie", "a=1; Secure; SameSite=Sometimes"}}), "cookie-without-samesite"));
  BOOST_TEST(has(scan(kHttp, "<p>x</p>", {{"set-cookie", "a=1; SameSite=None"}}), "cookie-without-samesite"));
  BOOST_TEST(!has(scan(kHttps, "<p>x</p>", {{"set-cookie", "a=1; Secure; SameSite=None"}}), "cookie-without-samesite"));
  BOOST_TEST(
      !has(scan(kHttps, "<p>x</p>", {{"set-cookie", "a=1; Secure; samesite=strict"}}), "cookie-without-samesite"));
}

BOOST_AUTO_TEST_CASE(mixed_content_is_active_for_scripts_styles_frames_and_passive_for_images) {
  auto fs = scan(kHttps,
                 "<script src='http://cdn.test/a.js'></script><link rel=stylesheet href='http://cdn.test/a.css'>"
                 "<iframe src='http://x.test/f'></iframe><img src='http://img.test/p.png'>");
  const auto* active = find(fs, "mixed-content-active");
  BOOST_REQUIRE(active);
  BOOST_TEST(active->evidence.size() == 3u);
  BOOST_TEST((active->severity == Severity::Medium));
  BOOST_TEST(active->evidence[0].excerpt.find("http://cdn.test/a.js") != std::string::npos);
  const auto* passive = find(fs, "mixed-content-passive");
  BOOST_REQUIRE(passive);
  BOOST_TEST((passive->severity == Severity::Low));
  // The same page over HTTP has nothing mixed; HTTPS and relative references are fine.
  BOOST_TEST(!has(scan(kHttp, "<script src='http://cdn.test/a.js'></script>"), "mixed-content-active"));
  auto clean =
      scan(kHttps, "<script src='/a.js'></script><img src='https://img.test/p.png'><a href='http://x.test/'>x</a>");
  BOOST_TEST(!has(clean, "mixed-content-active"));
  BOOST_TEST(!has(clean, "mixed-content-passive"));
}

BOOST_AUTO_TEST_CASE(password_forms_over_http_are_high_and_other_posts_medium) {
  auto login = scan(kHttp,
                    "<form method=post action=/login><input name=csrf type=hidden>"
                    "<input name=pass type=password></form>");
  const auto* f = find(login, "form-password-over-http");
  BOOST_REQUIRE(f);
  BOOST_TEST((f->severity == Severity::High));
  BOOST_TEST(f->owasp == "A02:2021");
  auto to_http = scan(kHttps,
                      "<form method=post action='http://site.test/send'><input name=_token type=hidden>"
                      "<input name=msg></form>");
  BOOST_TEST(has(to_http, "form-posted-over-http"));
  BOOST_TEST(!has(to_http, "form-password-over-http"));
  auto fine = scan(kHttps,
                   "<form method=post action=/login><input name=csrf type=hidden>"
                   "<input name=pass type=password></form>");
  BOOST_TEST(!has(fine, "form-password-over-http"));
  BOOST_TEST(!has(fine, "form-posted-over-http"));
  // A search box (GET) on an HTTP site is not reported.
  BOOST_TEST(!has(scan(kHttp, "<form action=/search><input name=q></form>"), "form-posted-over-http"));
}

BOOST_AUTO_TEST_CASE(state_changing_forms_need_a_known_anti_csrf_token) {
  auto fs = scan(kHttps, "<form method=post action=/order><input name=qty></form>");
  const auto* f = find(fs, "csrf-token-missing");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->cwe == 352);
  BOOST_TEST(f->confidence == "tentative");
  for (const char* name : {"csrfmiddlewaretoken", "authenticity_token", "_token", "sessid",
                           "__RequestVerificationToken", "my_csrf_field"}) {
    std::string html = std::string("<form method=post action=/order><input type=hidden name=") + name +
                       " value=1><input name=qty></form>";
    BOOST_TEST(!has(scan(kHttps, html), "csrf-token-missing"), name);
  }
  // GET forms change nothing; a token in <meta> is used by scripts (Rails, Laravel).
  BOOST_TEST(!has(scan(kHttps, "<form action=/search><input name=q></form>"), "csrf-token-missing"));
  BOOST_TEST(!has(scan(kHttps, "<meta name=csrf-token content=abc><form method=post><input name=q></form>"),
                  "csrf-token-missing"));
  // A login form (password) counts even when it posts by GET.
  BOOST_TEST(has(scan(kHttps, "<form><input name=u><input type=password name=p></form>"), "csrf-token-missing"));
}

BOOST_AUTO_TEST_CASE(error_messages_and_debug_pages_are_disclosures) {
  auto php = scan(kHttps,
                  "<p><b>Warning</b>:  mysql_connect(): Access denied in <b>/var/www/db.php</b> on line <b>12</b></p>");
  const auto* f = find(php, "error-disclosure");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.at(0).excerpt.find("/var/www/db.php") != std::string::npos);
  BOOST_TEST(
      has(scan(kHttps, "<pre>You have an error in your SQL syntax; check the manual</pre>"), "error-disclosure"));
  BOOST_TEST(has(scan(kHttps, "<pre>Traceback (most recent call last):\n  File \"app.py\"</pre>"), "error-disclosure"));
  BOOST_TEST(has(scan(kHttps, "<pre>java.lang.NullPointerException\n\tat com.shop.Cart.add(Cart.java:42)</pre>"),
                 "error-disclosure"));
  BOOST_TEST(has(scan(kHttps, "<p>Fatal error: Uncaught Error in /srv/index.php on line 3</p>"), "error-disclosure"));
  // Non-2xx pages have no HTML for the rules: the exchange's excerpt is read, and is the evidence.
  auto err500 = scan(kHttps, "<h1>Server Error in '/' Application.</h1><b> Stack Trace: </b>", {}, 500);
  const auto* dbg = find(err500, "debug-page-disclosure");
  BOOST_REQUIRE(dbg);
  BOOST_TEST((dbg->severity == Severity::High));
  BOOST_TEST(dbg->evidence.at(0).exchange.has_value());
  BOOST_TEST(has(scan(kHttps, "<p>You're seeing this error because you have <code>DEBUG = True</code> in your</p>"),
                 "debug-page-disclosure"));
  BOOST_TEST(has(scan(kHttps, "<title>Whoops, looks like something went wrong.</title>"), "debug-page-disclosure"));
  auto clean = scan(kHttps, "<p>Warning: this product contains nuts. Our SQL course starts Monday.</p>");
  BOOST_TEST(!has(clean, "error-disclosure"));
  BOOST_TEST(!has(clean, "debug-page-disclosure"));
}

BOOST_AUTO_TEST_CASE(version_banners_need_a_version) {
  auto fs =
      scan(kHttps, "<p>x</p>",
           {{"server", "Apache/2.4.41 (Ubuntu)"}, {"x-powered-by", "PHP/7.4.3"}, {"x-aspnet-version", "4.0.30319"}});
  const auto* f = find(fs, "version-disclosure");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.size() == 3u);
  BOOST_TEST(f->evidence[0].excerpt == "server: Apache/2.4.41 (Ubuntu)");
  BOOST_TEST(f->evidence[0].exchange.has_value());
  BOOST_TEST(!has(scan(kHttps, "<p>x</p>", {{"server", "nginx"}, {"x-powered-by", "Express"}}), "version-disclosure"));
}

BOOST_AUTO_TEST_CASE(private_addresses_in_pages_and_headers_are_reported_once_each) {
  auto fs = scan(kHttps, "<p>backend at 10.0.12.7:8080, db 192.168.1.20 and again 10.0.12.7</p>",
                 {{"x-backend", "172.20.3.4"}});
  const auto* f = find(fs, "private-ip-disclosure");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.size() == 3u);
  // Public, loopback, out-of-range octets and dotted version numbers are not private addresses.
  auto clean = scan(kHttps, "<p>8.8.8.8 127.0.0.1 172.32.0.1 192.169.0.1 10.0.0.256 v1.10.0.0.1 jquery 10.1.2</p>");
  BOOST_TEST(!has(clean, "private-ip-disclosure"));
  // The audited host itself is not a disclosure.
  BOOST_TEST(!has(scan("https://10.1.1.1/", "<p>see https://10.1.1.1/login</p>"), "private-ip-disclosure"));
}

BOOST_AUTO_TEST_CASE(comments_with_credentials_are_low_and_todos_info) {
  auto fs = scan(kHttps, "<!-- admin password: hunter2 --><!-- TODO: remove the old menu --><!-- main menu -->");
  const auto* cred = find(fs, "comment-credentials");
  BOOST_REQUIRE(cred);
  BOOST_TEST((cred->severity == Severity::Low));
  BOOST_TEST(cred->evidence.at(0).excerpt.find("hunter2") != std::string::npos);
  const auto* todo = find(fs, "suspicious-comment");
  BOOST_REQUIRE(todo);
  BOOST_TEST((todo->severity == Severity::Info));
  BOOST_TEST(todo->evidence.size() == 1u);  // "main menu" is an ordinary comment
  BOOST_TEST(has(scan(kHttps, "<!-- пароль от админки в вики -->"), "comment-credentials"));
  auto clean =
      scan(kHttps, "<!-- header --><!--[if lt IE 9]><script src=x.js></script><![endif]--><!-- todos-list -->");
  BOOST_TEST(!has(clean, "comment-credentials"));
  BOOST_TEST(!has(clean, "suspicious-comment"));
}

BOOST_AUTO_TEST_CASE(reverse_tabnabbing_is_info_for_external_blank_links_without_noopener) {
  auto fs = scan(kHttps, "<a href='https://other.test/' target=_blank>o</a>");
  const auto* f = find(fs, "reverse-tabnabbing");
  BOOST_REQUIRE(f);
  BOOST_TEST((f->severity == Severity::Info));
  BOOST_TEST(
      !has(scan(kHttps, "<a href='https://other.test/' target=_blank rel='noopener'>o</a>"), "reverse-tabnabbing"));
  BOOST_TEST(!has(scan(kHttps, "<a href='https://other.test/' target=_blank rel='nofollow noreferrer'>o</a>"),
                  "reverse-tabnabbing"));
  BOOST_TEST(!has(scan(kHttps, "<a href='/inside' target=_blank>o</a>"), "reverse-tabnabbing"));
  BOOST_TEST(!has(scan(kHttps, "<a href='https://other.test/'>o</a>"), "reverse-tabnabbing"));
}

BOOST_AUTO_TEST_CASE(cross_origin_scripts_and_styles_need_integrity) {
  auto fs = scan(kHttps,
                 "<script src='https://code.jquery.test/jquery-3.7.1.min.js'></script>"
                 "<link rel=stylesheet href='https://cdn.test/b.css'>");
  const auto* f = find(fs, "sri-missing");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->evidence.size() == 2u);
  BOOST_TEST(f->owasp == "A08:2021");
  auto clean = scan(kHttps,
                    "<script src='/app.js'></script><script src='https://cdn.test/a.js' integrity='sha384-x'>"
                    "</script><link rel=stylesheet href='/s.css'><script>inline()</script>");
  BOOST_TEST(!has(clean, "sri-missing"));
}

BOOST_AUTO_TEST_CASE(one_finding_per_rule_with_at_most_n_evidence_records) {
  std::string html;
  for (std::size_t i = 0; i < limits::kPassiveEvidencePerFinding + 1; ++i)
    html += "<script src='https://cdn" + std::to_string(i) + ".test/a.js'></script>";
  auto fs = scan(kHttps, html);
  BOOST_TEST(std::count_if(fs.begin(), fs.end(), [](const Finding& f) { return f.check == "sri-missing"; }) == 1);
  BOOST_TEST(find(fs, "sri-missing")->evidence.size() == limits::kPassiveEvidencePerFinding);
  // N exactly: all kept.
  html.clear();
  for (std::size_t i = 0; i < limits::kPassiveEvidencePerFinding; ++i)
    html += "<script src='https://cdn" + std::to_string(i) + ".test/a.js'></script>";
  BOOST_TEST(find(scan(kHttps, html), "sri-missing")->evidence.size() == limits::kPassiveEvidencePerFinding);
}

BOOST_AUTO_TEST_CASE(a_plain_well_made_page_has_no_findings) {
  auto fs = scan(kHttps,
                 "<!doctype html><html><head><title>Shop</title><link rel=stylesheet href=/s.css></head><body>"
                 "<form action=/search><input name=q></form><a href=/about>About</a>"
                 "<form method=post action=/cart><input type=hidden name=csrf_token value=z><input name=qty></form>"
                 "</body></html>",
                 {{"set-cookie", "__Host-sid=abc; Path=/; Secure; HttpOnly; SameSite=Lax"}, {"server", "nginx"}});
  BOOST_TEST(fs.empty());
}

BOOST_AUTO_TEST_SUITE_END()
