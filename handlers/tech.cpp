// GET /api{,/v1}/cms/{target_url}: technologies and vulnerable JavaScript libraries of one page
// (issue 8 §2; docs/audit.md "Technologies"): decode the target, run the engine, encode.
#include "engines/audit/tech/site_check.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response cms_detect(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto probing = audit_probing(ctx, target);  // the fingerprints' probes of unlinked paths
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  const auto& data = *ctx.app.audit_data;
  auto report = audit::tech::detect_site(target, ctx.app.egress, scan_options(ctx.app.cfg.scanner), data.tech,
                                         data.vulnlibs, probing);
  return Response::json(audit::tech::to_json(report, data.tech));
}

}  // namespace dozor::handlers
