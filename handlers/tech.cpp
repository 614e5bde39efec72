// GET /api{,/v1}/cms/{target_url}: technologies and vulnerable JavaScript libraries of one page
// (issue 8 §2; docs/audit.md "Technologies"): decode the target, run the engine, encode.
#include "engines/audit/tech/site_check.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

// The same scanner settings as the header grade and the crawl (handlers/audit.cpp).
net::ScanOptions tech_scan_options(const config::ScannerConfig& c) {
  net::ScanOptions o;
  o.ca_file = c.ca_file;
  o.request_timeout = std::chrono::seconds(c.request_timeout);
  o.max_body = static_cast<std::size_t>(c.max_body_bytes);
  o.per_host_concurrency = static_cast<std::size_t>(c.per_host_concurrency);
  o.per_host_interval = std::chrono::milliseconds(c.per_host_interval_ms);
  return o;
}

}  // namespace

Response cms_detect(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  const auto& data = *ctx.app.audit_data;
  auto report = audit::tech::detect_site(target, ctx.app.egress, tech_scan_options(ctx.app.cfg.scanner), data.tech,
                                         data.vulnlibs);
  return Response::json(audit::tech::to_json(report, data.tech));
}

}  // namespace dozor::handlers
