// Mixed content (active and passive), missing SRI on cross-origin scripts and styles, reverse
// tabnabbing — all from gumbo's facts of one HTTPS or HTTP page.
#include <algorithm>
#include <boost/url/parse.hpp>

#include "engines/audit/passive/rules.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::passive {
namespace {

const Rule kMixedActive{
    "mixed-content-active",
    "HTTPS page loads scripts, styles or frames over HTTP (active mixed content)",
    Severity::Medium,
    "certain",
    "A02:2021",
    311,
    "An HTTPS page includes a script, stylesheet, frame or plugin object by an http:// URL. Whoever can alter that "
    "plain-HTTP answer controls the page; modern browsers block such content, which also breaks the page.",
    "Load every subresource over HTTPS (or by a relative URL); add the CSP directive upgrade-insecure-requests while "
    "the references are being fixed."};

const Rule kMixedPassive{
    "mixed-content-passive",
    "HTTPS page loads images or media over HTTP (passive mixed content)",
    Severity::Low,
    "certain",
    "A02:2021",
    311,
    "An HTTPS page includes images, audio or video by an http:// URL: an observer learns what is viewed and can "
    "replace the content. Browsers upgrade such requests to HTTPS or block them.",
    "Reference images and media over HTTPS; upgrade-insecure-requests in the CSP fixes the remaining references."};

const Rule kNoSri{
    "sri-missing",
    "Cross-origin script or stylesheet without Subresource Integrity",
    Severity::Medium,
    "certain",
    "A08:2021",
    345,
    "A script or stylesheet is loaded from another origin without an integrity attribute: if that origin (a CDN) is "
    "compromised or the file is swapped, the page runs whatever it serves.",
    "Add integrity=\"sha384-…\" and crossorigin=\"anonymous\" to cross-origin <script> and <link rel=stylesheet> "
    "elements of fixed versions, or serve the files from the site's own origin."};

const Rule kTabnabbing{
    "reverse-tabnabbing",
    "Links opening external sites in a new tab without rel=noopener",
    Severity::Info,
    "firm",
    "A05:2021",
    1022,
    "A link with target=\"_blank\" to another site has no rel=\"noopener\" or \"noreferrer\"; in old browsers the "
    "opened page gets window.opener and can navigate this page to a phishing copy. Browsers since 2021 (Chrome 88, "
    "Firefox 79, Safari 12.1) imply noopener for target=_blank, so the risk is limited to outdated browsers.",
    "Add rel=\"noopener noreferrer\" to links that open external sites in a new tab."};

bool is_http(const std::string& url) { return lower(url.substr(0, 7)) == "http://"; }

std::string element_excerpt(const Page& page, const std::string& raw, const std::string& resolved,
                            const std::string& fallback) {
  if (page.html) {
    if (!raw.empty())
      if (auto s = snippet(*page.html, raw); !s.empty()) return s;
    if (auto s = snippet(*page.html, resolved); !s.empty()) return s;
  }
  return fallback;
}

bool has_token(const std::string& rel, std::string_view token) {
  std::size_t pos = 0;
  while (pos < rel.size()) {
    auto end = rel.find_first_of(" \t\n", pos);
    if (end == std::string::npos) end = rel.size();
    if (std::string_view(rel).substr(pos, end - pos) == token) return true;
    pos = end + 1;
  }
  return false;
}

}  // namespace

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string snippet_at(std::string_view text, std::size_t pos, std::size_t len, std::size_t context) {
  std::size_t begin = pos > context ? pos - context : 0;
  std::size_t end = std::min(text.size(), pos + len + context);
  // Whole UTF-8 characters: move off continuation bytes.
  while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  std::string out(text.substr(begin, end - begin));
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return text::to_valid_utf8(out);
}

std::string snippet(std::string_view text, std::string_view needle, std::size_t context) {
  if (needle.empty()) return {};
  auto pos = text.find(needle);
  if (pos == std::string_view::npos) return {};
  return snippet_at(text, pos, needle.size(), context);
}

Page make_page(const std::string& url, int status, const std::vector<net::Exchange>& exchanges, const std::string* html,
               const crawl::PageFacts* facts) {
  Page p;
  p.url = url;
  p.status = status;
  p.exchanges = &exchanges;
  p.html = html;
  p.facts = facts;
  auto u = boost::urls::parse_uri(url);
  p.https = u && u->scheme_id() == boost::urls::scheme::https;
  p.origin = net::origin_of(url);
  if (u) p.host = std::string(u->host_address());
  return p;
}

void mixed_content_rules(const Page& page, Collector& out) {
  if (!page.https || !page.facts) return;
  const auto& f = *page.facts;
  for (const auto& s : f.scripts)
    if (!s.src.empty() && is_http(s.src))
      out.add(kMixedActive, s.src,
              {page.url, element_excerpt(page, s.raw_src, s.src, "<script src=\"" + s.src + "\">"), "script over HTTP",
               std::nullopt});
  for (const auto& s : f.stylesheets)
    if (is_http(s.href))
      out.add(kMixedActive, s.href,
              {page.url, element_excerpt(page, s.raw_href, s.href, "<link rel=\"stylesheet\" href=\"" + s.href + "\">"),
               "stylesheet over HTTP", std::nullopt});
  for (const auto& m : f.media) {
    if (!is_http(m.url) || m.kind == "document") continue;  // a linked document is navigation, not content
    bool active = m.kind == "iframe" || m.kind == "embed" || m.kind == "object";
    out.add(active ? kMixedActive : kMixedPassive, m.url,
            {page.url, element_excerpt(page, "", m.url, "<" + m.kind + " src=\"" + m.url + "\">"),
             m.kind + " over HTTP", std::nullopt});
  }
}

void link_rules(const Page& page, Collector& out) {
  if (!page.facts) return;
  const auto& f = *page.facts;
  for (const auto& s : f.scripts)
    if (!s.src.empty() && s.integrity.empty() && net::origin_of(s.src) != page.origin)
      out.add(kNoSri, s.src,
              {page.url, element_excerpt(page, s.raw_src, s.src, "<script src=\"" + s.src + "\">"),
               "cross-origin script without integrity", std::nullopt});
  for (const auto& s : f.stylesheets)
    if (s.integrity.empty() && net::origin_of(s.href) != page.origin)
      out.add(kNoSri, s.href,
              {page.url, element_excerpt(page, s.raw_href, s.href, "<link rel=\"stylesheet\" href=\"" + s.href + "\">"),
               "cross-origin stylesheet without integrity", std::nullopt});
  for (const auto& l : f.links) {
    if (lower(l.target) != "_blank" || net::origin_of(l.url) == page.origin) continue;
    if (has_token(l.rel, "noopener") || has_token(l.rel, "noreferrer")) continue;
    out.add(kTabnabbing, l.url,
            {page.url, element_excerpt(page, "", l.url, "<a href=\"" + l.url + "\" target=\"_blank\">"),
             "target=_blank to another site without rel=noopener", std::nullopt});
  }
}

}  // namespace dozor::audit::passive
