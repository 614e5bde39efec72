// Passive audit routes (issue 8; docs/audit.md): decode the target, run one engine, encode.
#include "engines/audit/compliance/engine.hpp"
#include "engines/audit/headers/check.hpp"
#include "engines/crawl/crawler.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response audit_headers(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::headers::check_headers(target, ctx.app.egress, scan_options(ctx.app.cfg.scanner));
  return Response::json(audit::headers::to_json(report));
}

Response crawl_site(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  crawl::CrawlOptions o;
  std::vector<http::FieldIssue> issues;
  auto params = crawl_params(ctx.request, issues);
  o.depth = params.depth;
  o.max_pages = params.max_pages;
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
  auto params = crawl_params(ctx.request, issues);
  o.depth = params.depth;
  o.max_pages = params.max_pages;
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
  auto both = audit::compliance_check(target, ctx.app.egress, o, *ctx.app.audit_data, *profile, ctx.app.cfg.scanner,
                                      audit::analyzer_access(ctx.app.cfg, ctx.app.jwt_key, ctx.caller.id));
  const auto& report = both.check;
  boost::json::object out = audit::compliance::to_json(report.result);
  boost::json::array findings;
  for (const auto& f : audit::compliance::findings_of(report.result)) findings.push_back(audit::to_json(f));
  for (const auto& f : both.documents.findings) findings.push_back(audit::to_json(f));
  out["target"] = target;
  out["duration_ms"] = report.duration_ms;
  out["findings"] = std::move(findings);
  if (report.result.error)
    out["error"] = *report.result.error;
  else
    out["error"] = nullptr;
  out["documents"] = std::move(both.documents.part);
  if (!both.documents.error.empty()) out["documents"].as_object()["error"] = both.documents.error;
  return Response::json(std::move(out));
}

}  // namespace dozor::handlers
