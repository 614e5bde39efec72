// Cookie rules: Secure on https, HttpOnly on session-like cookies, SameSite (ZAP 10011, 10010, 10054).
#include <algorithm>

#include "engines/audit/passive/rules.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::passive {
namespace {

const Rule kNoSecure{
    "cookie-without-secure",
    "Cookie without the Secure attribute",
    Severity::Low,
    "certain",
    "A05:2021",
    614,
    "A cookie set over HTTPS lacks the Secure attribute, so the browser also sends it over plain HTTP, where anyone "
    "on the path can read it.",
    "Add the Secure attribute to every cookie the site sets over HTTPS (a __Host- or __Secure- name prefix makes "
    "browsers enforce it)."};

const Rule kNoHttpOnly{
    "cookie-without-httponly",
    "Session cookie without the HttpOnly attribute",
    Severity::Low,
    "firm",
    "A05:2021",
    1004,
    "A cookie whose name looks like a session or login cookie lacks HttpOnly, so any script on the page (an XSS "
    "payload included) can read and exfiltrate it.",
    "Set HttpOnly on session and authentication cookies; only cookies that scripts must read (a CSRF double-submit "
    "token) may go without it."};

const Rule kSameSite{
    "cookie-without-samesite",
    "Cookie without a valid SameSite attribute",
    Severity::Low,
    "certain",
    "A01:2021",
    1275,
    "A cookie has no SameSite attribute (or an invalid one, or SameSite=None without Secure, which browsers reject), "
    "so whether cross-site requests carry it is left to browser defaults; SameSite is a cheap defence against CSRF.",
    "Set SameSite=Lax (or Strict for session cookies that never need cross-site navigation); use SameSite=None only "
    "with Secure and only for cookies that must travel in cross-site requests."};

struct Cookie {
  std::string name;
  std::string value;
  std::vector<std::pair<std::string, std::string>> attributes;  // lower-case name, value as sent
};

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

std::optional<Cookie> parse_cookie(std::string_view header) {
  Cookie c;
  std::size_t start = 0;
  bool first = true;
  while (start <= header.size()) {
    auto semi = header.find(';', start);
    auto part = header.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start);
    auto eq = part.find('=');
    std::string name = trim(part.substr(0, eq));
    std::string value = eq == std::string_view::npos ? std::string() : trim(part.substr(eq + 1));
    if (first) {
      if (name.empty() || eq == std::string_view::npos) return std::nullopt;
      c.name = name;
      c.value = value;
      first = false;
    } else if (!name.empty()) {
      c.attributes.emplace_back(lower(name), value);
    }
    if (semi == std::string_view::npos) break;
    start = semi + 1;
  }
  return c;
}

const std::string* attribute(const Cookie& c, const char* name) {
  for (const auto& [n, v] : c.attributes)
    if (n == name) return &v;
  return nullptr;
}

// A cookie that deletes itself protects nothing and leaks nothing.
bool is_deletion(const Cookie& c) {
  if (c.value.empty()) return true;
  if (const auto* age = attribute(c, "max-age"); age && !age->empty() && (age->front() == '-' || *age == "0"))
    return true;
  if (const auto* exp = attribute(c, "expires")) return exp->find("1970") != std::string::npos;
  return false;
}

bool session_like(const Data& data, const std::string& name) {
  auto n = lower(name);
  // A double-submit CSRF token is meant to be read by scripts (Angular's XSRF-TOKEN, Django's csrftoken).
  if (n.find("csrf") != std::string::npos || n.find("xsrf") != std::string::npos) return false;
  return std::any_of(data.session_cookie_substrings.begin(), data.session_cookie_substrings.end(),
                     [&](const std::string& s) { return n.find(s) != std::string::npos; });
}

// The header line with the value shortened: evidence must show the cookie, not hand out a session.
std::string masked(const Cookie& c) {
  std::string out = "Set-Cookie: " + c.name + "=";
  out += c.value.size() > 6 ? c.value.substr(0, 4) + "…" : c.value;
  for (const auto& [n, v] : c.attributes) {
    out += "; " + n;
    if (!v.empty()) out += "=" + v;
  }
  return out;
}

}  // namespace

void cookie_rules(const Data& data, const Page& page, Collector& out) {
  if (!page.exchanges) return;
  for (const auto& ex : *page.exchanges) {
    bool https = lower(ex.url.substr(0, 8)) == "https://";
    for (const auto& header : net::header_values(ex.response_headers, "set-cookie")) {
      auto c = parse_cookie(header);
      if (!c || is_deletion(*c)) continue;
      auto evidence = [&](const char* note) { return Evidence{ex.url, masked(*c), note, ex}; };
      bool secure = attribute(*c, "secure") != nullptr;
      // Browsers refuse Secure cookies from plain HTTP, so only HTTPS answers are judged.
      if (https && !secure) out.add(kNoSecure, c->name, evidence("Set-Cookie on an HTTPS answer without Secure"));
      if (!attribute(*c, "httponly") && session_like(data, c->name))
        out.add(kNoHttpOnly, c->name, evidence("session-like cookie name without HttpOnly"));
      const auto* same_site = attribute(*c, "samesite");
      std::string ss = same_site ? lower(*same_site) : "";
      if (!same_site)
        out.add(kSameSite, c->name, evidence("no SameSite attribute"));
      else if (ss != "lax" && ss != "strict" && ss != "none")
        out.add(kSameSite, c->name, evidence("SameSite has an invalid value"));
      else if (ss == "none" && !secure)
        out.add(kSameSite, c->name, evidence("SameSite=None without Secure: browsers reject the cookie"));
    }
  }
}

}  // namespace dozor::audit::passive
