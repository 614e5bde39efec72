// POST /api/security/auth-scan/{target_url} with an optional JSON body of credentials
// (docs/scan.md "Auth scan"): decode the target and the body (unknown keys a 422, the same
// options as the auth-scan task), check the caller may scan the target, run the scan inline
// (with the passive audit's page observers for the logged-in pages).
#include "engines/scan/auth/auth_scan.hpp"

#include <boost/json/array.hpp>

#include "engines/audit/compose.hpp"
#include "engines/tasks/kinds.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response auth_scan(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto options = decode_kind_options(ctx.request, *tasks::find_kind("auth-scan"), target);
  auto scope = require_scan(ctx, "auth-scan", target);
  authscan::AuthOptions o;
  o.credentials = authscan::credentials_from(options);
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.scan.scope = scope->gate();
  // Logged in, the passive audit's page observers read the pages too (the full audit's set).
  o.page_observers = audit::page_observers_for(*ctx.app.audit_data, ctx.app.cfg.scanner, target);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = authscan::scan(target, ctx.app.egress, ctx.app.audit_data->default_credentials,
                               ctx.app.audit_data->tech, std::move(o));
  auto body = authscan::to_json(result);
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}

}  // namespace dozor::handlers
