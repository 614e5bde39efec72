// POST /api{,/v1}/owasp/scan/{target_url} and /api/security/owasp/scan/{target_url}?depth=&max_pages=
// (docs/scan.md "OWASP scan"): decode the target, run the OWASP scan inline, encode.
#include "engines/scan/owasp/owasp.hpp"
#include "engines/scan/oast/store.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response owasp_scan(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  std::vector<http::FieldIssue> issues;
  auto params = crawl_params(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  owasp::OwaspOptions o;
  o.depth = params.depth;
  o.max_pages = params.max_pages;
  o.scan = scan_options(ctx.app.cfg.scanner);
  oast::DbStore store(ctx.app.db);  // out-of-band proofs of XXE and SSRF (docs/scan.md)
  o.oast_base_url = ctx.app.cfg.scanner.oast_base_url;
  o.oast_store = &store;
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = owasp::scan(target, ctx.app.egress, ctx.app.audit_data->sql_errors, std::move(o));
  return Response::json(owasp::to_json(result));
}

}  // namespace dozor::handlers
