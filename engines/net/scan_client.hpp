#pragma once
// The outbound HTTP client of the scanners (audit, crawl, later the active checks): the monitor's
// MultiFetcher (one libcurl multi on epoll, the egress policy on every socket, redirects followed
// hop by hop) plus what a scan needs on top — a queue with per-origin concurrency and a polite
// gap between request starts, a cookie jar per scan, a size cap on decoded bytes (gzip bombs
// included), a time budget for the whole scan and a record of every exchange as evidence.
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/cancel.hpp"
#include "engines/limits.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::net {

// Whether a scan may send requests to an origin ("scheme://host:port", origin_of()).
using OriginScope = std::function<bool(const std::string& origin)>;

struct ScanOptions {
  std::size_t per_host_concurrency = limits::kScanPerHostConcurrency;
  std::chrono::milliseconds per_host_interval{limits::kScanPerHostIntervalMs};
  std::size_t max_in_flight = limits::kScanInFlight;
  std::chrono::milliseconds request_timeout{limits::kScanRequestTimeoutMs};
  std::size_t max_body = limits::kScanBodyBytes;
  int max_redirects = limits::kScanRedirects;
  std::string user_agent = "Mozilla/5.0 (compatible; Dozor-Audit/2.1; +https://dozor.invalid/audit)";
  std::string ca_file;  // scanner.ca_file: trust anchors instead of the system's
  CancelToken cancel;   // run() stops as at its deadline once this is cancelled
  // Sent with every request of the session before the request's own (the auth scan's session
  // cookie or bearer header, docs/scan.md "Auth scan"); empty for every other scan.
  std::vector<std::string> headers = {};
  // An active scan's scope (engines/scan/access, docs/scan.md "Who may scan what"): asked with
  // the origin ("https://host:443") of every request before it is queued and of every redirect
  // before it is followed; a refused one is never sent and ends with CheckError::OutOfScope.
  // Empty (passive work): every origin the egress policy allows.
  OriginScope scope = {};
};

struct FetchRequest {
  std::string url;
  std::string method = "GET";
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // sent on the first hop only
  std::optional<int> max_redirects;  // the session's when unset; 0 = do not follow
  bool verify_tls = true;
  bool oversize_is_error = true;  // false: keep the first max_body bytes and say `truncated`
};

// Lower-case header name → the values of every field of that name, in order.
std::vector<std::string> header_values(const std::vector<HeaderField>& fields, std::string_view name);
std::optional<std::string> first_header(const std::vector<HeaderField>& fields, std::string_view name);

// The origin ("https://host:port") that concurrency and pacing are counted against.
std::string origin_of(std::string_view url);

class ScanSession {
 public:
  using Clock = std::chrono::steady_clock;
  using Done = std::function<void(CheckOutcome)>;

  ScanSession(const EgressPolicy& policy, ScanOptions options);
  ~ScanSession();
  ScanSession(const ScanSession&) = delete;
  ScanSession& operator=(const ScanSession&) = delete;

  // Queues a request; `done` runs from run() on this thread (it may submit more).
  void submit(FetchRequest request, Done done);

  // Drives the queue until nothing is queued or in flight (true) or `deadline` passes or the
  // options' cancel token is cancelled (false: what is left is abandoned, its callbacks never run).
  bool run(Clock::time_point deadline);

  // One request through the session (its jar, its pacing), run to completion.
  CheckOutcome fetch(FetchRequest request);

  // The jar in Netscape cookie-file lines (libcurl's CURLINFO_COOKIELIST).
  std::vector<std::string> cookies() const;

  std::size_t started() const { return started_; }
  const ScanOptions& options() const { return options_; }

 private:
  struct Pending {
    FetchRequest request;
    Done done;
    std::string origin;
  };
  void pump(Clock::time_point now);
  void answer_refused();
  Clock::time_point next_start() const;

  ScanOptions options_;
  std::unique_ptr<MultiFetcher> fetcher_;  // released before the share its handles use
  void* share_;                            // CURLSH*: the cookie jar
  std::deque<Pending> queue_;
  std::deque<Pending> refused_;                   // outside the scope: answered from run() without a request
  std::map<std::string, std::size_t> in_flight_;  // by origin
  std::map<std::string, Clock::time_point> next_allowed_;
  std::size_t running_ = 0;
  std::size_t started_ = 0;
  unsigned generation_ = 0;  // bumped at a deadline: older callbacks are dropped
};

}  // namespace dozor::net
