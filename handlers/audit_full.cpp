// Full audits (issue 8 §3; docs/audit.md "Full audit and scoring", "Stored audits and evidence",
// "Batch"): decode, run the audit engine, store per user, encode.
#include <boost/json/array.hpp>

#include "db/services_repo.hpp"
#include "engines/audit/batch.hpp"
#include "engines/audit/full_audit.hpp"
#include "engines/audit/geo/geo.hpp"
#include "engines/audit/store.hpp"
#include "engines/audit/tls/check.hpp"
#include "engines/net/url_check.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

using Clock = std::chrono::steady_clock;

// The same scanner settings as the header grade and the crawl (handlers/audit.cpp).
net::ScanOptions scanner_options(const config::ScannerConfig& c) {
  net::ScanOptions o;
  o.ca_file = c.ca_file;
  o.request_timeout = std::chrono::seconds(c.request_timeout);
  o.max_body = static_cast<std::size_t>(c.max_body_bytes);
  o.per_host_concurrency = static_cast<std::size_t>(c.per_host_concurrency);
  o.per_host_interval = std::chrono::milliseconds(c.per_host_interval_ms);
  return o;
}

audit::AuditOptions base_options(const App& app, const char* kind) {
  audit::AuditOptions o;
  o.kind = kind;
  o.scan = scanner_options(app.cfg.scanner);
  o.time_budget = std::chrono::seconds(app.cfg.scanner.audit_seconds);
  o.crawl_budget = std::chrono::seconds(app.cfg.scanner.crawl_seconds);
  return o;
}

// depth and max_pages as the crawl route takes them; every invalid one is reported.
void crawl_params(const http::Request& request, audit::AuditOptions& o) {
  std::vector<http::FieldIssue> issues;
  auto param = [&](const char* name, int fallback, int min, int max) {
    try {
      return static_cast<int>(query_int(request, name, fallback, min, max));
    } catch (http::ValidationFailed& e) {
      issues.insert(issues.end(), e.issues.begin(), e.issues.end());
      return fallback;
    }
  };
  o.depth = param("depth", limits::kCrawlDepthDefault, 0, limits::kCrawlDepthMax);
  o.max_pages = param("max_pages", limits::kCrawlPagesDefault, 1, limits::kCrawlPagesMax);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
}

// The checks of an audit of `kind`. Engines that land later (technologies, compliance as page
// observers; TLS, exposures as steps; geolocation for "full") are added here.
audit::AuditPlan plan_for(const App& app, const std::string& kind) {
  auto plan = audit::standard_plan(app.audit_data->passive);
  plan.after_crawl.push_back(audit::tls::tls_step());
  if (kind == "full") plan.after_crawl.push_back(audit::geo::geo_step({app.cfg.scanner.geoip_db}));
  return plan;
}

Response run_and_store(UserContext& ctx, const char* kind) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto options = base_options(ctx.app, kind);
  crawl_params(ctx.request, options);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto report = audit::run_audit(target, ctx.app.egress, options, plan_for(ctx.app, kind));
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
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto base = base_options(ctx.app, "audit");
  auto deadline = Clock::now() + base.time_budget;
  const App& app = ctx.app;
  auto outcomes = audit::run_batch(items, limits::kBatchAuditConcurrency, deadline, [&](const audit::BatchItem& item) {
    if (net::check_http_url(item.url))
      throw std::runtime_error("not a web service (" + item.url.substr(0, item.url.find(':')) + "): nothing to audit");
    auto o = base;
    // The batch shares one budget: an audit started late gets only what is left of it.
    o.time_budget =
        std::min(o.time_budget, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    return audit::run_audit(net::normalize_http_url(item.url), app.egress, o, plan_for(app, "audit"));
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
