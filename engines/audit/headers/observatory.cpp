#include "engines/audit/headers/observatory.hpp"

#include <libpsl.h>

#include <algorithm>
#include <boost/url/parse.hpp>
#include <cctype>
#include <regex>
#include <stdexcept>

#include "engines/audit/headers/csp.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::headers {
namespace {

struct Outcome {
  const char* result;
  int modifier;
  const char* description;
  const char* recommendation;
};

// Observatory's score table (algorithm 4): outcome → modifier. Texts are ours.
const Outcome kOutcomes[] = {
    {"csp-implemented-with-no-unsafe-default-src-none", 10,
     "Content Security Policy implemented with default-src 'none' and no unsafe sources.", ""},
    {"csp-implemented-with-no-unsafe", 5,
     "Content Security Policy implemented without 'unsafe-inline' or 'unsafe-eval'.",
     "Set default-src to 'none' and allow each resource type explicitly."},
    {"csp-implemented-with-unsafe-inline-in-style-src-only", 0,
     "Content Security Policy implemented with unsafe sources inside style-src only.",
     "Lock down style-src: remove 'unsafe-inline', data: and broad sources."},
    {"csp-implemented-with-insecure-scheme-in-passive-content-only", -10,
     "Content Security Policy implemented, but images or media may load over HTTP.",
     "Load images and media over HTTPS and forbid http: in img-src, media-src and default-src."},
    {"csp-implemented-with-unsafe-eval", -10, "Content Security Policy implemented, but allows 'unsafe-eval'.",
     "Remove eval() from the code, then remove 'unsafe-eval' from the policy."},
    {"csp-implemented-with-unsafe-inline", -20,
     "Content Security Policy implemented unsafely: 'unsafe-inline' or data: in script-src, or overly broad "
     "sources in script-src or object-src, or those directives not restricted.",
     "Remove 'unsafe-inline' and data: from script-src and broad sources from script-src and object-src; set "
     "both directives."},
    {"csp-implemented-with-insecure-scheme", -20,
     "Content Security Policy implemented, but a secure site allows resources over HTTP.",
     "Load resources over HTTPS and remove http: sources from the policy."},
    {"csp-header-invalid", -25, "Content Security Policy header cannot be parsed.",
     "Fix the policy syntax (duplicate directives, 'strict-dynamic' without a nonce or hash, empty policy)."},
    {"csp-not-implemented", -25, "Content Security Policy header not implemented.",
     "Implement a Content-Security-Policy, starting from default-src 'none'."},
    {"csp-not-implemented-but-reporting-enabled", -25,
     "Content Security Policy reporting only (Content-Security-Policy-Report-Only).", "Enforce the policy."},
    {"csp-implemented-but-duplicate-directives", 0,
     "Content Security Policy implemented, but with duplicate directives.",
     "Remove duplicate directives from the policy."},
    {"cookies-secure-with-httponly-sessions-and-samesite", 5,
     "All cookies use Secure, session cookies use HttpOnly, and SameSite is set.", ""},
    {"cookies-secure-with-httponly-sessions", 0, "All cookies use Secure and session cookies use HttpOnly.",
     "Set SameSite on every cookie."},
    {"cookies-not-found", 0, "No cookies detected.", ""},
    {"cookies-without-secure-flag-but-protected-by-hsts", -5,
     "Cookies set without Secure, but HSTS prevents transmission over HTTP.", "Set the Secure flag."},
    {"cookies-session-without-secure-flag-but-protected-by-hsts", -10,
     "Session cookie set without Secure, but HSTS prevents transmission over HTTP.", "Set the Secure flag."},
    {"cookies-without-secure-flag", -20, "Cookies set without Secure or over HTTP.",
     "Set the Secure flag and deploy HSTS."},
    {"cookies-samesite-flag-invalid", -20,
     "Cookies use SameSite with a value other than Strict, Lax or None (with Secure).", "Use SameSite=Strict or Lax."},
    {"cookies-anticsrf-without-samesite-flag", -20, "Anti-CSRF token cookie set without SameSite.",
     "Use SameSite=Strict or Lax."},
    {"cookies-session-without-httponly-flag", -30, "Session cookie set without HttpOnly.", "Set the HttpOnly flag."},
    {"cookies-session-without-secure-flag", -40, "Session cookie set without Secure or over HTTP.",
     "Set the Secure flag and deploy HSTS."},
    {"cross-origin-resource-sharing-not-implemented", 0, "Content is not visible through CORS.", ""},
    {"cross-origin-resource-sharing-implemented-with-public-access", 0,
     "Public content is visible through Access-Control-Allow-Origin: *.", ""},
    {"cross-origin-resource-sharing-implemented-with-restricted-access", 0,
     "Content is visible through CORS, restricted to specific origins.", ""},
    {"cross-origin-resource-sharing-implemented-with-universal-access", -50,
     "Any origin is echoed with credentials allowed: other sites can read authenticated content.",
     "Allow credentials only for a fixed list of origins; never reflect the Origin header."},
    {"redirection-all-redirects-preloaded", 0, "Every host redirected to is on the HSTS preload list.", ""},
    {"redirection-to-https", 0, "HTTP redirects to HTTPS on the same host first.", ""},
    {"redirection-not-needed-no-http", 0, "Not available over HTTP.", ""},
    {"redirection-off-host-from-http", -5, "HTTP redirects to HTTPS on another host first.",
     "Redirect to HTTPS on the same host first, then to the other host (for HSTS)."},
    {"redirection-not-to-https-on-initial-redirection", -10, "HTTP redirects to HTTP first, then to HTTPS.",
     "Make the first redirect go to HTTPS."},
    {"redirection-not-to-https", -20, "HTTP redirects, but not to HTTPS.", "Redirect HTTP to HTTPS."},
    {"redirection-missing", -20, "HTTP does not redirect to HTTPS.", "Redirect HTTP to HTTPS."},
    {"redirection-invalid-cert", -20, "The redirect target's certificate is invalid.", "Use a valid certificate."},
    {"referrer-policy-private", 5,
     "Referrer-Policy set to no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.", ""},
    {"referrer-policy-not-implemented", 0, "Referrer-Policy not set.",
     "Set Referrer-Policy: strict-origin-when-cross-origin."},
    {"referrer-policy-unsafe", -5, "Referrer-Policy leaks the full URL or the origin over HTTP.",
     "Use strict-origin-when-cross-origin or stricter."},
    {"referrer-policy-header-invalid", -5, "Referrer-Policy cannot be recognised.",
     "Use a valid Referrer-Policy value."},
    {"hsts-preloaded", 5, "Preloaded via the HSTS preload list.", ""},
    {"hsts-implemented-max-age-at-least-six-months", 0, "HSTS implemented with max-age of at least six months.",
     "Consider includeSubDomains and preloading."},
    {"hsts-implemented-max-age-less-than-six-months", -10, "HSTS implemented with max-age under six months.",
     "Set max-age to at least 15552000 (six months)."},
    {"hsts-not-implemented", -20, "HSTS header not implemented.",
     "Send Strict-Transport-Security with max-age=63072000."},
    {"hsts-header-invalid", -20, "HSTS header cannot be parsed.", "Send one valid Strict-Transport-Security header."},
    {"hsts-not-implemented-no-https", -20, "HSTS header cannot be set: the site is not available over HTTPS.",
     "Serve the site over HTTPS."},
    {"hsts-invalid-cert", -20, "HSTS header cannot be honoured: the certificate is invalid.",
     "Use a valid certificate."},
    {"sri-implemented-and-all-scripts-loaded-securely", 5, "Subresource Integrity used on scripts loaded securely.",
     ""},
    {"sri-implemented-and-external-scripts-loaded-securely", 5,
     "Subresource Integrity used and external scripts loaded securely.", ""},
    {"sri-not-implemented-response-not-html", 0, "Not an HTML answer: Subresource Integrity does not apply.", ""},
    {"sri-not-implemented-but-no-scripts-loaded", 0, "No scripts loaded.", ""},
    {"sri-not-implemented-but-all-scripts-loaded-from-secure-origin", 0,
     "Subresource Integrity not used, but all scripts come from the same site.", ""},
    {"sri-not-implemented-but-external-scripts-loaded-securely", -5,
     "Subresource Integrity not used on external scripts loaded over HTTPS.",
     "Add integrity and crossorigin attributes to external scripts."},
    {"sri-implemented-but-external-scripts-not-loaded-securely", -20,
     "Subresource Integrity used, but external scripts load over HTTP.", "Load external scripts over HTTPS."},
    {"sri-not-implemented-and-external-scripts-not-loaded-securely", -50,
     "External scripts load over HTTP without Subresource Integrity.",
     "Load external scripts over HTTPS with integrity attributes."},
    {"html-not-parseable", -20, "The HTML cannot be parsed.", "Serve well-formed HTML."},
    {"x-content-type-options-nosniff", 0, "X-Content-Type-Options set to nosniff.", ""},
    {"x-content-type-options-not-implemented", -5, "X-Content-Type-Options not set.",
     "Send X-Content-Type-Options: nosniff."},
    {"x-content-type-options-header-invalid", -5, "X-Content-Type-Options has an invalid value.",
     "Send X-Content-Type-Options: nosniff."},
    {"x-frame-options-implemented-via-csp", 5, "Framing controlled by the CSP frame-ancestors directive.", ""},
    {"x-frame-options-sameorigin-or-deny", 0, "X-Frame-Options set to DENY or SAMEORIGIN.",
     "Use CSP frame-ancestors as well."},
    {"x-frame-options-allow-from-origin", 0, "X-Frame-Options uses ALLOW-FROM.", "Use CSP frame-ancestors instead."},
    {"x-frame-options-not-implemented", -20, "X-Frame-Options not set.",
     "Send CSP frame-ancestors 'none' (or X-Frame-Options: DENY)."},
    {"x-frame-options-header-invalid", -20, "X-Frame-Options has an invalid value.",
     "Send CSP frame-ancestors 'none' (or X-Frame-Options: DENY)."},
    {"corp-header-invalid", -5, "Cross-Origin-Resource-Policy has an invalid value.",
     "Use same-origin, same-site or cross-origin."},
    {"corp-implemented-with-cross-origin", 0, "Cross-Origin-Resource-Policy set to cross-origin.",
     "Use same-origin or same-site unless resources must be embedded elsewhere."},
    {"corp-implemented-with-same-origin", 10, "Cross-Origin-Resource-Policy set to same-origin.", ""},
    {"corp-implemented-with-same-site", 10, "Cross-Origin-Resource-Policy set to same-site.", ""},
    {"corp-not-implemented", 0, "Cross-Origin-Resource-Policy not set.",
     "Send Cross-Origin-Resource-Policy: same-origin."},
};

const Outcome* outcome(const std::string& result) {
  for (const auto& o : kOutcomes)
    if (result == o.result) return &o;
  return nullptr;
}

TestResult make(const char* name, const std::string& result, bool pass) {
  TestResult t;
  t.name = name;
  t.result = result;
  t.pass = pass;
  if (const Outcome* o = outcome(result)) {
    t.score_modifier = o->modifier;
    t.description = o->description;
    t.recommendation = o->recommendation;
  }
  return t;
}

bool in(const std::string& v, std::initializer_list<const char*> set) {
  return std::any_of(set.begin(), set.end(), [&](const char* s) { return v == s; });
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trim(std::string_view v) {
  auto b = v.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  auto e = v.find_last_not_of(" \t\r\n\f\v");
  return std::string(v.substr(b, e - b + 1));
}

// Header values the way the Node client Observatory uses presents them: fields of one name
// joined by ", " (Set-Cookie excepted, which stays a list).
std::optional<std::string> joined(const Response& r, std::string_view name) {
  std::optional<std::string> out;
  for (const auto& f : r.headers) {
    if (f.name != name) continue;
    if (out)
      *out += ", " + f.value;
    else
      out = f.value;
  }
  return out;
}

bool is_https(std::string_view url) { return lower(url.substr(0, std::min<std::size_t>(url.size(), 6))) == "https:"; }

bool is_html(const Response& r) {
  auto ct = joined(r, "content-type").value_or("");
  auto mime = ct.substr(0, ct.find(';'));  // as Observatory: no trimming, no lower-casing
  return mime == "text/html" || mime == "application/xhtml+xml";
}

struct HttpEquiv {
  std::vector<std::string> csp;
  std::optional<std::string> referrer;
};

// Observatory reads two "http-equiv" values from the page: CSP metas and <meta name=referrer>.
HttpEquiv http_equiv_of(const Response& r) {
  HttpEquiv h;
  if (!is_html(r) || r.body.empty()) return h;
  auto facts = crawl::extract_html(r.body, r.url);
  for (const auto& m : facts.http_equiv)
    if (m.name == "content-security-policy" && !m.content.empty()) h.csp.push_back(m.content);
  for (const auto& m : facts.meta)
    if (m.name == "referrer" && !m.content.empty()) h.referrer = m.content;
  return h;
}

const std::set<std::string>& broad_sources() {
  static const std::set<std::string> set = {"ftp:",     "http:",      "https:",    "*",
                                            "http://*", "http://*.*", "https://*", "https://*.*"};
  return set;
}

bool broad_or_inline(const std::string& s) {
  return broad_sources().count(s) || s == "'unsafe-inline'" || s == "data:";
}

bool starts_with_nonce_or_hash(const std::set<std::string>& sources) {
  return std::any_of(sources.begin(), sources.end(), [](const std::string& s) {
    for (const char* p : {"'sha256-", "'sha384-", "'sha512-", "'nonce-"})
      if (s.rfind(p, 0) == 0) return true;
    return false;
  });
}

struct CspAnalysis {
  TestResult result;
  std::optional<Csp> parsed;  // the combined policy when it was analysed (Observatory's `data`)
};

CspAnalysis analyse_csp(const Retrievals& r) {
  const char* kName = "content-security-policy";
  CspAnalysis a;
  if (!r.auto_) {
    a.result = make(kName, "csp-not-implemented", false);
    return a;
  }
  const Response& resp = *r.auto_;
  std::vector<std::string> http;
  if (auto v = joined(resp, "content-security-policy")) http.push_back(*v);
  auto equiv = http_equiv_of(resp).csp;
  std::vector<std::string> all = http;
  all.insert(all.end(), equiv.begin(), equiv.end());

  Csp csp;
  try {
    csp = parse_csp(all);
  } catch (const std::invalid_argument&) {
    a.result = make(kName, "csp-header-invalid", false);
    return a;
  }
  Csp http_only, meta;
  try {
    http_only = parse_csp(http);
  } catch (const std::invalid_argument&) {
  }
  try {
    meta = parse_csp_meta(equiv);
  } catch (const std::invalid_argument&) {
  }
  if (http_only.directives.size() + meta.directives.size() == 0) {
    bool report_only = joined(resp, "content-security-policy-report-only").has_value();
    a.result = make(kName, report_only ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented", false);
    return a;
  }

  std::optional<std::string> result;
  auto pick = [&](const char* r1, const char* r2) {
    auto s = csp.get(r1);
    if (!s && r2) s = csp.get(r2);
    return s ? s : std::make_shared<std::set<std::string>>(std::set<std::string>{"*"});
  };
  auto object_src = pick("object-src", "default-src");
  auto script_src = pick("script-src", "default-src");
  auto style_src = pick("style-src", "default-src");
  for (auto* list : {&script_src, &style_src})
    if (starts_with_nonce_or_hash(**list) && (*list)->count("'unsafe-inline'")) (*list)->erase("'unsafe-inline'");

  if (starts_with_nonce_or_hash(*script_src) && script_src->count("'strict-dynamic'")) {
    for (auto it = script_src->begin(); it != script_src->end();) {
      bool broad = std::any_of(broad_sources().begin(), broad_sources().end(),
                               [&](const std::string& b) { return it->rfind(b, 0) == 0; });
      if (broad || *it == "'self'" || *it == "'unsafe-inline'")
        it = script_src->erase(it);
      else
        ++it;
    }
  } else if (script_src->count("'strict-dynamic'")) {
    if (!result) result = "csp-header-invalid";
  }

  std::vector<std::string> active;
  for (const auto& [directive, sources] : csp.directives)
    if (directive != "img-src" && directive != "media-src" && directive != "script-src")
      active.insert(active.end(), sources->begin(), sources->end());
  active.insert(active.end(), script_src->begin(), script_src->end());
  std::vector<std::string> passive;
  for (const char* d : {"img-src", "media-src"}) {
    auto s = csp.get(d);
    if (!s) s = csp.get("default-src");
    if (s) passive.insert(passive.end(), s->begin(), s->end());
  }
  auto insecure = [](const std::vector<std::string>& list) {
    return std::any_of(list.begin(), list.end(),
                       [](const std::string& s) { return s.rfind("http:", 0) == 0 || s.rfind("ftp:", 0) == 0; });
  };
  bool https = is_https(r.session_url);

  if (std::any_of(script_src->begin(), script_src->end(), broad_or_inline) ||
      std::any_of(object_src->begin(), object_src->end(),
                  [](const std::string& s) { return broad_sources().count(s) > 0; }))
    if (!result) result = "csp-implemented-with-unsafe-inline";
  if (https && insecure(active))
    if (!result) result = "csp-implemented-with-insecure-scheme";
  if (script_src->count("'unsafe-eval'") || style_src->count("'unsafe-eval'"))
    if (!result) result = "csp-implemented-with-unsafe-eval";
  if (https && insecure(passive))
    if (!result) result = "csp-implemented-with-insecure-scheme-in-passive-content-only";
  if (std::any_of(style_src->begin(), style_src->end(), broad_or_inline))
    if (!result) result = "csp-implemented-with-unsafe-inline-in-style-src-only";
  auto def = csp.get("default-src");
  if (def && def->count("'none'") && def->size() == 1) {
    if (!result) result = "csp-implemented-with-no-unsafe-default-src-none";
  } else if (!result) {
    result = "csp-implemented-with-no-unsafe";
  }
  bool pass = in(*result, {"csp-implemented-with-no-unsafe", "csp-implemented-with-no-unsafe-default-src-none",
                           "csp-implemented-with-unsafe-inline-in-style-src-only",
                           "csp-implemented-with-insecure-scheme-in-passive-content-only"});
  if (pass && !csp.duplicate_warnings.empty()) result = "csp-implemented-but-duplicate-directives";
  a.result = make(kName, *result, pass);
  a.parsed = std::move(csp);
  return a;
}

struct Cookie {
  std::string name;
  bool secure = false;
  bool http_only = false;
  std::optional<std::string> same_site;  // strict | lax | none; unset when absent or unknown
  std::string domain;
  std::string path;
};

std::optional<Cookie> parse_set_cookie(std::string_view header) {
  Cookie c;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= header.size()) {
    auto semi = header.find(';', pos);
    auto part = header.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos);
    pos = semi == std::string_view::npos ? header.size() + 1 : semi + 1;
    auto eq = part.find('=');
    std::string key = trim(part.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : trim(part.substr(eq + 1));
    if (first) {
      first = false;
      if (eq == std::string_view::npos || key.empty()) return std::nullopt;
      c.name = key;
      continue;
    }
    auto k = lower(key);
    if (k == "secure") c.secure = true;
    if (k == "httponly") c.http_only = true;
    if (k == "domain") c.domain = lower(value);
    if (k == "path") c.path = value;
    if (k == "samesite") {
      auto v = lower(value);
      if (v == "strict" || v == "lax" || v == "none")
        c.same_site = v;
      else
        c.same_site.reset();
    }
  }
  return c;
}

bool invalid_same_site(std::string_view raw) {
  std::size_t pos = 0;
  while (pos <= raw.size()) {
    auto semi = raw.find(';', pos);
    auto part = trim(raw.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos));
    pos = semi == std::string_view::npos ? raw.size() + 1 : semi + 1;
    // JS split("=") then destructuring: the value is what lies between the first and second '='.
    auto eq = part.find('=');
    auto key = lower(trim(part.substr(0, eq)));
    if (key != "samesite") continue;
    if (eq == std::string::npos) return true;
    auto rest = part.substr(eq + 1);
    auto value = lower(trim(rest.substr(0, rest.find('='))));
    if (value.empty()) return true;
    if (value != "lax" && value != "strict" && value != "none") return true;
  }
  return false;
}

std::optional<std::string> registrable_domain(const std::string& host) {
  static const psl_ctx_t* psl = [] {
    const psl_ctx_t* p = psl_latest(nullptr);  // the system list (publicsuffix), else libpsl's built-in one
    return p ? p : psl_builtin();
  }();
  if (!psl || host.empty()) return std::nullopt;
  const char* d = psl_registrable_domain(psl, host.c_str());
  if (!d) return std::nullopt;
  return std::string(d);
}

std::string host_of(std::string_view url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return {};
  return lower(u->host_type() == boost::urls::host_type::name ? std::string(u->host_name())
                                                              : std::string(u->encoded_host()));
}

}  // namespace

