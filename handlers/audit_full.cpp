// Full audits (issue 8 §3; docs/audit.md "Full audit and scoring", "Stored audits and evidence",
// "Batch"): decode, run the audit engine, store per user, encode.
#include <boost/json/array.hpp>
#include <map>

#include "db/services_repo.hpp"
#include "engines/audit/batch.hpp"
#include "engines/audit/full_audit.hpp"
#include "engines/audit/store.hpp"
#include "engines/report/audit_report.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

using Clock = std::chrono::steady_clock;

audit::AuditOptions base_options(const App& app, const char* kind) {
  return audit::audit_options(app.cfg.scanner, kind);
}

// depth and max_pages as the crawl route takes them; every invalid one is reported.
void apply_crawl_params(const http::Request& request, audit::AuditOptions& o) {
  std::vector<http::FieldIssue> issues;
  auto params = crawl_params(request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  o.depth = params.depth;
  o.max_pages = params.max_pages;
}

// The plan of an audit run for `user_id` (whose token the analyzer sees for the site's documents).
// `probing`: whether it may ask unlinked paths (audit_probing: the scan permission, logged).
audit::AuditPlan plan_for(const App& app, const std::string& kind, const std::string& target, std::int64_t user_id,
                          const audit::Probing& probing) {
  return audit::plan_for(*app.audit_data, app.cfg.scanner, kind, target,
                         audit::analyzer_access(app.cfg, app.jwt_key, user_id), probing);
}

Response run_and_store(UserContext& ctx, const char* kind) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto options = base_options(ctx.app, kind);
  apply_crawl_params(ctx.request, options);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto probing = audit_probing(ctx, target);
  auto report =
      audit::run_audit(target, ctx.app.egress, options, plan_for(ctx.app, kind, target, ctx.caller.id, probing));
  return Response::json(audit::store::save(ctx.app.db, ctx.caller.id, report));
}

std::vector<audit::Severity> severity_param(const http::Request& request, std::vector<http::FieldIssue>& issues) {
  std::vector<audit::Severity> out;
  auto raw = request.query_param("severity");
  if (!raw) return out;
  std::size_t start = 0;
  bool bad = false;
  while (start <= raw->size()) {
    auto comma = raw->find(',', start);
    auto name = raw->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (auto s = audit::severity_from(name))
      out.push_back(*s);
    else
      bad = true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (bad)
    issues.push_back({"enum",
                      boost::json::array{"query", "severity"},
                      "Input should be a comma-separated list of 'info', 'low', 'medium', 'high' or 'critical'",
                      boost::json::value(*raw),
                      {{"expected", "'info', 'low', 'medium', 'high' or 'critical'"}}});
  return out;
}

boost::json::object counts_json(const audit::AuditReport& r) {
  boost::json::object counts;
  for (std::size_t i = 0; i < r.counts.size(); ++i)
    counts[audit::to_string(static_cast<audit::Severity>(i))] = r.counts[i];
  return counts;
}

}  // namespace

Response audit_run(UserContext& ctx) { return run_and_store(ctx, "audit"); }

Response audit_full(UserContext& ctx) { return run_and_store(ctx, "full"); }

// GET /api{,/v1}/audit/{target_url}/report, GET /api/security/audit/download/{target_url}: the
// DOCX of the caller's latest stored audit of the target; an audit is run (and stored) when there
// is none yet, so the first download of a new target takes as long as an audit.
Response audit_report(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto lang = lang_param(ctx.request);
  auto options = base_options(ctx.app, "audit");
  apply_crawl_params(ctx.request, options);  // for the audit run when none is stored
  auto stored = audit::store::latest_or_run(ctx.app.db, ctx.caller.id, target, [&] {
    auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
    auto probing = audit_probing(ctx, target);
    return audit::run_audit(target, ctx.app.egress, options,
                            plan_for(ctx.app, "audit", target, ctx.caller.id, probing));
  });
  return docx_response(stored, lang);
}

// GET /api{,/v1}/audit/services: each service's latest stored audit (the dashboard's grades).
Response audit_service_grades(UserContext& ctx) {
  return Response::json(audit::store::service_grades(ctx.app.db, ctx.caller.id));
}

Response audit_evidence(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  std::vector<http::FieldIssue> issues;
  int limit = limits::kEvidenceListDefault;
  try {
    limit =
        static_cast<int>(query_int(ctx.request, "limit", limits::kEvidenceListDefault, 1, limits::kEvidenceListMax));
  } catch (http::ValidationFailed& e) {
    issues.insert(issues.end(), e.issues.begin(), e.issues.end());
  }
  auto severities = severity_param(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  return Response::json(audit::store::evidence(ctx.app.db, ctx.caller.id, target, severities, limit));
}

Response audit_batch(UserContext& ctx) {
  std::vector<db::services::Service> services;
  ctx.app.db.run([&](db::Connection& c) { services = db::services::list_by_user(c, ctx.caller.id); },
                 db::Retry::OnLostConnection);
  std::vector<audit::BatchItem> items;
  items.reserve(services.size());
  for (const auto& s : services) items.push_back({s.id, s.name, s.url});
  // Decided here, one by one, before the audits run in parallel (each decision is logged).
  std::map<std::int64_t, audit::Probing> probing;
  for (const auto& s : services)
    if (auto target = audit::store::service_target(s.url)) probing[s.id] = audit_probing(ctx, *target);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto base = base_options(ctx.app, "audit");
  auto deadline = Clock::now() + base.time_budget;
  const App& app = ctx.app;
  const std::int64_t user_id = ctx.caller.id;
  auto outcomes = audit::run_batch(items, limits::kBatchAuditConcurrency, deadline, [&](const audit::BatchItem& item) {
    auto target = audit::store::service_target(item.url);
    if (!target)
      throw std::runtime_error("not a web service (" + item.url.substr(0, item.url.find(':')) + "): nothing to audit");
    auto o = base;
    // The batch shares one budget: an audit started late gets only what is left of it.
    o.time_budget =
        std::min(o.time_budget, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    return audit::run_audit(*target, app.egress, o,
                            plan_for(app, "audit", *target, user_id, probing.at(item.service_id)));
  });
  boost::json::array rows;
  for (std::size_t i = 0; i < items.size(); ++i) {
    boost::json::object row{{"service_id", items[i].service_id},
                            {"name", items[i].name},
                            {"url", items[i].url},
                            {"audit_id", nullptr},
                            {"grade", nullptr},
                            {"score", nullptr},
                            {"counts", nullptr},
                            {"error", nullptr}};
    if (const auto& r = outcomes[i].report) {
      auto stored = audit::store::save(ctx.app.db, ctx.caller.id, *r);
      row["audit_id"] = stored["id"];
      row["grade"] = stored["grade"];
      row["score"] = stored["score"];
      row["counts"] = counts_json(*r);
      // An audit that could not grade the site says why (its first error).
      if (!r->score && !r->parts.errors.empty()) row["error"] = r->parts.errors.front().error;
    } else {
      row["error"] = outcomes[i].error;
    }
    rows.push_back(std::move(row));
  }
  return Response::json(rows);
}

}  // namespace dozor::handlers
