#pragma once
// What every scanning route (headers, crawl, compliance, audits, reports) reads the same way: the
// scanner settings of the config and the crawl's query parameters (docs/audit.md).
#include <vector>

#include "engines/audit/geo/geo.hpp"
#include "engines/config/config.hpp"
#include "engines/net/scan_client.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/request.hpp"

namespace dozor::handlers {

// scanner.* as the scan client's options: CA file, request timeout, body cap, per-host politeness.
net::ScanOptions scan_options(const config::ScannerConfig& c);

// scanner.geoip_db and the lookup's timeout as the geolocation engine's options.
audit::geo::GeoOptions geo_options(const config::ScannerConfig& c);

struct CrawlParams {
  int depth;
  int max_pages;
};

// ?depth= (0..limits::kCrawlDepthMax) and ?max_pages= (1..limits::kCrawlPagesMax) with their
// defaults; each invalid one is appended to `issues`, so a route reports all of its bad
// parameters at once.
CrawlParams crawl_params(const http::Request& request, std::vector<http::FieldIssue>& issues);

}  // namespace dozor::handlers
