#pragma once
// The OWASP Top 10 active scan (issue 9 §2, docs/scan.md "OWASP scan"): crawl the target, then run
// the active checks on every GET parameter found (XSS, SQL injection error- and boolean-based, path
// traversal, open redirect, CRLF, template injection, time-based command injection) and the
// site-wide ones (CORS, TRACE/PUT). Bounded by a request cap, a per-origin rate, a deadline and a
// cancellation test between requests; every finding carries the request, the answer's proof and
// a curl command to replay it.
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/limits.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/scan/oast/store.hpp"
#include "engines/scan/owasp/oob.hpp"
#include "engines/scan/owasp/sql_errors.hpp"

namespace dozor::owasp {

struct OwaspOptions {
  int depth = limits::kCrawlDepthDefault;
  int max_pages = limits::kCrawlPagesDefault;
  net::ScanOptions scan;  // the crawl's and the checks' client (per_host_interval raised to the rate)
  std::size_t request_cap = limits::owasp::kRequestCap;
  int requests_per_second = limits::owasp::kRequestsPerSecond;  // per origin
  std::chrono::milliseconds budget{limits::owasp::kScanBudgetMs};
  std::function<bool()> cancelled;  // asked before every request; true stops the scan
  // Which checks run: the classic ones (the table of docs/scan.md), XXE and SSRF ("XXE and SSRF").
  bool classic = true;
  bool xxe = true;
  bool ssrf = true;
  // Out-of-band proofs: scanner.oast_base_url and where probes and hits are kept; either unset = off.
  std::string oast_base_url;
  oast::Store* oast_store = nullptr;
};

struct TestedPoint {
  std::string url;
  std::string param;
  std::string source;
};

struct OwaspResult {
  std::string target;
  std::vector<audit::Finding> findings;
  std::vector<TestedPoint> tested;  // parameters (and XML endpoints: param "(XML body)") whose checks all ran
  std::size_t points = 0;           // parameters found
  std::size_t pages = 0;            // pages crawled
  std::size_t requests = 0;         // by the checks (the crawl's not counted)
  std::size_t crawl_requests = 0;
  bool oast_enabled = false;
  std::size_t oast_probes = 0;
  std::vector<OobHit> oast_hits;
  std::string stopped = "complete";  // complete | request_cap | deadline | cancelled
  std::int64_t duration_ms = 0;
};

OwaspResult scan(const std::string& target, const net::EgressPolicy& policy, const SqlErrors& sql,
                 OwaspOptions options);

boost::json::object to_json(const OwaspResult& result);

}  // namespace dozor::owasp
