// GET /api/security/endpoints/{target_url}?timeout=5 (docs/scan.md "Endpoint discovery"): decode
// the target and the timeout (limits::endpoints, 422 outside), run the discovery inline, encode.
#include "engines/limits.hpp"
#include "engines/scan/endpoints/discover.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response endpoints_discover(UserContext& ctx) {
  namespace L = limits::endpoints;
  auto target = path_target_url(ctx.path.at("target_url"));
  auto timeout = query_int(ctx.request, "timeout", L::kTimeoutDefault, L::kTimeoutMin, L::kTimeoutMax);
  auto scope = require_scan(ctx, "endpoints", target);  // a wordlist of paths is probing: an active scan
  endpoints::Options o;
  o.timeout = std::chrono::seconds(timeout);
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.scan.scope = scope->gate();
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = endpoints::discover(target, ctx.app.egress, ctx.app.audit_data->endpoint_paths, std::move(o));
  auto body = endpoints::to_json(result);
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}

}  // namespace dozor::handlers
