#pragma once
// Technology detection of one target on demand (GET /api{,/v1}/cms/{target_url}; docs/audit.md
// "Technologies"): the page itself (redirects followed), robots.txt and the probes, and up to
// limits::tech::kScriptBodies same-origin scripts whose file name names a library but whose URL
// gives no version (their banner comment does). All through the scanner client.
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/full_audit.hpp"
#include "engines/audit/tech/detector.hpp"
#include "engines/audit/tech/vuln_libraries.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::tech {

struct SiteReport {
  std::string target;
  std::string url;  // the page's final URL
  int status = 0;
  std::optional<std::string> error;  // the page could not be fetched
  std::vector<Detection> technologies;
  std::vector<LibraryHit> vulnerable_libraries;
  std::size_t requests = 0;
  std::int64_t duration_ms = 0;
  std::vector<AuditSkip> skipped;  // the probes of unlinked paths, without the scan permission
};

// The probes of unlinked paths only with `probing` allowed (audit::Probing, docs/audit.md).
SiteReport detect_site(const std::string& target, const net::EgressPolicy& policy, net::ScanOptions options,
                       const Fingerprints& fp, const VulnLibraries& libs, const Probing& probing = {});

boost::json::object to_json(const SiteReport& report, const Fingerprints& fp);

}  // namespace dozor::audit::tech
