#pragma once
// Many outbound checks at once on one thread: one libcurl multi handle driven by epoll
// (curl_multi_socket_action), libcurl's threaded resolver inside each check's time budget, and
// the egress policy judged on every socket libcurl opens — the address actually connected to,
// whatever DNS said. Redirects are followed here, hop by hop, each hop a new transfer without
// the credentials a Location may carry.
#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/net/egress_policy.hpp"

namespace dozor::net {

struct CheckRequest {
  std::string url;
  // An explicit proxy (http://, https://, socks5://, socks5h://host:port), or empty for a
  // direct connection. Environment proxies (http_proxy, NO_PROXY …) are never consulted; the
  // egress policy judges the address connected to — the proxy's, when there is one.
  std::string proxy;
  std::chrono::milliseconds timeout{10000};  // the whole check, redirects included
  bool head = false;                         // HEAD instead of GET
  // Connect (and for https, handshake) only, no request: a TCP port check. The URL's scheme
  // and port say where; the egress policy judges the address as for any check.
  bool connect_only = false;
  bool keep_body = false;  // keep the last hop's first max_body bytes in CheckOutcome::body
  int max_redirects = 5;
  std::size_t max_body = std::size_t{64} * 1024;  // read at most this much of a body, then stop
  std::string user_agent = "Dozor/2.0";

  // Scanner options (engines/net/scan_client.hpp); the monitor leaves them at their defaults.
  std::string method;                // "" = GET (HEAD with `head`); e.g. "OPTIONS"
  std::vector<std::string> headers;  // extra request header lines, "Name: value"
  std::string body;                  // request body (sent on the first hop only; redirects drop it)
  bool record = false;               // keep every hop as an Exchange (heads and a body excerpt)
  bool oversize_is_error = false;    // a body over max_body fails with TooLarge instead of being cut
  bool verify_tls = true;
  std::string ca_file;           // trust anchors instead of the system's, when set
  void* cookie_share = nullptr;  // CURLSH* sharing cookies: a scan's cookie jar
  // A followed redirect's next hop starts at least this long after the hop before it (a scan's
  // per-origin pacing holds for hops too); 0 = at once.
  std::chrono::milliseconds hop_interval{0};
  // When set, a redirect is followed only to a URL it accepts; otherwise the check ends with
  // CheckError::OutOfScope at that redirect (an active scan's scope, engines/scan/access).
  std::function<bool(const std::string& url)> follow_allowed = {};
};

struct HeaderField {
  std::string name;  // lower case
  std::string value;
};

// One request and its answer, as evidence: the heads as they went over the wire and the start
// of the (decoded) body.
struct Exchange {
  std::string url;
  std::string request_line;  // "GET /a?b=1 HTTP/1.1"
  std::vector<HeaderField> request_headers;
  int status = 0;
  std::string status_line;  // "HTTP/1.1 200 OK"
  std::vector<HeaderField> response_headers;
  std::string body_excerpt;  // valid UTF-8, at most limits::kEvidenceExcerptBytes
};

// Why a check has no usable answer, for code to decide on; `error` says it for people.
enum class CheckError {
  None,
  Unreachable,       // no allowed address: unknown name and refused address alike (kUnreachable)
  Timeout,           // the check's time budget ran out (resolution included)
  Connect,           // an allowed address refused or dropped the connection
  Tls,               // handshake or certificate verification failed
  TooManyRedirects,  // more than max_redirects
  BadRedirect,       // a Location that is not an http(s) URL
  BadProxy,          // the explicit proxy is not a URL of a supported scheme
  TooLarge,          // the body exceeded max_body (decoded bytes) with oversize_is_error
  OutOfScope,        // not sent: the URL (or a redirect's next hop) is outside the scan's scope
  Transport,         // any other transfer failure (protocol error, reset …)
  Internal,          // libcurl could not be set up
};
const char* to_string(CheckError e);

struct CheckOutcome {
  bool responded = false;  // an HTTP answer arrived (any status)
  int status = 0;
  CheckError kind = CheckError::None;
  std::string error;  // why there is no usable answer; empty when there is one
  std::int64_t total_ms = 0;
  // Phases of the last hop, in milliseconds (absent when the hop did not get that far).
  std::optional<std::int64_t> dns_ms, connect_ms, tls_ms, first_byte_ms;
  std::optional<std::time_t> cert_expires;  // the leaf certificate's notAfter (HTTPS)
  std::string final_url;
  std::string body;                 // with keep_body: the start of the last answer's body (decoded), at most max_body
  bool truncated = false;           // the last answer's body was longer than max_body
  bool tls_verified = false;        // the last hop was https with its certificate verified
  std::vector<Exchange> exchanges;  // with record: every hop, in order
  std::string out_of_scope_url;     // with OutOfScope: the URL that was not asked
};

// The one text for "no allowed address": a name that does not resolve and a name that
// resolves only to refused addresses look the same, so errors cannot map internal names.
extern const char* const kUnreachable;

// Call once per process before threads start.
void global_init();

class MultiFetcher {
 public:
  using Done = std::function<void(CheckOutcome)>;

  explicit MultiFetcher(const EgressPolicy& policy);
  ~MultiFetcher();
  MultiFetcher(const MultiFetcher&) = delete;
  MultiFetcher& operator=(const MultiFetcher&) = delete;

  // Queues a check; `done` runs on this thread from run() when it finishes.
  void start(CheckRequest request, Done done);

  // Drives I/O for at most `max_wait` (less when a transfer's timer is due); runs the
  // callbacks of the checks that finished meanwhile.
  void run(std::chrono::milliseconds max_wait);

  std::size_t in_flight() const { return transfers_.size() + delayed_.size(); }

  struct Transfer;  // one hop of one check (defined in the .cpp; libcurl callbacks see it)

 private:
  void add_hop(std::unique_ptr<Transfer> t);
  void finished(void* easy, int curl_code);
  void complete(Transfer& t);

  const EgressPolicy& policy_;
  void* multi_;  // CURLM*
  int epoll_fd_;
  long timer_ms_ = -1;
  std::map<void*, std::unique_ptr<Transfer>> transfers_;  // by CURL* easy handle
  // Redirect hops waiting for their hop_interval, by the time they may start.
  std::multimap<std::chrono::steady_clock::time_point, std::unique_ptr<Transfer>> delayed_;

  static int on_socket(void* easy, int fd, int what, void* self, void* socket_data);
  static int on_timer(void* multi, long timeout_ms, void* self);
};

// One check, run to completion on this thread (the on-demand check route).
CheckOutcome check_once(CheckRequest request, const EgressPolicy& policy);

}  // namespace dozor::net
