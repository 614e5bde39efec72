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
};

bool testable_field(const crawl::FormField& f) {
  if (f.name.empty()) return false;
  static const std::set<std::string> skip{"submit", "button", "image", "reset", "file"};
  return !skip.count(f.type);
}

void add(std::map<std::string, Candidate>& by_url, const std::string& url, const Params& params,
         const std::string& source) {
  auto& c = by_url[url];
  if (c.source.empty()) c.source = source;
  for (const auto& param : params) {
    const auto& name = param.first;
    auto it = std::find_if(c.params.begin(), c.params.end(), [&](const auto& p) { return p.first == name; });
    if (it == c.params.end())
      c.params.emplace_back(name, param.second);
    else if (it->second.empty() || it->second == "1")
      it->second = param.second;  // a real value beats the placeholder
  }
}

}  // namespace

std::string Point::with(std::string_view v) const {
  Params p = params;
  p.at(index).second = std::string(v);
  return url_with_query(url, p);
}

std::vector<Point> injection_points(const crawl::CrawlResult& crawl, std::size_t max) {
  std::map<std::string, Candidate> by_url;  // GET only
  for (const auto& page : crawl.pages) {
    for (const auto* u : {&page.url, &page.final_url}) {
      auto parsed = boost::urls::parse_uri(*u);
      if (!parsed || parsed->params().empty()) continue;
      Params params;
      for (auto p : parsed->params()) params.emplace_back(std::string(p.key), p.has_value ? std::string(p.value) : "");
      boost::urls::url base(*parsed);
      base.remove_query();
      base.remove_fragment();
      add(by_url, std::string(base.buffer()), params, "link");
    }
  }
  for (const auto& f : crawl.forms) {
    if (f.form.method != "GET") continue;
    auto parsed = boost::urls::parse_uri(f.form.action);
    if (!parsed) continue;
    boost::urls::url base(*parsed);
    base.remove_query();
    base.remove_fragment();
    Params params;
    for (const auto& field : f.form.fields)
      if (testable_field(field)) params.emplace_back(field.name, field.value);
    if (!params.empty()) add(by_url, std::string(base.buffer()), params, "form");
  }
  for (const auto& [key, e] : crawl.endpoints) {
    if (e.method != "GET" || e.params.empty()) continue;
    Params params;
    for (const auto& name : e.params) params.emplace_back(name, "1");
    add(by_url, e.url, params, "endpoint");
  }
  std::vector<Point> out;
  for (auto& [url, c] : by_url) {
    for (auto& p : c.params)
      if (p.second.empty()) p.second = "1";  // an empty value hides many flaws; browsers send what is typed
    for (std::size_t i = 0; i < c.params.size() && out.size() < max; ++i)
      out.push_back(Point{url, "GET", c.params, i, c.source});
  }
  return out;
}

}  // namespace dozor::owasp
