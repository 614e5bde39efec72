#pragma once
// Injection points of the OWASP scan (docs/scan.md "OWASP scan"): every query parameter and form
// field the crawl found (GET and POST), numeric path segments, and the User-Agent and Referer
// headers of each page. A point keeps the values the site itself used (a link's query, a field's
// value), so a check changes one value and sends the rest as a browser would.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/crawl/crawler.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::owasp {

enum class Place { Query, Body, Path, Header };

struct Point {
  std::string url;  // scheme, authority and path; no query
  std::string method = "GET";
  Place place = Place::Query;
  // Query and Body: every field; Path: every segment ("segment N", value); Header: (name, value).
  std::vector<std::pair<std::string, std::string>> params;
  std::size_t index = 0;  // the value under test
  std::string source;     // link | form | endpoint | path | header
  std::string query;      // Body, Path and Header: the URL's own query, sent unchanged

  const std::string& name() const { return params.at(index).first; }
  const std::string& value() const { return params.at(index).second; }
  // The request with the value under test replaced by `value` (redirects not followed: a probe
  // judges the answer it caused).
  net::FetchRequest request(std::string_view value) const;
  // The request with the site's own values.
  net::FetchRequest original() const { return request(value()); }
  // The URL asked when the value under test is `value` (the body and headers aside).
  std::string with(std::string_view value) const { return request(value).url; }
  // "parameter q", "POST parameter comment", "path segment 2", "header Referer".
  std::string label() const;
};

// One point per (URL, method, parameter) and per numeric path segment (one URL per path pattern
// such as /news/{n}), at most `max` in all.
std::vector<Point> injection_points(const crawl::CrawlResult& crawl, std::size_t max);

// The User-Agent (valued `user_agent`) and Referer (the page itself) points of up to `max_pages`
// distinct HTML pages.
std::vector<Point> header_points(const crawl::CrawlResult& crawl, const std::string& user_agent, std::size_t max_pages);

}  // namespace dozor::owasp
