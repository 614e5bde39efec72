#pragma once
// The security-header check of one target: fetch what Observatory fetches (the http:// chain,
// the https:// chain, robots.txt for cookies, a CORS preflight), then grade it
// (observatory.hpp). The fetching goes through the scanner client, so the egress policy, the
// size cap and the timeouts hold, and every exchange is kept as evidence.
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/headers/observatory.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::headers {

inline constexpr const char* kCorsOrigin = "https://audit.dozor.invalid";

struct HeadersReport {
  std::string target;
  std::optional<std::string> error;  // the site could not be graded (down, or an unexpected status)
  int status_code = 0;               // of the graded ("auto") answer
  std::string graded_url;            // where that answer came from
  Grade grade;
  std::vector<net::Exchange> exchanges;  // every request made, as evidence
};

// Where the http:// and https:// fetches start for a target URL (docs/audit.md).
std::string http_start(const std::string& target);
std::string https_start(const std::string& target);

// Fetches and assembles the retrievals (the graded answer, chains, preflight, cookies).
Retrievals retrieve(const std::string& target, net::ScanSession& session, std::vector<net::Exchange>* evidence);

HeadersReport check_headers(const std::string& target, const net::EgressPolicy& policy, net::ScanOptions options);

boost::json::object to_json(const HeadersReport& report);

}  // namespace dozor::audit::headers
