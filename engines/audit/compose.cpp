#include "engines/audit/compose.hpp"

#include <algorithm>

#include "engines/analyzer/remote.hpp"
#include "engines/audit/compliance/audit_plug.hpp"
#include "engines/audit/exposures/exposures.hpp"
#include "engines/audit/tech/audit_plug.hpp"
#include "engines/audit/tls/check.hpp"

namespace dozor::audit {

net::ScanOptions scan_options(const config::ScannerConfig& c) {
  net::ScanOptions o;
  o.ca_file = c.ca_file;
  o.request_timeout = std::chrono::seconds(c.request_timeout);
  o.max_body = static_cast<std::size_t>(c.max_body_bytes);
  o.per_host_concurrency = static_cast<std::size_t>(c.per_host_concurrency);
  o.per_host_interval = std::chrono::milliseconds(c.per_host_interval_ms);
  return o;
}

geo::GeoOptions geo_options(const config::ScannerConfig& c) {
  geo::GeoOptions o;
  o.mmdb_path = c.geoip_db;
  o.resolve_timeout = std::chrono::seconds(c.request_timeout);
  return o;
}

AuditOptions audit_options(const config::ScannerConfig& c, const std::string& kind) {
  AuditOptions o;
  o.kind = kind;
  o.scan = scan_options(c);
  o.time_budget = std::chrono::seconds(c.audit_seconds);
  o.crawl_budget = std::chrono::seconds(c.crawl_seconds);
  return o;
}

AuditPlan plan_for(const AuditData& data, const config::ScannerConfig& c, const std::string& kind,
                   const std::string& target, documents::AnalyzerAccess analyzer, const Probing& probing) {
  auto plan = standard_plan(data.passive);
  tech::add_to_plan(plan, data.tech, data.vulnlibs, probing);
  // Before compliance's evaluation (added next), so that it can run in the time left.
  plan.after_crawl.push_back(documents::step(std::move(analyzer)));
  compliance::add_to_plan(plan, data.compliance, target);
  if (probing.allowed)
    plan.after_crawl.push_back(exposures::step(data.exposures, probing.scope));
  else
    plan.skipped.push_back({"exposures", probing.reason,
                            skipped_detail("The exposure probes (/.git/, /.env, backups, logs …)", probing.reason)});
  plan.after_crawl.push_back(tls::tls_step());
  if (kind == "full") plan.after_crawl.push_back(geo::geo_step(geo_options(c)));
  return plan;
}

documents::AnalyzerAccess analyzer_access(const config::Config& cfg, std::string_view jwt_key, std::int64_t user_id) {
  documents::AnalyzerAccess a;
  std::string base = analyzer::remote::base_url(cfg.analyzer.listen);
  if (base.empty()) return a;  // the default reason: no analyzer.listen
  if (jwt_key.empty()) {
    a.unavailable = "this process cannot read the signing key (auth.jwt_secret_file) the analyzer checks";
    return a;
  }
  auto longest = std::max(cfg.scanner.audit_seconds, cfg.tasks.task_seconds);
  a.base_url = std::move(base);
  a.token = analyzer::remote::token_for(jwt_key, user_id, std::chrono::seconds(longest + 60));
  return a;
}

ComplianceReport compliance_check(const std::string& target, const net::EgressPolicy& policy,
                                  crawl::CrawlOptions options, const AuditData& data, compliance::Profile profile,
                                  const config::ScannerConfig& c, const documents::AnalyzerAccess& analyzer) {
  ComplianceReport r;
  net::ScanOptions scan = options.scan;
  r.check = compliance::check(target, policy, std::move(options), data.compliance, profile);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(c.audit_seconds) / 2;
  r.documents = documents::read(r.check.documents, policy, std::move(scan), deadline, analyzer);
  return r;
}

std::function<std::vector<std::unique_ptr<PageObserver>>()> page_observers_for(const AuditData& data,
                                                                               const config::ScannerConfig& c,
                                                                               std::string target) {
  return [&data, &c, target = std::move(target)] { return plan_for(data, c, "audit", target).observers; };
}

}  // namespace dozor::audit
