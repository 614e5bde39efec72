#pragma once
// Endpoint discovery (issue 9 §2, docs/scan.md "Endpoint discovery"): what a site answers to and
// how each was found — the crawl's links, forms, robots.txt, sitemaps and paths quoted in its
// JavaScript, the operations of OpenAPI/Swagger documents at well-known places, and a bounded
// wordlist of common paths judged against the site's answer to paths that cannot exist. Finished
// within `timeout` (what is left undone is reported as partial); every request through the scan
// client (egress policy, per-origin rate).
#include <boost/json/object.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engines/limits.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/scan/endpoints/api_doc.hpp"
#include "engines/scan/endpoints/paths.hpp"

namespace dozor::endpoints {

struct Options {
  std::chrono::seconds timeout{limits::endpoints::kTimeoutDefault};
  net::ScanOptions scan;                                            // scan.cancel stops the run as its deadline does
  int requests_per_second = limits::endpoints::kRequestsPerSecond;  // per origin
};

struct Endpoint {
  std::string url;  // absolute, no query or fragment
  std::set<std::string> methods;
  std::vector<ApiParam> params;
  std::optional<int> status;  // of a GET (redirects of crawled pages followed, of probes not)
  std::string content_type;
  std::set<std::string> found_by;  // target | link | form | js | robots | sitemap | openapi | wordlist
};

struct ApiDocument {
  std::string url;
  std::string spec;
  std::string title;
  std::size_t operations = 0;
};

struct Result {
  std::string target;
  std::string origin;
  std::map<std::string, Endpoint> endpoints;  // by url
  std::vector<ApiDocument> documents;
  bool catch_all = false;  // paths that cannot exist were answered as if they did
  int catch_all_status = 0;
  std::size_t wordlist_asked = 0;
  std::size_t wordlist_rejected = 0;  // answers that resembled the catch-all
  std::string stopped = "complete";   // complete | deadline | cancelled
  std::string crawl_stopped;
  std::size_t requests = 0;
  std::int64_t timeout_s = 0;
  std::int64_t duration_ms = 0;
};

Result discover(const std::string& target, const net::EgressPolicy& policy, const Paths& paths, Options options);

// {"target", "partial", "stopped", "timeout", "duration_ms", "requests", "count", "by_source",
//  "catch_all": {detected, status, wordlist_asked, wordlist_rejected}, "documents": [...],
//  "endpoints": {"<path or URL>": {url, methods, parameters: [{name, in}], status, content_type, found_by}}}
boost::json::object to_json(const Result& result);

}  // namespace dozor::endpoints
