#pragma once
// The composition of scans from the configuration, shared by the inline routes (dozor-fcgi)
// and background tasks (dozord), so both run exactly the same audit (docs/audit.md).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/compliance/engine.hpp"
#include "engines/audit/data.hpp"
#include "engines/audit/documents/documents.hpp"
#include "engines/audit/full_audit.hpp"
#include "engines/audit/geo/geo.hpp"
#include "engines/config/config.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit {

// scanner.* as the scan client's options: CA file, request timeout, body cap, per-host politeness.
net::ScanOptions scan_options(const config::ScannerConfig& c);

// scanner.geoip_db and the lookup's timeout as the geolocation engine's options.
geo::GeoOptions geo_options(const config::ScannerConfig& c);

// An audit of `kind` ("audit" or "full") with scanner.audit_seconds and scanner.crawl_seconds.
AuditOptions audit_options(const config::ScannerConfig& c, const std::string& kind);

// The checks of an audit of `target` (issue 8 §3): the header grade, then one crawl read by the
// passive rules, the technology detector and the compliance engine, then the site's documents
// read by the analyzer (issue 11 §2), exposures, TLS, compliance's evaluation and, for "full",
// geolocation.
// Exposures and the probes of unlinked paths only with `probing` allowed (else in plan.skipped).
AuditPlan plan_for(const AuditData& data, const config::ScannerConfig& c, const std::string& kind,
                   const std::string& target, documents::AnalyzerAccess analyzer = {}, const Probing& probing = {});

// The analyzer as an audit run for `user_id` reaches it: analyzer.listen and a token for that
// user valid as long as the longest audit may run. Without the signing key (an empty
// `jwt_key`) or an analyzer.listen, no access; the documents step then records why.
documents::AnalyzerAccess analyzer_access(const config::Config& cfg, std::string_view jwt_key, std::int64_t user_id);

// The compliance route (docs/compliance.md): its own crawl and evaluation, then the site's
// documents read by the analyzer in at most half of scanner.audit_seconds.
struct ComplianceReport {
  compliance::CheckReport check;
  documents::Reading documents;
};
ComplianceReport compliance_check(const std::string& target, const net::EgressPolicy& policy,
                                  crawl::CrawlOptions options, const AuditData& data, compliance::Profile profile,
                                  const config::ScannerConfig& c, const documents::AnalyzerAccess& analyzer);

// A fresh set of the audit's page observers for `target` per call (plan_for(…, "audit", …)'s): the
// auth scan reads its anonymous and its logged-in pages with them. `data` and `c` must outlive it.
std::function<std::vector<std::unique_ptr<PageObserver>>()> page_observers_for(const AuditData& data,
                                                                               const config::ScannerConfig& c,
                                                                               std::string target);

}  // namespace dozor::audit
