#pragma once
// Injection points of the OWASP scan (docs/scan.md "OWASP scan"): every query parameter and GET
// form field the crawl found, each with the values the site itself used (a link's query, a
// field's value), so a check changes one parameter and leaves the others as a browser would send them.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/crawl/crawler.hpp"

namespace dozor::owasp {

struct Point {
  std::string url;  // scheme, authority and path; no query
  std::string method = "GET";
  std::vector<std::pair<std::string, std::string>> params;
  std::size_t index = 0;  // the parameter under test
  std::string source;     // link | form | endpoint

  const std::string& name() const { return params.at(index).first; }
  const std::string& value() const { return params.at(index).second; }
  // The URL with the parameter under test set to `value`.
  std::string with(std::string_view value) const;
  // The URL with the site's own values.
  std::string original() const { return with(value()); }
};

// One point per (URL, parameter), at most `max`; POST forms are not tested (docs/scan.md).
std::vector<Point> injection_points(const crawl::CrawlResult& crawl, std::size_t max);

}  // namespace dozor::owasp