std::string grade_for_score(int score) {
  score = std::max(score, 0);
  int key = std::min(score - score % 5, 100);
  if (key >= 100) return "A+";
  if (key >= 90) return "A";
  if (key >= 85) return "A-";
  if (key >= 80) return "B+";
  if (key >= 70) return "B";
  if (key >= 65) return "B-";
  if (key >= 60) return "C+";
  if (key >= 50) return "C";
  if (key >= 45) return "C-";
  if (key >= 40) return "D+";
  if (key >= 30) return "D";
  if (key >= 25) return "D-";
  return "F";
}

int modifier_of(const std::string& result) {
  const Outcome* o = outcome(result);
  return o ? o->modifier : 0;
}

TestResult test_csp(const Retrievals& r) { return analyse_csp(r).result; }

TestResult test_hsts(const Retrievals& r) {
  const char* kName = "strict-transport-security";
  std::string result = "hsts-not-implemented";
  if (!r.https) {
    result = "hsts-not-implemented-no-https";
  } else if (!r.https->verified) {
    result = "hsts-invalid-cert";
  } else if (auto header = joined(*r.https, "strict-transport-security")) {
    std::string data = text::utf8_prefix(*header, 1024);
    // One header only (a comma means two), and max-age present; parseInt semantics, where a
    // value without digits is NaN and NaN is not "less than six months".
    std::optional<long long> max_age;
    bool nan = false, seen = false;
    bool invalid = data.find(',') != std::string::npos;
    std::size_t pos = 0;
    while (!invalid && pos <= data.size()) {
      auto semi = data.find(';', pos);
      auto p = lower(trim(data.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos)));
      pos = semi == std::string::npos ? data.size() + 1 : semi + 1;
      if (p.rfind("max-age=", 0) != 0) continue;
      seen = true;
      std::string v = p.substr(8, 120);
      std::size_t i = v.find_first_not_of(" \t\n\r\f\v");
      bool negative = false;
      if (i != std::string::npos && (v[i] == '+' || v[i] == '-')) negative = v[i++] == '-';
      long long n = 0;
      bool digits = false;
      while (i != std::string::npos && i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
        n = std::min<long long>(n * 10 + (v[i] - '0'), 1'000'000'000'000LL);
        digits = true;
        ++i;
      }
      nan = !digits;
      max_age = negative ? -n : n;
    }
    if (invalid || !seen)
      result = "hsts-header-invalid";
    else if (!nan && *max_age < kHstsSixMonths)
      result = "hsts-implemented-max-age-less-than-six-months";
    else
      result = "hsts-implemented-max-age-at-least-six-months";
  }
  // The HSTS preload list is not shipped (docs/audit.md): "hsts-preloaded" is never given.
  return make(kName, result, in(result, {"hsts-implemented-max-age-at-least-six-months", "hsts-preloaded"}));
}

