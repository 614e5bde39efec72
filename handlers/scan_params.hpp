#pragma once
// What every scanning route (headers, crawl, compliance, audits, reports) reads the same way: the
// scanner settings of the config and the crawl's query parameters (docs/audit.md).
#include <vector>

#include "engines/audit/compose.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/request.hpp"

namespace dozor::handlers {

// scan_options, geo_options, audit_options and plan_for: engines/audit/compose.hpp (dozord's
// tasks compose scans the same way).
using audit::geo_options;
using audit::scan_options;

struct CrawlParams {
  int depth;
  int max_pages;
};

// ?depth= (0..limits::kCrawlDepthMax) and ?max_pages= (1..limits::kCrawlPagesMax) with their
// defaults; each invalid one is appended to `issues`, so a route reports all of its bad
// parameters at once.
CrawlParams crawl_params(const http::Request& request, std::vector<http::FieldIssue>& issues);

}  // namespace dozor::handlers
