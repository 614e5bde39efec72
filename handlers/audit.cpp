// Passive audit routes (issue 8; docs/audit.md): decode the target, run one engine, encode.
#include "engines/audit/compliance/engine.hpp"
#include "engines/audit/headers/check.hpp"
#include "engines/crawl/crawler.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

net::ScanOptions scan_options(const config::ScannerConfig& c) {
  net::ScanOptions o;
  o.ca_file = c.ca_file;
  o.request_timeout = std::chrono::seconds(c.request_timeout);
  o.max_body = static_cast<std::size_t>(c.max_body_bytes);
  o.per_host_concurrency = static_cast<std::size_t>(c.per_host_concurrency);
  o.per_host_interval = std::chrono::milliseconds(c.per_host_interval_ms);
  return o;
}

}  // namespace

Response audit_headers(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::headers::check_headers(target, ctx.app.egress, scan_options(ctx.app.cfg.scanner));
  return Response::json(audit::headers::to_json(report));
}

Response crawl_site(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  crawl::CrawlOptions o;
  std::vector<http::FieldIssue> issues;  // every invalid parameter is reported, not the first
  auto param = [&](const char* name, int fallback, int min, int max) {
    try {
      return static_cast<int>(query_int(ctx.request, name, fallback, min, max));
    } catch (http::ValidationFailed& e) {
      issues.insert(issues.end(), e.issues.begin(), e.issues.end());
      return fallback;
    }
  };
  o.depth = param("depth", limits::kCrawlDepthDefault, 0, limits::kCrawlDepthMax);
  o.max_pages = param("max_pages", limits::kCrawlPagesDefault, 1, limits::kCrawlPagesMax);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.time_budget = std::chrono::seconds(ctx.app.cfg.scanner.crawl_seconds);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = crawl::crawl(target, ctx.app.egress, o);
  return Response::json(crawl::to_json(result));
}

// GET /api{,/v1}/compliance/{target_url}?profile=auto|gov|commercial&depth=&max_pages= (docs/compliance.md).
Response compliance_check(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  crawl::CrawlOptions o;
  std::vector<http::FieldIssue> issues;
  auto param = [&](const char* name, int fallback, int min, int max) {
    try {
      return static_cast<int>(query_int(ctx.request, name, fallback, min, max));
    } catch (http::ValidationFailed& e) {
      issues.insert(issues.end(), e.issues.begin(), e.issues.end());
      return fallback;
    }
  };
  o.depth = param("depth", limits::kCrawlDepthDefault, 0, limits::kCrawlDepthMax);
  o.max_pages = param("max_pages", limits::kCrawlPagesDefault, 1, limits::kCrawlPagesMax);
  std::string profile_text = ctx.request.query_param("profile").value_or("auto");
  auto profile = audit::compliance::profile_from(profile_text);
  if (!profile)
    issues.push_back({"enum", boost::json::array{"query", "profile"}, "Input should be 'auto', 'gov' or 'commercial'",
                      boost::json::value(profile_text),
                      boost::json::object{{"expected", "'auto', 'gov' or 'commercial'"}}});
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.time_budget = std::chrono::seconds(ctx.app.cfg.scanner.crawl_seconds);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::compliance::check(target, ctx.app.egress, o, ctx.app.audit_data->compliance, *profile);
  boost::json::object out = audit::compliance::to_json(report.result);
  boost::json::array findings;
  for (const auto& f : audit::compliance::findings_of(report.result)) findings.push_back(audit::to_json(f));
  out["target"] = target;
  out["duration_ms"] = report.duration_ms;
  out["findings"] = std::move(findings);
  if (report.result.error)
    out["error"] = *report.result.error;
  else
    out["error"] = nullptr;
  return Response::json(std::move(out));
}

}  // namespace dozor::handlers