TestResult test_cookies(const Retrievals& r) {
  const char* kName = "cookies";
  static const char* const kGoodness[] = {
      "cookies-without-secure-flag-but-protected-by-hsts",
      "cookies-without-secure-flag",
      "cookies-session-without-secure-flag-but-protected-by-hsts",
      "cookies-samesite-flag-invalid",
      "cookies-anticsrf-without-samesite-flag",
      "cookies-session-without-httponly-flag",
      "cookies-session-without-secure-flag",
  };
  auto rank = [](const std::string& s) {
    for (int i = 0; i < 7; ++i)
      if (s == kGoodness[i]) return i;
    return -1;
  };
  std::optional<std::string> result;
  auto worse = [&](const char* candidate) {
    if (!result || rank(candidate) > rank(*result)) result = candidate;
  };
  bool hsts = test_hsts(r).pass;
  if (r.auto_)
    for (const auto& f : r.auto_->headers)
      if (f.name == "set-cookie" && invalid_same_site(f.value)) worse("cookies-samesite-flag-invalid");

  // The jar: a later cookie of the same name, domain and path replaces an earlier one.
  std::vector<Cookie> jar;
  for (const auto& raw : r.set_cookies) {
    auto c = parse_set_cookie(raw);
    if (!c || c->name == "heroku-session-affinity") continue;
    auto same = std::find_if(jar.begin(), jar.end(), [&](const Cookie& j) {
      return j.name == c->name && j.domain == c->domain && j.path == c->path;
    });
    if (same != jar.end())
      *same = *c;
    else
      jar.push_back(*c);
  }
  if (jar.empty()) return make(kName, "cookies-not-found", true);
  bool missing_same_site = false;
  for (const auto& c : jar) {
    auto name = lower(c.name);
    bool session = name.find("login") != std::string::npos || name.find("sess") != std::string::npos;
    bool anticsrf = name.find("csrf") != std::string::npos;
    if (!c.secure && c.same_site == "none") worse("cookies-samesite-flag-invalid");
    if (!c.secure && hsts)
      worse("cookies-without-secure-flag-but-protected-by-hsts");
    else if (!c.secure)
      worse("cookies-without-secure-flag");
    if (anticsrf && !c.same_site) worse("cookies-anticsrf-without-samesite-flag");
    if (session && !c.secure && hsts)
      worse("cookies-session-without-secure-flag-but-protected-by-hsts");
    else if (session && !c.secure)
      worse("cookies-session-without-secure-flag");
    if (session && !c.http_only) worse("cookies-session-without-httponly-flag");
    if (!c.same_site) missing_same_site = true;
  }
  if (!result)
    result = missing_same_site ? "cookies-secure-with-httponly-sessions"
                               : "cookies-secure-with-httponly-sessions-and-samesite";
  return make(kName, *result,
              in(*result, {"cookies-not-found", "cookies-secure-with-httponly-sessions-and-samesite",
                           "cookies-secure-with-httponly-sessions"}));
}

