#pragma once
// A template scan of one site as the API answers it, shared by the inline route
// (POST /api/security/scanner/{target}) and the `scanner` task kind: the template folders of the
// configuration loaded, the run, the answer JSON (docs/audit.md "Template scanner").
#include <boost/json/object.hpp>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/config/config.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::scan::templates {

// The shipped set (share/scan/templates beside paths.audit_data), then scanner.templates_dirs.
std::vector<std::filesystem::path> template_dirs(const config::Config& cfg);

// The severities scanned when the caller names none: the spec's default (§4.6)
// `critical,high,medium,low`; info templates (panels, documentation pages) run only when asked.
std::set<audit::Severity> default_severities();

// {"target", "severity", "templates": {loaded, selected, run, skipped}, "requests",
//  "failed_requests", "complete", "duration_ms", "findings", "skipped", "errors"}. An empty
// `severities` means default_severities(). The scan stops at `deadline` or when scan.cancel is
// cancelled (then "complete": false).
boost::json::object scan_site(const std::string& target, const config::Config& cfg, const net::EgressPolicy& policy,
                              const std::set<audit::Severity>& severities, const net::ScanOptions& scan,
                              std::chrono::steady_clock::time_point deadline);

}  // namespace dozor::scan::templates
