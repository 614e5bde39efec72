// GET /api/audit/geo/{target_url} (docs/audit.md "Geolocation"): decode the target, locate its addresses, encode.
#include <boost/json/array.hpp>

#include "engines/audit/geo/geo.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response audit_geo(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto o = geo_options(ctx.app.cfg.scanner);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::geo::locate(target, o, ctx.app.egress);
  auto out = audit::geo::to_json(report);
  boost::json::array findings;
  for (const auto& f : audit::geo::findings_of(report)) findings.push_back(audit::to_json(f));
  out["findings"] = std::move(findings);
  return Response::json(std::move(out));
}

}  // namespace dozor::handlers