TestResult test_cors(const Retrievals& r) {
  const char* kName = "cross-origin-resource-sharing";
  std::string result = "cross-origin-resource-sharing-not-implemented";
  if (r.cors) {
    auto acao = joined(*r.cors, "access-control-allow-origin");
    if (acao && !acao->empty()) {
      auto data = lower(trim(acao->substr(0, 256)));
      auto credentials = joined(*r.cors, "access-control-allow-credentials");
      if (data == "*")
        result = "cross-origin-resource-sharing-implemented-with-public-access";
      else if (*acao == r.cors_origin && credentials && lower(trim(*credentials)) == "true")
        result = "cross-origin-resource-sharing-implemented-with-universal-access";
      else
        result = "cross-origin-resource-sharing-implemented-with-restricted-access";
    }
  }
  return make(kName, result, result != "cross-origin-resource-sharing-implemented-with-universal-access");
}

TestResult test_redirection(const Retrievals& r) {
  const char* kName = "redirection";
  std::string result;
  const auto& route = r.http_route;
  if (!r.http) {
    result = "redirection-not-needed-no-http";
  } else if (!r.http->verified) {
    result = "redirection-invalid-cert";
  } else if (route.size() <= 1) {
    // (With no preload list, "all redirects preloaded" cannot hold for a chain.)
    result = "redirection-missing";
  } else if (!is_https(route.back())) {
    result = "redirection-not-to-https";
  } else if (!is_https(route[1])) {
    result = "redirection-not-to-https-on-initial-redirection";
  } else if (!is_https(route[0]) && host_of(route[0]) != host_of(route[1])) {
    result = "redirection-off-host-from-http";
  } else {
    result = "redirection-to-https";
  }
  return make(
      kName, result,
      in(result, {"redirection-not-needed-no-http", "redirection-all-redirects-preloaded", "redirection-to-https"}));
}

