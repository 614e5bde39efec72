// POST /api/security/api-check/{target_url}?max_operations= (and /api/api-check/…; docs/scan.md
// "API check"): decode the target, check the caller may scan it, run the check inline, encode.
#include "engines/scan/api/api_check.hpp"

#include "engines/limits.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response api_check(UserContext& ctx) {
  namespace L = limits::api;
  auto target = path_target_url(ctx.path.at("target_url"));
  auto max_operations = query_int(ctx.request, "max_operations", static_cast<std::int64_t>(L::kOperations), 1,
                                  static_cast<std::int64_t>(L::kOperations));
  auto scope = require_scan(ctx, "api-check", target);
  api::Options o;
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.scan.scope = scope->gate();  // the API document's final URL and servers: the same decision
  o.max_operations = static_cast<std::size_t>(max_operations);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = api::check(target, ctx.app.egress, ctx.app.audit_data->endpoint_paths, ctx.app.audit_data->jwt_secrets,
                           std::move(o));
  auto body = api::to_json(result);
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}

}  // namespace dozor::handlers
