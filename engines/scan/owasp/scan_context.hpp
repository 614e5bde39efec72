#pragma once
// What every active check of the OWASP scan shares (docs/scan.md "OWASP scan"): the bounded
// prober (request cap, per-origin rate, deadline, cancellation checked before every request), the
// DBMS signatures, the findings so far, and helpers that turn a request and its answer into evidence.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/scan/owasp/sql_errors.hpp"

namespace dozor::owasp {

class Prober {
 public:
  using Clock = std::chrono::steady_clock;
  Prober(const net::EgressPolicy& policy, net::ScanOptions scan, std::size_t cap, Clock::time_point deadline,
         std::function<bool()> cancelled);

  // The answer, or nullopt once the scan must stop (stop_reason() says why: request_cap, deadline,
  // cancelled). Requests to one origin start at most options.per_host_interval apart.
  std::optional<net::CheckOutcome> send(const net::FetchRequest& request);

  bool stopped();
  const std::string& stop_reason() const { return stop_reason_; }
  std::size_t sent() const { return sent_; }

 private:
  net::ScanSession session_;
  std::size_t cap_;
  Clock::time_point deadline_;
  std::function<bool()> cancelled_;
  std::size_t sent_ = 0;
  std::string stop_reason_;
};

struct Scan {
  Prober& prober;
  const SqlErrors& sql;
  std::vector<audit::Finding>& findings;
};

// The unmodified request, asked twice: the reference every check compares against.
struct Baseline {
  net::CheckOutcome first, second;
  std::int64_t slowest_ms() const { return std::max(first.total_ms, second.total_ms); }
};

// Redirects are not followed by default: a probe judges the answer it caused, and a followed hop
// would start without the per-origin pacing (the rate limit of issue 9 §3).
net::FetchRequest get_request(std::string url, std::optional<int> max_redirects = 0);

// The request as evidence: the exchange of the answer's last hop, the excerpt, a note and a curl command.
audit::Evidence evidence_of(const net::FetchRequest& request, const net::CheckOutcome& answer, std::string excerpt,
                            std::string note);

struct FindingText {
  const char* check;
  const char* title;
  audit::Severity severity;
  const char* owasp;
  int cwe;
  const char* description;
  const char* recommendation;
};

// A finding of `text` about parameter `param` of `url` (title "<title>: parameter <param>").
audit::Finding make_finding(const FindingText& text, const std::string& confidence, const std::string& where);

}  // namespace dozor::owasp
