// GET /api/audit/xxe/{target_url} and GET /api/audit/ssrf/{target_url} (?depth=&max_pages=), and the
// unauthenticated interaction endpoint /oast/{token}[/…] (any method) that proves them out of band
// (docs/scan.md "XXE and SSRF").
#include "engines/scan/oast/store.hpp"
#include "engines/scan/owasp/owasp.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

namespace {
Response run(UserContext& ctx, bool xxe) {
  auto target = path_target_url(ctx.path.at("target_url"));
  std::vector<http::FieldIssue> issues;
  auto params = crawl_params(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  auto scope = require_scan(ctx, xxe ? "xxe" : "ssrf", target);
  oast::DbStore store(ctx.app.db);
  owasp::OwaspOptions o;
  o.depth = params.depth;
  o.max_pages = params.max_pages;
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.scan.scope = scope->gate();
  o.classic = false;
  o.xxe = xxe;
  o.ssrf = !xxe;
  o.oast_base_url = ctx.app.cfg.scanner.oast_base_url;
  o.oast_store = &store;
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = owasp::scan(target, ctx.app.egress, ctx.app.audit_data->sql_errors, std::move(o));
  auto body = owasp::to_json(result);
  body["scope"] = scope_json(*scope);
  return Response::json(std::move(body));
}
}  // namespace

Response audit_xxe(UserContext& ctx) { return run(ctx, true); }
Response audit_ssrf(UserContext& ctx) { return run(ctx, false); }

Response oast_interaction(Context& ctx) {
  const auto& req = ctx.request;
  auto token = oast::token_of_path(req.raw_path);
  if (!token) return Response::error(404, "Not Found");
  std::vector<std::pair<std::string, std::string>> headers(req.headers.begin(), req.headers.end());
  auto answer =
      oast::record(ctx.app.db, oast::capture(*token, req.remote_addr, req.method, req.raw_target, headers, req.body));
  if (!answer.known) return Response::error(404, "Not Found");
  Response r;
  r.content_type = "text/plain; charset=utf-8";
  r.body = answer.marker;
  return r;
}

}  // namespace dozor::handlers
