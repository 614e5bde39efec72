// POST /api/security/scanner/{target_url}?severity=critical,high (docs/audit.md "Template scanner"):
// decode the target and the severities, run the scan (engines/scan/templates/site_scan.hpp).
#include <boost/json/array.hpp>
#include <chrono>

#include "engines/limits.hpp"
#include "engines/scan/templates/site_scan.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

namespace tpl = scan::templates;

// ?severity=a,b (absent or empty: critical,high,medium,low, spec §4.6); every unknown name is a 422 issue.
std::set<audit::Severity> severities(const http::Request& request, std::vector<http::FieldIssue>& issues) {
  auto list = audit::severities_from(request.query_param("severity").value_or(""));
  for (const auto& one : list.unknown)
    issues.push_back({"enum", boost::json::array{"query", "severity"},
                      "Input should be " + std::string(audit::kSeverityChoices), boost::json::value(one),
                      boost::json::object{{"expected", audit::kSeverityChoices}}});
  return list.wanted;
}

}  // namespace

Response scanner_run(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  std::vector<http::FieldIssue> issues;
  auto wanted = severities(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  auto scope = require_scan(ctx, "scanner", target);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(ctx.app.cfg.scanner.audit_seconds);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto scan = scan_options(ctx.app.cfg.scanner);
  scan.scope = scope->gate();
  auto body = tpl::scan_site(target, ctx.app.cfg, ctx.app.egress, wanted, scan, deadline);
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}

}  // namespace dozor::handlers
