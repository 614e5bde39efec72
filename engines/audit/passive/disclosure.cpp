// Information disclosure: error and debug output, version banners, private addresses, comments.
#include <re2/re2.h>

#include <algorithm>

#include "engines/audit/passive/rules.hpp"

namespace dozor::audit::passive {
namespace {

const Rule kErrorDisclosure{
    "error-disclosure",
    "Error message or stack trace disclosed",
    Severity::Medium,
    "firm",
    "A05:2021",
    209,
    "A page shows an error message of the platform (a PHP warning, an SQL error, a stack trace): file paths, queries "
    "and component versions that help an attacker, and often a sign of an injectable parameter.",
    "Show users a generic error page; log the details on the server (display_errors=Off in PHP, custom error pages in "
    "the framework and the web server)."};

const Rule kDebugDisclosure{
    "debug-page-disclosure",
    "Framework debug page exposed",
    Severity::High,
    "firm",
    "A05:2021",
    489,
    "A framework's debug mode answers on the production site (Django DEBUG=True, Laravel/Ignition, Werkzeug debugger, "
    "ASP.NET detailed errors, phpinfo() …): source excerpts, settings, environment variables and sometimes an "
    "interactive console are exposed.",
    "Turn debug mode off in production (DEBUG=False, APP_DEBUG=false, customErrors mode=\"On\"), remove phpinfo "
    "pages, and restrict diagnostic tools to internal networks."};

const Rule kVersionBanner{
    "version-disclosure",
    "Server software version disclosed in headers",
    Severity::Low,
    "certain",
    "A05:2021",
    497,
    "Response headers (Server, X-Powered-By, X-AspNet-Version …) name the software and its exact version, which lets "
    "an attacker look up known vulnerabilities without probing.",
    "Hide versions: server_tokens off (nginx), ServerTokens Prod (Apache), expose_php=Off (PHP), "
    "enableVersionHeader=\"false\" (ASP.NET), and remove X-Powered-By."};

const Rule kPrivateIp{
    "private-ip-disclosure",
    "Private IP address disclosed",
    Severity::Low,
    "firm",
    "A01:2021",
    200,
    "An answer contains an RFC 1918 address (10/8, 172.16/12, 192.168/16): a map of the internal network for an "
    "attacker (load balancers, back ends, developer hosts).",
    "Remove internal addresses from pages and headers (proxy headers, error pages, comments, configuration "
    "dumps)."};

const Rule kSuspiciousComment{
    "suspicious-comment",
    "HTML comment that suggests unfinished or sensitive code",
    Severity::Info,
    "tentative",
    "A05:2021",
    615,
    "An HTML comment mentions TODO/FIXME, debugging or administration: notes meant for developers that tell an "
    "attacker where the weak spots are.",
    "Strip comments from production HTML (build step or template engine) and keep notes in the source repository."};

const Rule kCredentialComment{
    "comment-credentials",
    "HTML comment mentions passwords or secrets",
    Severity::Low,
    "tentative",
    "A05:2021",
    615,
    "An HTML comment mentions a password, secret or API key: credentials or the place they are kept may be visible "
    "to anyone who reads the page source.",
    "Remove the comment; if a real secret was published, rotate it."};

// An RFC 1918 IPv4 address not inside a longer dotted number (versions like 1.10.0.0.1).
const re2::RE2& private_ip_re() {
  static const re2::RE2 re(
      "(?:^|[^0-9.])((?:10(?:\\.[0-9]{1,3}){3})|(?:172\\.(?:1[6-9]|2[0-9]|3[01])(?:\\.[0-9]{1,3}){2})|"
      "(?:192\\.168(?:\\.[0-9]{1,3}){2}))(?:$|[^0-9.]|\\.(?:$|[^0-9]))");
  return re;
}

bool octets_valid(const std::string& ip) {
  std::size_t start = 0;
  while (start < ip.size()) {
    auto dot = ip.find('.', start);
    auto part = ip.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || part.size() > 3 || std::stoi(part) > 255 || (part.size() > 1 && part[0] == '0')) return false;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return true;
}

// Calls fn(ip, position) for every private address in `text`.
template <class Fn>
void each_private_ip(std::string_view text, Fn fn) {
  re2::StringPiece input(text.data(), text.size());
  std::string ip;
  while (!input.empty()) {
    re2::StringPiece sub[2];
    if (!private_ip_re().Match(input, 0, input.size(), re2::RE2::UNANCHORED, sub, 2)) return;
    ip = std::string(sub[1].data(), sub[1].size());
    if (octets_valid(ip)) fn(ip, static_cast<std::size_t>(sub[1].data() - text.data()));
    // Continue after the address (the trailing character may start the next match's prefix).
    auto next = static_cast<std::size_t>(sub[1].data() + sub[1].size() - input.data());
    input.remove_prefix(std::max<std::size_t>(next, 1));
  }
}

const std::string& body_of(const Page& page) {
  static const std::string kEmpty;
  if (page.html) return *page.html;
  if (page.exchanges && !page.exchanges->empty()) return page.exchanges->back().body_excerpt;
  return kEmpty;
}

std::optional<net::Exchange> answer_exchange(const Page& page) {
  if (page.html || !page.exchanges || page.exchanges->empty()) return std::nullopt;
  return page.exchanges->back();  // the excerpt came from it: it is the evidence
}

bool has_digit(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void disclosure_rules(const Data& data, const Page& page, Collector& out) {
  const std::string& body = body_of(page);
  for (const auto& p : data.error_patterns) {
    re2::StringPiece match;
    if (!p.re->Match(body, 0, body.size(), re2::RE2::UNANCHORED, &match, 1)) continue;
    auto pos = static_cast<std::size_t>(match.data() - body.data());
    out.add(
        p.kind == "debug" ? kDebugDisclosure : kErrorDisclosure, p.id + " " + page.url,
        {page.url, snippet_at(body, pos, std::min<std::size_t>(match.size(), 300)), p.title, answer_exchange(page)});
  }

  if (page.exchanges)
    for (const auto& ex : *page.exchanges)
      for (const auto& h : ex.response_headers) {
        if (std::find(data.version_headers.begin(), data.version_headers.end(), h.name) != data.version_headers.end() &&
            has_digit(h.value))
          out.add(kVersionBanner, h.name + ": " + h.value,
                  {ex.url, h.name + ": " + h.value, "version in a header", ex});
        each_private_ip(h.value, [&](const std::string& ip, std::size_t) {
          if (ip != page.host)
            out.add(kPrivateIp, ip, {ex.url, h.name + ": " + h.value, "private address in a response header", ex});
        });
      }
  each_private_ip(body, [&](const std::string& ip, std::size_t pos) {
    if (ip != page.host)
      out.add(kPrivateIp, ip,
              {page.url, snippet_at(body, pos, ip.size()), "private address in the page", answer_exchange(page)});
  });
}

void comment_rules(const Data& data, const Page& page, Collector& out) {
  if (!page.facts) return;
  for (const auto& c : page.facts->comments) {
    if (c.rfind("[if ", 0) == 0 || c.rfind("<![endif]", 0) == 0) continue;  // IE conditional comments
    re2::StringPiece match;
    const Rule* rule = nullptr;
    if (data.comment_credentials->Match(c, 0, c.size(), re2::RE2::UNANCHORED, &match, 1))
      rule = &kCredentialComment;
    else if (data.comment_suspicious->Match(c, 0, c.size(), re2::RE2::UNANCHORED, &match, 1))
      rule = &kSuspiciousComment;
    if (!rule) continue;
    auto pos = static_cast<std::size_t>(match.data() - c.data());
    out.add(*rule, c.substr(0, 200),
            {page.url, "<!-- " + snippet_at(c, pos, match.size(), 120) + " -->",
             "comment mentions \"" + std::string(match.data(), match.size()) + "\"", std::nullopt});
  }
}

}  // namespace dozor::audit::passive
