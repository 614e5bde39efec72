#include "handlers/scan_params.hpp"

#include "engines/limits.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

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