TestResult test_referrer_policy(const Retrievals& r) {
  const char* kName = "referrer-policy";
  if (!r.auto_) return make(kName, "referrer-policy-not-implemented", false);
  auto header = joined(*r.auto_, "referrer-policy");
  auto equiv = http_equiv_of(*r.auto_).referrer;
  if (!header && !equiv) return make(kName, "referrer-policy-not-implemented", true);
  std::string data;
  if (header) data = *header;
  if (equiv) data += (header ? ", " : "") + *equiv;
  static const std::set<std::string> good = {"no-referrer", "same-origin", "strict-origin",
                                             "strict-origin-when-cross-origin"};
  static const std::set<std::string> bad = {"origin", "origin-when-cross-origin", "unsafe-url",
                                            "no-referrer-when-downgrade"};
  std::string policy;  // the last valid token wins
  std::size_t pos = 0;
  while (pos <= data.size()) {
    auto comma = data.find(',', pos);
    auto token = lower(trim(data.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
    pos = comma == std::string::npos ? data.size() + 1 : comma + 1;
    if (good.count(token) || bad.count(token)) policy = token;
  }
  std::string result = good.count(policy)  ? "referrer-policy-private"
                       : bad.count(policy) ? "referrer-policy-unsafe"
                                           : "referrer-policy-header-invalid";
  return make(kName, result, result == "referrer-policy-private");
}

TestResult test_sri(const Retrievals& r) {
  const char* kName = "subresource-integrity";
  if (!r.auto_) return make(kName, "sri-not-implemented-but-no-scripts-loaded", false);
  static const char* const kGoodness[] = {
      "sri-implemented-and-all-scripts-loaded-securely",
      "sri-implemented-and-external-scripts-loaded-securely",
      "sri-implemented-but-external-scripts-not-loaded-securely",
      "sri-not-implemented-but-external-scripts-loaded-securely",
      "sri-not-implemented-and-external-scripts-not-loaded-securely",
      "sri-not-implemented-response-not-html",
  };
  auto rank = [](const std::string& s) {
    for (int i = 0; i < 6; ++i)
      if (s == kGoodness[i]) return i;
    return -1;
  };
  std::optional<std::string> result;
  auto worse = [&](const char* candidate) {
    if (!result || rank(candidate) > rank(*result)) result = candidate;
  };
  if (!is_html(*r.auto_)) {
    result = "sri-not-implemented-response-not-html";
  } else {
    auto facts = crawl::extract_html(r.auto_->body, r.auto_->url);
    auto page_domain = registrable_domain(r.hostname);
    bool foreign = false;
    static const std::regex protocol_relative("^(//)[^/]");
    static const std::regex full_url("^https?://");
    for (const auto& s : facts.scripts) {
      if (s.raw_src.empty()) continue;
      bool relative_origin = false, relative_protocol = false, same_sld = false;
      if (std::regex_search(s.raw_src, protocol_relative)) {
        relative_protocol = true;
        same_sld = true;
      } else if (std::regex_search(s.raw_src, full_url)) {
        same_sld = registrable_domain(host_of(s.raw_src)) == page_domain;
      } else {
        relative_origin = true;
        same_sld = true;
      }
      bool secure_origin = relative_origin || (same_sld && !relative_protocol);
      if (!secure_origin) foreign = true;
      bool secure_scheme = (!relative_protocol && !relative_origin && is_https(s.raw_src)) ||
                           (relative_origin && is_https(r.session_url));
      bool integrity = !s.integrity.empty();
      if (!secure_origin) {
        if (integrity && !secure_scheme)
          worse("sri-implemented-but-external-scripts-not-loaded-securely");
        else if (!integrity && secure_scheme)
          worse("sri-not-implemented-but-external-scripts-loaded-securely");
        else if (!integrity && !secure_scheme)
          worse("sri-not-implemented-and-external-scripts-not-loaded-securely");
      } else if (integrity && secure_scheme && !result) {
        result = "sri-implemented-and-all-scripts-loaded-securely";
      }
    }
    if (facts.scripts.empty())
      result = "sri-not-implemented-but-no-scripts-loaded";
    else if (!result)
      result = foreign ? "sri-implemented-and-external-scripts-loaded-securely"
                       : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
  }
  return make(
      kName, *result,
      in(*result,
         {"sri-implemented-and-all-scripts-loaded-securely", "sri-implemented-and-external-scripts-loaded-securely",
          "sri-not-implemented-response-not-html", "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
          "sri-not-implemented-but-no-scripts-loaded"}));
}

TestResult test_x_content_type_options(const Retrievals& r) {
  const char* kName = "x-content-type-options";
  if (!r.auto_) return make(kName, "x-content-type-options-not-implemented", false);
  auto h = joined(*r.auto_, "x-content-type-options");
  std::string result = !h || h->empty()                              ? "x-content-type-options-not-implemented"
                       : lower(trim(h->substr(0, 256))) == "nosniff" ? "x-content-type-options-nosniff"
                                                                     : "x-content-type-options-header-invalid";
  return make(kName, result, result == "x-content-type-options-nosniff");
}

TestResult test_x_frame_options(const Retrievals& r) {
  const char* kName = "x-frame-options";
  if (!r.auto_) return make(kName, "x-frame-options-not-implemented", false);
  auto h = joined(*r.auto_, "x-frame-options");
  std::string result = "x-frame-options-not-implemented";
  if (h && !h->empty()) {
    auto v = lower(trim(h->substr(0, 1024)));
    result = v == "deny" || v == "sameorigin" ? "x-frame-options-sameorigin-or-deny"
             : v.rfind("allow-from", 0) == 0  ? "x-frame-options-allow-from-origin"
                                              : "x-frame-options-header-invalid";
  }
  auto csp = analyse_csp(r);
  if (csp.parsed && csp.parsed->get("frame-ancestors")) result = "x-frame-options-implemented-via-csp";
  return make(kName, result,
              in(result, {"x-frame-options-allow-from-origin", "x-frame-options-sameorigin-or-deny",
                          "x-frame-options-implemented-via-csp"}));
}

TestResult test_corp(const Retrievals& r) {
  const char* kName = "cross-origin-resource-policy";
  std::string result = "corp-not-implemented";
  if (r.auto_) {
    auto h = joined(*r.auto_, "cross-origin-resource-policy");
    if (h && !h->empty()) {
      auto v = lower(trim(h->substr(0, 256)));
      result = v == "same-site"      ? "corp-implemented-with-same-site"
               : v == "same-origin"  ? "corp-implemented-with-same-origin"
               : v == "cross-origin" ? "corp-implemented-with-cross-origin"
                                     : "corp-header-invalid";
    }
  }
  return make(kName, result, result != "corp-header-invalid");
}

std::vector<Advisory> advisories(const Retrievals& r) {
  std::vector<Advisory> out;
  if (!r.auto_) return out;
  const Response& a = *r.auto_;
  auto value = [&](const char* name) { return joined(a, name).value_or(""); };
  auto add = [&](const char* name, std::string status, const std::string& v, std::string note) {
    out.push_back({name, std::move(status), text::utf8_prefix(v, 512), std::move(note)});
  };
  auto pp = value("permissions-policy");
  add("permissions-policy", pp.empty() ? "missing" : "ok", pp,
      pp.empty() ? "Restrict powerful features (camera, microphone, geolocation …) with Permissions-Policy." : "");
  auto coop = lower(trim(value("cross-origin-opener-policy")));
  add("cross-origin-opener-policy",
      coop.empty()                                                    ? "missing"
      : (coop == "same-origin" || coop == "same-origin-allow-popups") ? "ok"
                                                                      : "weak",
      value("cross-origin-opener-policy"),
      coop == "same-origin" || coop == "same-origin-allow-popups"
          ? ""
          : "Send Cross-Origin-Opener-Policy: same-origin to isolate the browsing context.");
  auto coep = lower(trim(value("cross-origin-embedder-policy")));
  add("cross-origin-embedder-policy",
      coep.empty()                                           ? "missing"
      : (coep == "require-corp" || coep == "credentialless") ? "ok"
                                                             : "weak",
      value("cross-origin-embedder-policy"),
      coep == "require-corp" || coep == "credentialless"
          ? ""
          : "Cross-Origin-Embedder-Policy: require-corp (with COOP) enables cross-origin isolation.");
  // A version number in a banner tells attackers which advisories apply.
  static const std::regex version(R"([0-9]+\.[0-9]+)");
  for (const char* h : {"server", "x-powered-by", "x-aspnet-version", "x-aspnetmvc-version", "x-generator"}) {
    auto v = value(h);
    if (v.empty()) continue;
    bool disclosed = std::regex_search(v, version) || std::string(h) != "server";
    add(h, disclosed ? "disclosed" : "ok", v,
        disclosed ? std::string("Remove the ") + h + " header or the version it reveals." : "");
  }
  return out;
}

Grade grade(const Retrievals& r) {
  Grade g;
  g.tests = {test_csp(r),
             test_cookies(r),
             test_cors(r),
             test_redirection(r),
             test_referrer_policy(r),
             test_hsts(r),
             test_sri(r),
             test_x_content_type_options(r),
             test_x_frame_options(r),
             test_corp(r)};
  int with_extra = 100, uncurved = 100;
  for (const auto& t : g.tests) {
    g.tests_passed += t.pass ? 1 : 0;
    with_extra += t.score_modifier;
    if (t.score_modifier < 0) uncurved += t.score_modifier;
  }
  g.score = std::max(0, uncurved >= kExtraCreditMinimum ? with_extra : uncurved);
  g.grade = grade_for_score(g.score);
  g.advisories = advisories(r);
  return g;
}

}  // namespace dozor::audit::headers
