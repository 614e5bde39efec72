#include "engines/audit/headers/observatory.hpp"

#include <boost/test/unit_test.hpp>
#include <stdexcept>

#include "engines/audit/headers/csp.hpp"

using namespace dozor::audit::headers;
using dozor::net::HeaderField;

namespace {

// A site that gets everything right except what a test changes: https, verified, redirected
// from http, HTML without scripts.
Retrievals site(std::vector<HeaderField> headers, std::string body = "<html><body>hi</body></html>") {
  Retrievals r;
  r.hostname = "example.com";
  r.session_url = "https://example.com/";
  Response a;
  a.url = "https://example.com/";
  a.status = 200;
  a.headers = std::move(headers);
  a.headers.push_back({"content-type", "text/html; charset=utf-8"});
  a.body = std::move(body);
  r.auto_ = a;
  r.https = a;
  Response h = a;
  r.http = h;
  r.http_route = {"http://example.com/", "https://example.com/"};
  r.cors_origin = "https://audit.dozor.invalid";
  return r;
}

const std::vector<HeaderField> kBest = {
    {"content-security-policy", "default-src 'none'; frame-ancestors 'none'; form-action 'self'"},
    {"strict-transport-security", "max-age=63072000"},
    {"x-content-type-options", "nosniff"},
    {"referrer-policy", "no-referrer"},
    {"cross-origin-resource-policy", "same-origin"},
};

std::vector<HeaderField> best_with(const std::string& name, const std::string& value) {
  std::vector<HeaderField> h;
  for (const auto& f : kBest)
    if (f.name != name) h.push_back(f);
  if (!value.empty()) h.push_back({name, value});
  return h;
}

std::string csp_result(const std::string& policy, const std::string& body = "") {
  auto r = body.empty() ? site(best_with("content-security-policy", policy))
                        : site(best_with("content-security-policy", policy), body);
  return test_csp(r).result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(observatory)

BOOST_AUTO_TEST_CASE(grade_bands_follow_observatory) {
  const std::pair<int, const char*> cases[] = {{135, "A+"}, {100, "A+"}, {99, "A"},  {95, "A"}, {90, "A"}, {89, "A-"},
                                               {85, "A-"},  {84, "B+"},  {80, "B+"}, {79, "B"}, {70, "B"}, {69, "B-"},
                                               {65, "B-"},  {64, "C+"},  {60, "C+"}, {59, "C"}, {50, "C"}, {49, "C-"},
                                               {45, "C-"},  {44, "D+"},  {40, "D+"}, {39, "D"}, {30, "D"}, {29, "D-"},
                                               {25, "D-"},  {24, "F"},   {0, "F"},   {-40, "F"}};
  for (const auto& [score, grade] : cases) BOOST_TEST(grade_for_score(score) == grade, "score " << score);
}

BOOST_AUTO_TEST_CASE(the_best_site_scores_above_one_hundred) {
  auto g = grade(site(kBest));
  // csp +10, cookies 0, cors 0, redirection 0, referrer +5, hsts 0, sri 0, xcto 0, xfo +5 (via CSP), corp +10
  BOOST_TEST(g.score == 130);
  BOOST_TEST(g.grade == "A+");
  BOOST_TEST(g.tests.size() == 10u);
  BOOST_TEST(g.tests_passed == 10);
  BOOST_TEST(g.tests[0].name == "content-security-policy");
  BOOST_TEST(g.tests[9].name == "cross-origin-resource-policy");
}

BOOST_AUTO_TEST_CASE(bonuses_count_only_when_penalties_leave_ninety) {
  // No Referrer-Policy (0) and X-Content-Type-Options missing (-5): 95 uncurved, bonuses count.
  auto a = grade(site(best_with("x-content-type-options", "")));
  BOOST_TEST(a.score == 125);
  // Penalties of 15 leave 85: the bonuses (+25) do not count.
  auto h = best_with("x-content-type-options", "");
  h = [&] {
    std::vector<HeaderField> out;
    for (auto& f : h)
      if (f.name != "strict-transport-security") out.push_back(f);
    out.push_back({"strict-transport-security", "max-age=300"});
    return out;
  }();
  auto b = grade(site(h));
  BOOST_TEST(b.score == 85);  // 100 - 5 (xcto) - 10 (hsts short)
  BOOST_TEST(b.grade == "A-");
}

BOOST_AUTO_TEST_CASE(an_empty_site_gets_observatorys_floor) {
  Retrievals r = site({});
  r.http_route = {"http://example.com/"};  // no redirect
  auto g = grade(r);
  // csp -25, redirection -20, hsts -20, xcto -5, xfo -20 = 30
  BOOST_TEST(g.score == 10);
  BOOST_TEST(g.grade == "F");
}

BOOST_AUTO_TEST_CASE(csp_outcomes) {
  BOOST_TEST(csp_result("default-src 'none'") == "csp-implemented-with-no-unsafe-default-src-none");
  BOOST_TEST(csp_result("default-src 'self'") == "csp-implemented-with-no-unsafe");
  BOOST_TEST(csp_result("default-src 'self'; style-src 'self' 'unsafe-inline'") ==
             "csp-implemented-with-unsafe-inline-in-style-src-only");
  BOOST_TEST(csp_result("default-src 'self'; img-src http://cdn.example.com") ==
             "csp-implemented-with-insecure-scheme-in-passive-content-only");
  BOOST_TEST(csp_result("default-src 'self'; script-src 'self' 'unsafe-eval'") == "csp-implemented-with-unsafe-eval");
  BOOST_TEST(csp_result("default-src 'self'; script-src 'self' 'unsafe-inline'") ==
             "csp-implemented-with-unsafe-inline");
  BOOST_TEST(csp_result("default-src 'self'; script-src 'self' data:") == "csp-implemented-with-unsafe-inline");
  BOOST_TEST(csp_result("default-src 'self'; script-src https:") == "csp-implemented-with-unsafe-inline");
  BOOST_TEST(csp_result("default-src 'self'; object-src *") == "csp-implemented-with-unsafe-inline");
  BOOST_TEST(csp_result("script-src 'self'") == "csp-implemented-with-unsafe-inline");  // object-src unrestricted
  BOOST_TEST(csp_result("default-src 'self'; connect-src http://api.example.com") ==
             "csp-implemented-with-insecure-scheme");
  BOOST_TEST(csp_result("default-src 'self'; default-src 'none'") == "csp-header-invalid");
  BOOST_TEST(csp_result("x") == "csp-header-invalid");
  BOOST_TEST(csp_result("default-src 'self'; script-src 'strict-dynamic'") == "csp-header-invalid");
  BOOST_TEST(csp_result("") == "csp-not-implemented");
  BOOST_TEST(csp_result("default-src 'none'; report-uri /a; report-uri /b") ==
             "csp-implemented-but-duplicate-directives");
  BOOST_TEST(modifier_of("csp-implemented-but-duplicate-directives") == 0);
}

BOOST_AUTO_TEST_CASE(a_nonce_cancels_unsafe_inline_and_strict_dynamic_drops_broad_sources) {
  BOOST_TEST(csp_result("default-src 'none'; script-src 'nonce-abc' 'unsafe-inline'; object-src 'none'") ==
             "csp-implemented-with-no-unsafe-default-src-none");
  BOOST_TEST(csp_result("object-src 'none'; script-src 'nonce-abc' 'strict-dynamic' https: 'unsafe-inline'; "
                        "default-src 'self'") == "csp-implemented-with-no-unsafe");
}

BOOST_AUTO_TEST_CASE(report_only_is_not_a_policy) {
  auto r = site(best_with("content-security-policy", ""));
  r.auto_->headers.push_back({"content-security-policy-report-only", "default-src 'none'"});
  auto t = test_csp(r);
  BOOST_TEST(t.result == "csp-not-implemented-but-reporting-enabled");
  BOOST_TEST(t.score_modifier == -25);
  BOOST_TEST(!t.pass);
}

BOOST_AUTO_TEST_CASE(meta_http_equiv_policies_count) {
  auto r = site(best_with("content-security-policy", ""),
                "<html><head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">"
                "<meta name=\"referrer\" content=\"unsafe-url\"></head></html>");
  BOOST_TEST(test_csp(r).result == "csp-implemented-with-no-unsafe-default-src-none");
  // The header says no-referrer, the meta unsafe-url: the meta comes last and wins.
  BOOST_TEST(test_referrer_policy(r).result == "referrer-policy-unsafe");
  // frame-ancestors does not apply in a meta policy, but Observatory's XFO test reads the combined one.
  auto m = site(
      {}, "<html><head><meta http-equiv=\"content-security-policy\" content=\"frame-ancestors 'none'\"></head></html>");
  BOOST_TEST(test_csp(m).result == "csp-not-implemented");
}

BOOST_AUTO_TEST_CASE(csp_parsing_follows_observatory) {
  auto c = parse_csp({"Default-Src 'SELF' https://a.example.com https://a.example.com/x; img-src"});
  BOOST_TEST(c.get("default-src")->count("'self'") == 1u);
  BOOST_TEST(c.get("default-src")->count("https://a.example.com/x") == 0u);  // superfluous after its prefix
  BOOST_TEST(*c.get("img-src") == std::set<std::string>{"'none'"});
  BOOST_CHECK_THROW(parse_csp({"script-src a; script-src b"}), std::invalid_argument);
  BOOST_CHECK_THROW(parse_csp({"a"}), std::invalid_argument);
  // Two policies keep what both allow.
  auto two = parse_csp({"script-src 'self' https://a.example.com; object-src 'none'", "script-src 'self'"});
  BOOST_TEST(*two.get("script-src") == std::set<std::string>{"'self'"});
  BOOST_TEST(*two.get("object-src") == std::set<std::string>{"'none'"});
  auto meta = parse_csp_meta({"default-src 'self'; frame-ancestors 'none'; sandbox"});
  BOOST_TEST(!meta.get("frame-ancestors"));
  BOOST_TEST(!meta.get("sandbox"));
}

BOOST_AUTO_TEST_CASE(cookie_outcomes) {
  auto result = [](std::vector<std::string> cookies, bool hsts = true) {
    auto r = site(hsts ? kBest : best_with("strict-transport-security", ""));
    r.set_cookies = std::move(cookies);
    return test_cookies(r);
  };
  BOOST_TEST(result({}).result == "cookies-not-found");
  BOOST_TEST(result({"a=1; Secure; SameSite=Lax"}).result == "cookies-secure-with-httponly-sessions-and-samesite");
  BOOST_TEST(result({"a=1; Secure; SameSite=Lax"}).score_modifier == 5);
  BOOST_TEST(result({"a=1; Secure"}).result == "cookies-secure-with-httponly-sessions");
  BOOST_TEST(result({"a=1; SameSite=Lax"}).result == "cookies-without-secure-flag-but-protected-by-hsts");
  BOOST_TEST(result({"a=1; SameSite=Lax"}, false).result == "cookies-without-secure-flag");
  BOOST_TEST(result({"sessionid=1; HttpOnly; SameSite=Lax"}).result ==
             "cookies-session-without-secure-flag-but-protected-by-hsts");
  BOOST_TEST(result({"sessionid=1; HttpOnly; SameSite=Lax"}, false).result == "cookies-session-without-secure-flag");
  BOOST_TEST(result({"sessionid=1; Secure; SameSite=Lax"}).result == "cookies-session-without-httponly-flag");
  BOOST_TEST(result({"csrftoken=1; Secure"}).result == "cookies-anticsrf-without-samesite-flag");
  BOOST_TEST(result({"a=1; Secure; SameSite=None"}).result == "cookies-secure-with-httponly-sessions-and-samesite");
  BOOST_TEST(result({"a=1; SameSite=None"}).result == "cookies-samesite-flag-invalid");
  BOOST_TEST(result({"heroku-session-affinity=1"}).result == "cookies-not-found");
  // The worst outcome wins.
  BOOST_TEST(result({"a=1; SameSite=Lax", "login=1; Secure"}).result == "cookies-session-without-httponly-flag");
  BOOST_TEST(result({"login=1", "a=1"}, false).score_modifier == -40);
}

BOOST_AUTO_TEST_CASE(an_invalid_samesite_in_the_page_answer_is_caught) {
  auto r = site(kBest);
  r.auto_->headers.push_back({"set-cookie", "a=1; Secure; SameSite=Bogus"});
  r.set_cookies = {"a=1; Secure; SameSite=Bogus"};
  BOOST_TEST(test_cookies(r).result == "cookies-samesite-flag-invalid");
}

BOOST_AUTO_TEST_CASE(cors_outcomes) {
  auto with = [](std::vector<HeaderField> h) {
    auto r = site(kBest);
    Response c;
    c.status = 204;
    c.headers = std::move(h);
    r.cors = c;
    return test_cors(r);
  };
  BOOST_TEST(with({}).result == "cross-origin-resource-sharing-not-implemented");
  BOOST_TEST(with({{"access-control-allow-origin", "*"}}).result ==
             "cross-origin-resource-sharing-implemented-with-public-access");
  BOOST_TEST(with({{"access-control-allow-origin", "https://partner.example"}}).result ==
             "cross-origin-resource-sharing-implemented-with-restricted-access");
  auto universal = with(
      {{"access-control-allow-origin", "https://audit.dozor.invalid"}, {"access-control-allow-credentials", "true"}});
  BOOST_TEST(universal.result == "cross-origin-resource-sharing-implemented-with-universal-access");
  BOOST_TEST(universal.score_modifier == -50);
  BOOST_TEST(!universal.pass);
}

BOOST_AUTO_TEST_CASE(redirection_outcomes) {
  auto with = [](std::vector<std::string> route) {
    auto r = site(kBest);
    r.http_route = std::move(route);
    return test_redirection(r).result;
  };
  BOOST_TEST(with({"http://example.com/", "https://example.com/"}) == "redirection-to-https");
  BOOST_TEST(with({"http://example.com/"}) == "redirection-missing");
  BOOST_TEST(with({"http://example.com/", "http://www.example.com/"}) == "redirection-not-to-https");
  BOOST_TEST(with({"http://example.com/", "http://www.example.com/", "https://www.example.com/"}) ==
             "redirection-not-to-https-on-initial-redirection");
  BOOST_TEST(with({"http://example.com/", "https://www.example.com/"}) == "redirection-off-host-from-http");
  auto none = site(kBest);
  none.http.reset();
  BOOST_TEST(test_redirection(none).result == "redirection-not-needed-no-http");
  auto bad = site(kBest);
  bad.http->verified = false;
  BOOST_TEST(test_redirection(bad).result == "redirection-invalid-cert");
}

BOOST_AUTO_TEST_CASE(referrer_policy_outcomes) {
  auto with = [](const std::string& v) { return test_referrer_policy(site(best_with("referrer-policy", v))); };
  BOOST_TEST(with("strict-origin-when-cross-origin").result == "referrer-policy-private");
  BOOST_TEST(with("no-referrer-when-downgrade").result == "referrer-policy-unsafe");
  BOOST_TEST(with("bogus").result == "referrer-policy-header-invalid");
  BOOST_TEST(with("no-referrer, bogus").result == "referrer-policy-private");  // the last valid value
  BOOST_TEST(with("").result == "referrer-policy-not-implemented");
  BOOST_TEST(with("").pass);
}

BOOST_AUTO_TEST_CASE(hsts_outcomes) {
  auto with = [](const std::string& v) { return test_hsts(site(best_with("strict-transport-security", v))).result; };
  BOOST_TEST(with("max-age=15552000") == "hsts-implemented-max-age-at-least-six-months");
  BOOST_TEST(with("max-age=15551999; includeSubDomains") == "hsts-implemented-max-age-less-than-six-months");
  BOOST_TEST(with("includeSubDomains") == "hsts-header-invalid");
  BOOST_TEST(with("max-age=1, max-age=2") == "hsts-header-invalid");
  BOOST_TEST(with("") == "hsts-not-implemented");
  auto none = site(kBest);
  none.https.reset();
  BOOST_TEST(test_hsts(none).result == "hsts-not-implemented-no-https");
  auto bad = site(kBest);
  bad.https->verified = false;
  BOOST_TEST(test_hsts(bad).result == "hsts-invalid-cert");
}

BOOST_AUTO_TEST_CASE(sri_outcomes) {
  auto with = [](const std::string& scripts) {
    return test_sri(site(kBest, "<html><head>" + scripts + "</head></html>")).result;
  };
  BOOST_TEST(with("") == "sri-not-implemented-but-no-scripts-loaded");
  BOOST_TEST(with("<script src=\"/app.js\"></script>") ==
             "sri-not-implemented-but-all-scripts-loaded-from-secure-origin");
  BOOST_TEST(with("<script src=\"https://static.example.com/a.js\"></script>") ==
             "sri-not-implemented-but-all-scripts-loaded-from-secure-origin");
  BOOST_TEST(with("<script src=\"/app.js\" integrity=\"sha384-x\"></script>") ==
             "sri-implemented-and-all-scripts-loaded-securely");
  BOOST_TEST(with("<script src=\"https://cdn.other.org/a.js\" integrity=\"sha384-x\"></script>") ==
             "sri-implemented-and-external-scripts-loaded-securely");
  BOOST_TEST(with("<script src=\"https://cdn.other.org/a.js\"></script>") ==
             "sri-not-implemented-but-external-scripts-loaded-securely");
  BOOST_TEST(with("<script src=\"http://cdn.other.org/a.js\" integrity=\"sha384-x\"></script>") ==
             "sri-implemented-but-external-scripts-not-loaded-securely");
  BOOST_TEST(with("<script src=\"http://cdn.other.org/a.js\"></script>") ==
             "sri-not-implemented-and-external-scripts-not-loaded-securely");
  BOOST_TEST(with("<script src=\"//cdn.other.org/a.js\"></script>") ==
             "sri-not-implemented-and-external-scripts-not-loaded-securely");
  auto json = site(kBest);
  json.auto_->headers = {{"content-type", "application/json"}};
  BOOST_TEST(test_sri(json).result == "sri-not-implemented-response-not-html");
}

BOOST_AUTO_TEST_CASE(x_content_type_options_outcomes) {
  auto with = [](const std::string& v) {
    return test_x_content_type_options(site(best_with("x-content-type-options", v))).result;
  };
  BOOST_TEST(with("NoSniff") == "x-content-type-options-nosniff");
  BOOST_TEST(with("sniff") == "x-content-type-options-header-invalid");
  BOOST_TEST(with("") == "x-content-type-options-not-implemented");
}

BOOST_AUTO_TEST_CASE(x_frame_options_outcomes) {
  auto with = [](std::vector<HeaderField> h) { return test_x_frame_options(site(std::move(h))).result; };
  BOOST_TEST(with({{"x-frame-options", "DENY"}}) == "x-frame-options-sameorigin-or-deny");
  BOOST_TEST(with({{"x-frame-options", "allow-from https://a"}}) == "x-frame-options-allow-from-origin");
  BOOST_TEST(with({{"x-frame-options", "maybe"}}) == "x-frame-options-header-invalid");
  BOOST_TEST(with({}) == "x-frame-options-not-implemented");
  BOOST_TEST(with({{"content-security-policy", "default-src 'self'; frame-ancestors 'self'"}}) ==
             "x-frame-options-implemented-via-csp");
}

BOOST_AUTO_TEST_CASE(corp_outcomes) {
  auto with = [](const std::string& v) { return test_corp(site(best_with("cross-origin-resource-policy", v))); };
  BOOST_TEST(with("same-origin").result == "corp-implemented-with-same-origin");
  BOOST_TEST(with("same-site").score_modifier == 10);
  BOOST_TEST(with("cross-origin").result == "corp-implemented-with-cross-origin");
  BOOST_TEST(with("bogus").result == "corp-header-invalid");
  BOOST_TEST(with("bogus").score_modifier == -5);
  BOOST_TEST(with("").result == "corp-not-implemented");
}

BOOST_AUTO_TEST_CASE(advisories_are_not_scored) {
  auto h = kBest;
  h.push_back({"server", "nginx/1.22.1"});
  h.push_back({"x-powered-by", "PHP/8.2.7"});
  h.push_back({"cross-origin-opener-policy", "same-origin"});
  auto g = grade(site(h));
  BOOST_TEST(g.score == 130);
  auto find = [&](const std::string& name) {
    for (const auto& a : g.advisories)
      if (a.name == name) return a.status;
    return std::string("absent");
  };
  BOOST_TEST(find("server") == "disclosed");
  BOOST_TEST(find("x-powered-by") == "disclosed");
  BOOST_TEST(find("permissions-policy") == "missing");
  BOOST_TEST(find("cross-origin-opener-policy") == "ok");
  BOOST_TEST(find("cross-origin-embedder-policy") == "missing");
  auto plain = grade(site(std::vector<HeaderField>{{"server", "nginx"}}));
  for (const auto& a : plain.advisories)
    if (a.name == "server") BOOST_TEST(a.status == "ok");
}

BOOST_AUTO_TEST_SUITE_END()
