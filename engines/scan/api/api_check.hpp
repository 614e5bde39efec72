#pragma once
// The API check (issue 9 §2, docs/scan.md "API check"): find the target's OpenAPI/Swagger documents
// (well-known paths and links of its page) and GraphQL endpoints (introspection enabled?), then ask
// each documented operation without credentials and judge the answers — missing authentication,
// stack traces on a malformed value, CORS with credentials, rate-limit headers, dangerous methods,
// ids that enumerate, sensitive fields — and the JWTs the API hands out or documents (alg none
// accepted, a weak HS256 secret, no exp). Bounded by a request cap, a per-origin rate, a deadline
// and a cancellation test before every request; every finding carries the exact request, the
// answer's proof and a curl command to replay it. Knows nothing of the routes that run it.
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/limits.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/scan/api/jwt.hpp"
#include "engines/scan/endpoints/paths.hpp"

namespace dozor::api {

struct Options {
  net::ScanOptions scan;  // per_host_interval raised to the rate, one request per origin at a time
  std::size_t request_cap = limits::api::kRequestCap;
  std::size_t max_operations = limits::api::kOperations;
  int requests_per_second = limits::api::kRequestsPerSecond;
  std::chrono::milliseconds budget{limits::api::kBudgetMs};
  std::function<bool()> cancelled;  // asked before every request; true stops the check
};

struct DocumentSeen {
  std::string url;
  std::string spec;
  std::string title;
  std::size_t operations = 0;
};

struct GraphqlSeen {
  std::string url;
  bool introspection = false;
};

struct Result {
  std::string target;
  std::vector<DocumentSeen> documents;
  std::vector<GraphqlSeen> graphql;
  std::vector<std::string> tested;  // "GET /api/users/{id}": operations whose checks all ran
  std::size_t operations = 0;       // operations the documents declare (all of them)
  std::size_t tokens = 0;           // JWTs met in answers and documents
  std::vector<audit::Finding> findings;
  std::size_t requests = 0;
  std::string stopped = "complete";  // complete | request_cap | deadline | cancelled
  std::int64_t duration_ms = 0;
};

Result check(const std::string& target, const net::EgressPolicy& policy, const endpoints::Paths& paths,
             const JwtSecrets& secrets, Options options);

// {"target", "stopped", "requests", "duration_ms", "documents": [...], "graphql": [...], "operations",
//  "tested": [...], "tokens", "by_category": {...}, "findings": [...]}
boost::json::object to_json(const Result& result);

}  // namespace dozor::api
