#include "handlers/scan_params.hpp"

#include "engines/limits.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

net::ScanOptions scan_options(const config::ScannerConfig& c) {
  net::ScanOptions o;
  o.ca_file = c.ca_file;
  o.request_timeout = std::chrono::seconds(c.request_timeout);
  o.max_body = static_cast<std::size_t>(c.max_body_bytes);
  o.per_host_concurrency = static_cast<std::size_t>(c.per_host_concurrency);
  o.per_host_interval = std::chrono::milliseconds(c.per_host_interval_ms);
  return o;
}

audit::geo::GeoOptions geo_options(const config::ScannerConfig& c) {
  audit::geo::GeoOptions o;
  o.mmdb_path = c.geoip_db;
  o.resolve_timeout = std::chrono::seconds(c.request_timeout);
  return o;
}

CrawlParams crawl_params(const http::Request& request, std::vector<http::FieldIssue>& issues) {
  auto param = [&](const char* name, int fallback, int min, int max) {
    try {
      return static_cast<int>(query_int(request, name, fallback, min, max));
    } catch (http::ValidationFailed& e) {
      issues.insert(issues.end(), e.issues.begin(), e.issues.end());
      return fallback;
    }
  };
  return {param("depth", limits::kCrawlDepthDefault, 0, limits::kCrawlDepthMax),
          param("max_pages", limits::kCrawlPagesDefault, 1, limits::kCrawlPagesMax)};
}

}  // namespace dozor::handlers
