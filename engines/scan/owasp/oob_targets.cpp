#include "engines/scan/owasp/oob_targets.hpp"

#include <algorithm>
#include <array>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <set>

#include "engines/net/scan_client.hpp"

namespace dozor::owasp {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The URL without query and fragment, or "" when it does not parse.
std::string without_query(const std::string& url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return {};
  boost::urls::url u(*parsed);
  u.remove_query();
  u.remove_fragment();
  return std::string(u.buffer());
}

bool xml_path(const std::string& url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return false;
  auto path = lower(parsed->path());
  static constexpr std::array<std::string_view, 6> kWords{"xml", "soap", "wsdl", ".asmx", "/ws/", "/services/"};
  return std::any_of(kWords.begin(), kWords.end(), [&](auto w) { return path.find(w) != std::string::npos; }) ||
         ends_with(path, "/ws");
}

}  // namespace

bool is_xml_type(std::string_view content_type) {
  auto t = lower(content_type.substr(0, content_type.find(';')));
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(0, 1);
  return t == "application/xml" || t == "text/xml" || ends_with(t, "+xml");
}

bool url_like(std::string_view name, std::string_view value) {
  auto n = lower(name);
  static constexpr std::array<std::string_view, 18> kNames{
      "url",     "uri",      "dest",  "destination", "callback", "feed",  "src", "source", "href",
      "webhook", "endpoint", "proxy", "fetch",       "remote",   "image", "img", "site",   "link"};
  if (std::find(kNames.begin(), kNames.end(), n) != kNames.end()) return true;
  if (ends_with(n, "_url") || ends_with(n, "url") || ends_with(n, "_uri") || ends_with(n, "uri")) return true;
  auto v = lower(value);
  return v.rfind("http://", 0) == 0 || v.rfind("https://", 0) == 0 || (v.size() > 2 && v.rfind("//", 0) == 0);
}

std::vector<std::string> xml_endpoints(const crawl::CrawlResult& crawl, std::size_t max) {
  std::vector<std::string> out;
  std::set<std::string> origins{crawl.origin};
  for (const auto& page : crawl.pages) origins.insert(net::origin_of(page.final_url));
  auto add = [&](const std::string& url) {
    auto u = without_query(url);
    if (u.empty() || out.size() >= max || std::find(out.begin(), out.end(), u) != out.end()) return;
    if (!origins.count(net::origin_of(u))) return;
    out.push_back(std::move(u));
  };
  for (const auto& page : crawl.pages)
    if (page.status >= 200 && page.status < 300 && is_xml_type(page.content_type)) add(page.final_url);
  for (const auto& page : crawl.pages)
    if (page.status >= 200 && page.status < 500 && xml_path(page.final_url)) add(page.final_url);
  for (const auto& f : crawl.forms)
    if (f.form.method == "POST") add(f.form.action);
  for (const auto& [key, e] : crawl.endpoints)
    if (e.method == "POST") add(e.url);
  return out;
}

std::vector<Point> url_points(const std::vector<Point>& points, std::size_t max) {
  std::vector<Point> out;
  for (const auto& p : points)
    if (out.size() < max && url_like(p.name(), p.value())) out.push_back(p);
  return out;
}

}  // namespace dozor::owasp
