#pragma once
// Outbound HTTP(S) for everything Dozor fetches on a user's behalf. Every hop is resolved by
// us, judged by the egress policy, pinned for libcurl (no second lookup to rebind), and the
// connected address is checked again in libcurl's socket callback. Redirects are followed here,
// hop by hop, so each new host passes the same gate.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engines/net/egress_policy.hpp"

namespace dozor::net {

struct FetchOptions {
  std::chrono::milliseconds timeout{10000};  // the whole fetch, redirects included
  int max_redirects = 5;
  bool verify_tls = true;
  std::string user_agent = "Dozor/2.0";
  std::size_t max_body = 1 << 20;  // keep at most this much of the body
};

struct FetchResult {
  bool responded = false;  // an HTTP answer arrived (any status)
  int status = 0;
  std::string final_url;
  std::vector<std::string> redirects;               // URLs followed, in order
  std::multimap<std::string, std::string> headers;  // of the final answer, lower-case names
  std::string body;
  std::int64_t elapsed_ms = 0;
  std::string error;  // why there is no answer (or why redirects stopped)
  bool refused_by_policy = false;
};

// Call once per process before threads start.
void global_init();

FetchResult fetch(const std::string& url, const EgressPolicy& policy, const FetchOptions& options);

}  // namespace dozor::net
