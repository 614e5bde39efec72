#pragma once
// How the other Dozor processes reach dozor-analyzer (docs/analyzer.md "Callers"): through
// nginx's internal listener at analyzer.listen — dozor-fcgi and dozord cannot open the
// analyzer's socket (another group; the analyzer itself has no network), and the listener is
// the orchestration network's path too. An address the admin configured, not a user's target:
// no egress policy; never a proxy, no redirects, bounded answers and time.
#include <boost/json/value.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace dozor::analyzer::remote {

// analyzer.listen (nginx's `listen` syntax: "127.0.0.1:8181", "8181", "*:8181", "[::]:8181")
// as a base URL ("http://127.0.0.1:8181"); a wildcard address is asked on loopback. Empty when
// the value is empty (no analyzer) or unreadable.
std::string base_url(const std::string& listen);

struct Answer {
  bool answered = false;  // an HTTP answer arrived
  int status = 0;
  std::string error;        // why there is no answer (transport)
  boost::json::value body;  // null unless the answer was a JSON document
};

Answer get(const std::string& url, std::chrono::milliseconds timeout);

// POST /api/v1/analyze with the document as the body, as the user `token` names.
Answer analyze(const std::string& base, std::string_view document, const std::string& content_type,
               const std::string& token, std::chrono::milliseconds timeout);

// POST /api/v1/malware_scan with the `size` bytes of the open file `fd` (read with pread from
// offset 0, streamed: never whole in memory), as the user `token` names.
Answer malware_scan(const std::string& base, int fd, std::int64_t size, const std::string& token,
                    std::chrono::milliseconds timeout);

// A bearer token for the analyzer on behalf of `user_id` (not an admin: no reveal), valid for
// `lifetime`: what an audit presents when it hands the analyzer a site's documents. Signed
// with the installation's key (auth.jwt_secret_file), which the analyzer verifies.
std::string token_for(std::string_view jwt_key, std::int64_t user_id, std::chrono::seconds lifetime);

}  // namespace dozor::analyzer::remote
