// GET /api{,/v1}/audit/tls/{target_url} (docs/audit.md "TLS"): decode the target, run the TLS check, encode.
#include <boost/json/array.hpp>

#include "engines/audit/tls/check.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response audit_tls(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  audit::tls::TlsOptions o;
  o.scan = scan_options(ctx.app.cfg.scanner);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::tls::check_tls(target, ctx.app.egress, o);
  auto out = audit::tls::to_json(report);
  boost::json::array findings;
  for (const auto& f : audit::tls::findings_of(report, true)) findings.push_back(audit::to_json(f));
  out["findings"] = std::move(findings);
  return Response::json(std::move(out));
}

}  // namespace dozor::handlers
