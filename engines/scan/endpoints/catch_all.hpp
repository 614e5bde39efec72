#pragma once
// Catch-all detection for the wordlist of endpoint discovery (docs/scan.md "Endpoint discovery"):
// before the wordlist, paths that cannot exist are asked; a wordlist answer that resembles one of
// those answers (same status and, for redirects, the same Location; otherwise nearly the same
// words once each request's own path is taken out) is the site's answer to anything, not an endpoint.
#include <string>
#include <string_view>
#include <vector>

namespace dozor::endpoints {

struct Answer {
  std::string path;  // the path asked ("/admin"): its echoes are ignored when comparing
  int status = 0;    // 0: no answer
  std::string content_type;
  std::string location;  // of a 3xx, as sent
  std::string body;      // the first limits::endpoints::kCompareBytes
};

// Statuses that say a path exists: 2xx, 3xx, 401, 403, 405.
bool status_says_exists(int status);

// `hit` is an endpoint: its status says so and it resembles none of `catch_all`.
bool is_endpoint(const Answer& hit, const std::vector<Answer>& catch_all);

// The catch-all answers say "anything exists" (a status_says_exists status).
bool catch_all_detected(const std::vector<Answer>& catch_all);

}  // namespace dozor::endpoints
