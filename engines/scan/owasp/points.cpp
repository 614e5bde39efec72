#include "engines/scan/owasp/points.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <map>
#include <set>

#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

struct Candidate {
  Params params;
  std::string source;
  std::string query;  // POST forms: the action's own query
};

bool testable_field(const crawl::FormField& f) {
  if (f.name.empty()) return false;
  static const std::set<std::string> skip{"submit", "button", "image", "reset", "file"};
  return !skip.count(f.type);
}

void add(std::map<std::pair<std::string, std::string>, Candidate>& by_url, const std::string& method,
         const std::string& url, const Params& params, const std::string& source, const std::string& query = {}) {
  auto& c = by_url[{url, method}];
  if (c.source.empty()) {
    c.source = source;
    c.query = query;
  }
  for (const auto& param : params) {
    const auto& name = param.first;
    auto it = std::find_if(c.params.begin(), c.params.end(), [&](const auto& p) { return p.first == name; });
    if (it == c.params.end())
      c.params.emplace_back(name, param.second);
    else if (it->second.empty() || it->second == "1")
      it->second = param.second;  // a real value beats the placeholder
  }
}

// The URL without query and fragment, and its query (without '?').
std::pair<std::string, std::string> split_url(const boost::urls::url_view& u) {
  boost::urls::url base(u);
  base.remove_query();
  base.remove_fragment();
  return {std::string(base.buffer()), u.has_query() ? std::string(u.encoded_query()) : std::string()};
}

bool numeric(std::string_view s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string with_query(std::string url, const std::string& query) {
  if (!query.empty()) url += "?" + query;
  return url;
}

void add_path_points(const std::string& url, std::set<std::string>& patterns, std::vector<Point>& out,
                     std::size_t max) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return;
  auto [base, query] = split_url(*parsed);
  Params segments;
  std::string pattern;
  for (auto seg : parsed->segments()) {
    segments.emplace_back("segment " + std::to_string(segments.size() + 1), std::string(seg));
    pattern += "/" + (numeric(seg) ? std::string("{n}") : std::string(seg));
  }
  auto origin = net::origin_of(base);
  if (!patterns.insert(origin + pattern).second) return;
  for (std::size_t i = 0; i < segments.size() && out.size() < max; ++i)
    if (numeric(segments[i].second)) {
      Point p{base, "GET", Place::Path, segments, i, "path", query};
      out.push_back(std::move(p));
    }
}

}  // namespace

net::FetchRequest Point::request(std::string_view v) const {
  net::FetchRequest r;
  r.method = method;
  r.max_redirects = 0;
  r.oversize_is_error = false;  // the start of a large answer is enough to judge it
  Params p = params;
  p.at(index).second = std::string(v);
  switch (place) {
    case Place::Query: r.url = url_with_query(url, p); break;
    case Place::Body: {
      r.url = with_query(url, query);
      auto encoded = url_with_query("", p);
      r.body = encoded.empty() ? encoded : encoded.substr(1);  // without the '?'
      r.headers.emplace_back("Content-Type: application/x-www-form-urlencoded");
      break;
    }
    case Place::Path: {
      std::string path;
      for (const auto& [unused, segment] : p) path += "/" + url_encode(segment);
      boost::urls::url u(url);  // parsed when the point was made
      u.set_encoded_path(path);
      r.url = with_query(std::string(u.buffer()), query);
      break;
    }
    case Place::Header:
      r.url = with_query(url, query);
      r.headers.push_back(name() + ": " + std::string(v));
      break;
  }
  return r;
}

std::string Point::label() const {
  switch (place) {
    case Place::Body: return "POST parameter " + name();
    case Place::Path: return "path " + name();
    case Place::Header: return "header " + name();
    case Place::Query: break;
  }
  return "parameter " + name();
}

std::vector<Point> injection_points(const crawl::CrawlResult& crawl, std::size_t max) {
  std::map<std::pair<std::string, std::string>, Candidate> by_url;  // (URL, method)
  for (const auto& page : crawl.pages) {
    for (const auto* u : {&page.url, &page.final_url}) {
      auto parsed = boost::urls::parse_uri(*u);
      if (!parsed || parsed->params().empty()) continue;
      Params params;
      for (auto p : parsed->params()) params.emplace_back(std::string(p.key), p.has_value ? std::string(p.value) : "");
      add(by_url, "GET", split_url(*parsed).first, params, "link");
    }
  }
  for (const auto& f : crawl.forms) {
    if (f.form.method != "GET" && f.form.method != "POST") continue;
    auto parsed = boost::urls::parse_uri(f.form.action);
    if (!parsed) continue;
    auto [base, query] = split_url(*parsed);
    Params params;
    for (const auto& field : f.form.fields)
      if (testable_field(field)) params.emplace_back(field.name, field.value);
    if (!params.empty()) add(by_url, f.form.method, base, params, "form", f.form.method == "POST" ? query : "");
  }
  for (const auto& [key, e] : crawl.endpoints) {
    if (e.method != "GET" || e.params.empty()) continue;
    Params params;
    for (const auto& name : e.params) params.emplace_back(name, "1");
    add(by_url, "GET", e.url, params, "endpoint");
  }
  std::vector<Point> out;
  for (auto& [key, c] : by_url) {
    for (auto& p : c.params)
      if (p.second.empty()) p.second = "1";  // an empty value hides many flaws; browsers send what is typed
    auto place = key.second == "POST" ? Place::Body : Place::Query;
    for (std::size_t i = 0; i < c.params.size() && out.size() < max; ++i)
      out.push_back(Point{key.first, key.second, place, c.params, i, c.source, c.query});
  }
  std::set<std::string> patterns;
  for (const auto& page : crawl.pages) add_path_points(page.final_url, patterns, out, max);
  for (const auto& [key, e] : crawl.endpoints)
    if (e.method == "GET") add_path_points(e.url, patterns, out, max);
  return out;
}

std::vector<Point> header_points(const crawl::CrawlResult& crawl, const std::string& user_agent,
                                 std::size_t max_pages) {
  std::vector<Point> out;
  std::set<std::string> seen;
  for (const auto& page : crawl.pages) {
    if (seen.size() >= max_pages) break;
    if (page.status < 200 || page.status >= 300 || !crawl::is_html_type(page.content_type, "")) continue;
    auto parsed = boost::urls::parse_uri(page.final_url);
    if (!parsed || !seen.insert(page.final_url).second) continue;
    auto [base, query] = split_url(*parsed);
    out.push_back(Point{base, "GET", Place::Header, {{"User-Agent", user_agent}}, 0, "header", query});
    out.push_back(Point{base, "GET", Place::Header, {{"Referer", page.final_url}}, 0, "header", query});
  }
  return out;
}

}  // namespace dozor::owasp
