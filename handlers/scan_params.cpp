#include "handlers/scan_params.hpp"

#include <boost/json/array.hpp>

#include "db/services_repo.hpp"
#include "engines/audit/store.hpp"
#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/scan/access.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

CrawlParams crawl_params(const http::Request& request, std::vector<http::FieldIssue>& issues) {
  auto param = [&](const char* name, int fallback, int min, int max) {
    try {
      return static_cast<int>(query_int(request, name, fallback, min, max));
    } catch (http::ValidationFailed& e) {
      issues.insert(issues.end(), e.issues.begin(), e.issues.end());
      return fallback;
    }
  };
  return {param("depth", limits::kCrawlDepthDefault, 0, limits::kCrawlDepthMax),
          param("max_pages", limits::kCrawlPagesDefault, 1, limits::kCrawlPagesMax)};
}

report::Lang lang_param(const http::Request& request) {
  std::string code = request.query_param("lang").value_or("ru");
  if (auto lang = report::lang_from(code)) return *lang;
  throw http::ValidationFailed({{"enum",
                                 boost::json::array{"query", "lang"},
                                 "Input should be 'ru' or 'en'",
                                 boost::json::value(code),
                                 {{"expected", "'ru' or 'en'"}}}});
}

http::Response docx_response(const boost::json::object& stored, report::Lang lang) {
  http::Response r;
  r.content_type = std::string(report::kDocxContentType);
  r.body = report::render_audit_docx(stored, {lang, {}});
  r.headers.emplace_back("Content-Disposition", report::content_disposition(report::report_filename(stored)));
  return r;
}

std::string service_site(UserContext& ctx, std::int64_t service_id) {
  std::optional<db::services::Service> service;
  ctx.app.db.run([&](db::Connection& c) { service = db::services::find_owned(c, ctx.caller.id, service_id); },
                 db::Retry::OnLostConnection);
  if (!service) throw NotFound("Service not found");
  auto target = audit::store::service_target(service->url);
  if (!target)
    throw http::ValidationFailed({{"value_error",
                                   boost::json::array{"path", "service_id"},
                                   "Value error, the service watches a TCP port, not a web site: nothing to scan",
                                   boost::json::value(service_id),
                                   {}}});
  return *target;
}

std::shared_ptr<scan::Scope> require_scan(UserContext& ctx, const std::string& kind, const std::string& target,
                                          const char* via) {
  auto scope = scan::open_scope(ctx.app.db, ctx.caller, kind, target, via, scan::policy_of(ctx.app.cfg.scanner));
  if (!scope->target_decision().allowed) throw Forbidden(scan::refusal_message(scope->target_decision(), target));
  return scope;
}

boost::json::array scope_json(const scan::Scope& scope) {
  boost::json::array out;
  for (const auto& e : scope.entries())
    out.push_back(
        {{"origin", e.origin}, {"allowed", e.decision.allowed}, {"reason", scan::to_string(e.decision.reason)}});
  return out;
}

audit::Probing audit_probing(UserContext& ctx, const std::string& target) {
  auto scope =
      scan::open_scope(ctx.app.db, ctx.caller, "audit-probes", target, "inline", scan::policy_of(ctx.app.cfg.scanner));
  return scan::audit_probing(scope);
}

}  // namespace dozor::handlers
