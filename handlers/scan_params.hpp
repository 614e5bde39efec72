#pragma once
// What every scanning route (headers, crawl, compliance, audits, reports) reads the same way: the
// scanner settings of the config, the crawl's query parameters, the report language, the site a
// service watches (docs/audit.md).
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engines/audit/compose.hpp"
#include "engines/report/audit_report.hpp"
#include "engines/scan/access.hpp"
#include "engines/tasks/kinds.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/request.hpp"
#include "handlers/context.hpp"

namespace dozor::handlers {

// scan_options, geo_options, audit_options and plan_for: engines/audit/compose.hpp (dozord's
// tasks compose scans the same way).
using audit::geo_options;
using audit::scan_options;

struct CrawlParams {
  int depth;
  int max_pages;
};

// ?depth= (0..limits::kCrawlDepthMax) and ?max_pages= (1..limits::kCrawlPagesMax) with their
// defaults; each invalid one is appended to `issues`, so a route reports all of its bad
// parameters at once.
CrawlParams crawl_params(const http::Request& request, std::vector<http::FieldIssue>& issues);

// ?lang=ru|en (default ru) for the DOCX reports; anything else is a 422.
report::Lang lang_param(const http::Request& request);

// A stored audit or OWASP scan as a DOCX download named after its target and day.
http::Response docx_response(const boost::json::object& stored, report::Lang lang);

// The web site a service of the caller watches (the target its audits and scans are stored
// under): NotFound for another user's service, 422 for a tcp:// service (a port, not a site).
std::string service_site(UserContext& ctx, std::int64_t service_id);

// An active scan (`kind`: owasp, scanner, xxe …) of `target` by the caller, run inline or queued
// (`via`): logged, and Forbidden unless engines/scan/access allows it. The scope decides every
// other origin the scan would touch: give scope->gate() to the scan's net::ScanOptions::scope.
std::shared_ptr<scan::Scope> require_scan(UserContext& ctx, const std::string& kind, const std::string& target,
                                          const char* via = "inline");

// The origins a scan decided on, for its answer: [{origin, allowed, reason}].
boost::json::array scope_json(const scan::Scope& scope);

// Whether the audit of `target` may probe paths the site did not link (exposures, technology
// probes): the active-scan decision, logged as kind "audit-probes".
audit::Probing audit_probing(UserContext& ctx, const std::string& target);

// The optional JSON body of a task kind (POST /api/security/queue/…, the auth scan's route) as
// its options for `target`: 422 for unknown keys, out-of-bounds values and the kind's own rules
// (KindSpec::check; never echoing a value) (handlers/tasks.cpp).
boost::json::object decode_kind_options(const http::Request& request, const tasks::KindSpec& kind,
                                        const std::string& target);

}  // namespace dozor::handlers
