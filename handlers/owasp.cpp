// The OWASP Top 10 scan (docs/scan.md "OWASP scan", "Stored OWASP reports"):
// POST /api{,/v1}/owasp/scan/{target_url}, /api/security/owasp/scan/{target_url}?depth=&max_pages=
// run it inline and store it; GET /api{,/v1}/owasp/report|summary/{service_id} read the stored
// scans of a service; GET /api/security/owasp/report/{target_url}?lang= is the DOCX.
#include "engines/scan/owasp/owasp.hpp"
#include "engines/errors.hpp"
#include "engines/scan/oast/store.hpp"
#include "engines/scan/owasp/stored.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

owasp::OwaspOptions options_for(UserContext& ctx) {
  std::vector<http::FieldIssue> issues;
  auto params = crawl_params(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  owasp::OwaspOptions o;
  o.depth = params.depth;
  o.max_pages = params.max_pages;
  o.scan = scan_options(ctx.app.cfg.scanner);
  return o;
}

owasp::OwaspResult run_scan(UserContext& ctx, const std::string& target, owasp::OwaspOptions o) {
  oast::DbStore store(ctx.app.db);  // out-of-band proofs of XXE and SSRF (docs/scan.md)
  o.oast_base_url = ctx.app.cfg.scanner.oast_base_url;
  o.oast_store = &store;
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  return owasp::scan(target, ctx.app.egress, ctx.app.audit_data->sql_errors, std::move(o));
}

constexpr const char* kNoScanYet =
    "No OWASP scan of this service yet: run POST /api/owasp/scan/{target_url} or schedule one";

}  // namespace

Response owasp_scan(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto options = options_for(ctx);
  auto scope = require_scan(ctx, "owasp", target);
  options.scan.scope = scope->gate();
  auto result = run_scan(ctx, target, std::move(options));
  auto body = owasp::scan_answer(result, owasp::save(ctx.app.db, ctx.caller.id, result));
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}

// The newest stored scan of the service's site, as stored.
Response owasp_report(UserContext& ctx) {
  auto target = service_site(ctx, path_int(ctx.path.at("service_id"), "service_id", 1));
  auto scans = owasp::newest(ctx.app.db, ctx.caller.id, target, 1);
  if (scans.empty()) throw NotFound(kNoScanYet);
  return Response::json(std::move(scans.front()));
}

Response owasp_summary(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  auto target = service_site(ctx, id);
  auto scans = owasp::newest(ctx.app.db, ctx.caller.id, target, 2);
  if (scans.empty()) throw NotFound(kNoScanYet);
  auto body = owasp::summary_json(scans.front(), scans.size() > 1 ? &scans[1] : nullptr);
  body["service_id"] = id;
  return Response::json(std::move(body));
}

// The DOCX of the caller's newest stored scan of the target; a scan is run (and stored) when
// there is none yet, as the audit report does.
Response owasp_report_docx(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto lang = lang_param(ctx.request);
  auto options = options_for(ctx);
  auto scans = owasp::newest(ctx.app.db, ctx.caller.id, target, 1);
  if (scans.empty()) {
    options.scan.scope = require_scan(ctx, "owasp", target)->gate();
    scans.push_back(owasp::save(ctx.app.db, ctx.caller.id, run_scan(ctx, target, std::move(options))));
  }
  return docx_response(scans.front(), lang);
}

}  // namespace dozor::handlers
