#include "engines/net/multi_fetch.hpp"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "engines/limits.hpp"
#include "engines/net/egress_socket.hpp"
#include "engines/text/ascii.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::net {

const char* const kUnreachable = "cannot connect: the host has no address the egress policy allows";

const char* to_string(CheckError e) {
  switch (e) {
    case CheckError::None: return "none";
    case CheckError::Unreachable: return "unreachable";
    case CheckError::Timeout: return "timeout";
    case CheckError::Connect: return "connect";
    case CheckError::Tls: return "tls";
    case CheckError::TooManyRedirects: return "too_many_redirects";
    case CheckError::BadRedirect: return "bad_redirect";
    case CheckError::BadProxy: return "bad_proxy";
    case CheckError::TooLarge: return "too_large";
    case CheckError::OutOfScope: return "out_of_scope";
    case CheckError::Transport: return "transport";
    case CheckError::Internal: return "internal";
  }
  return "unknown";
}

namespace {

using Clock = std::chrono::steady_clock;

CheckError kind_of(CURLcode rc) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT: return CheckError::Timeout;
    case CURLE_COULDNT_CONNECT: return CheckError::Connect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS: return CheckError::Tls;
    default: return CheckError::Transport;
  }
}

bool supported_proxy(const std::string& proxy) {
  for (const char* scheme : {"http://", "https://", "socks5://", "socks5h://"})
    if (proxy.rfind(scheme, 0) == 0 && proxy.size() > std::strlen(scheme)) return true;
  return false;
}

bool same_origin(const boost::urls::url_view& a, const boost::urls::url_view& b) {
  auto port = [](const boost::urls::url_view& u) {
    if (u.has_port()) return u.port_number();
    return static_cast<std::uint16_t>(u.scheme_id() == boost::urls::scheme::https ? 443 : 80);
  };
  return a.scheme_id() == b.scheme_id() && text::ascii_lower(a.host()) == text::ascii_lower(b.host()) &&
         port(a) == port(b);
}

bool is_credential_header(const std::string& line) {
  auto name = text::ascii_lower(std::string_view(line).substr(0, line.find(':')));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name == "cookie" || name == "authorization";
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::optional<std::int64_t> ms_of(CURL* easy, CURLINFO what) {
  curl_off_t us = 0;
  if (curl_easy_getinfo(easy, what, &us) != CURLE_OK || us <= 0) return std::nullopt;
  return static_cast<std::int64_t>(us / 1000);
}

// "Expire date:Jan  1 00:00:00 2027 GMT" from the leaf certificate (index 0) of CERTINFO.
std::optional<std::time_t> leaf_expiry(CURL* easy) {
  curl_certinfo* info = nullptr;
  if (curl_easy_getinfo(easy, CURLINFO_CERTINFO, &info) != CURLE_OK || !info || info->num_of_certs < 1)
    return std::nullopt;
  for (curl_slist* s = info->certinfo[0]; s; s = s->next) {
    constexpr const char* kKey = "Expire date:";
    if (std::strncmp(s->data, kKey, std::strlen(kKey)) != 0) continue;
    std::tm tm{};
    if (!strptime(s->data + std::strlen(kKey), " %b %d %H:%M:%S %Y", &tm)) return std::nullopt;
    return timegm(&tm);
  }
  return std::nullopt;
}

}  // namespace

void global_init() { curl_global_init(CURL_GLOBAL_DEFAULT); }

// One hop of one check. The easy handle is owned here; `multi` removes it before cleanup.
struct MultiFetcher::Transfer {
  CheckRequest request;
  Done done;
  Clock::time_point started;
  Clock::time_point hop_started;
  int hop = 0;
  std::string url;
  std::string location;  // of this hop's answer
  EgressGate gate;       // judges every socket of this hop
  std::size_t body_seen = 0;
  bool truncated = false;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;  // this hop's extra request headers
  Exchange exchange;              // with request.record: this hop
  CheckOutcome out;

  ~Transfer() {
    if (easy) curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
  }
};

namespace {

std::size_t count_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<MultiFetcher::Transfer*>(user);
  if (t->request.record && t->exchange.body_excerpt.size() < limits::kEvidenceExcerptBytes)
    t->exchange.body_excerpt.append(
        data, std::min(size * n, limits::kEvidenceExcerptBytes - t->exchange.body_excerpt.size()));
  if (t->request.keep_body && t->out.body.size() < t->request.max_body)
    t->out.body.append(data, std::min(size * n, t->request.max_body - t->out.body.size()));
  t->body_seen += size * n;
  if (t->body_seen > t->request.max_body) {
    t->truncated = true;
    return 0;  // enough: availability needs the status (and a keyword its first bytes), not the page
  }
  return size * n;
}

std::string_view trim(std::string_view v) {
  auto b = v.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  auto e = v.find_last_not_of(" \t\r\n");
  return v.substr(b, e - b + 1);
}

// "Name: value" → {name in lower case, value}; nullopt for a line that is not a field.
std::optional<HeaderField> header_field(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  HeaderField f;
  f.name = std::string(trim(line.substr(0, colon)));
  std::transform(f.name.begin(), f.name.end(), f.name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  f.value = text::utf8_prefix(text::to_valid_utf8(trim(line.substr(colon + 1))), limits::kScanHeaderValueBytes);
  return f;
}

void record_response_line(MultiFetcher::Transfer& t, std::string_view line) {
  auto& ex = t.exchange;
  if (line.rfind("HTTP/", 0) == 0) {  // a new answer (after a 1xx, or the first): its head starts over
    ex.status_line = text::to_valid_utf8(trim(line));
    ex.response_headers.clear();
    return;
  }
  if (ex.response_headers.size() >= limits::kScanHeaderFields) return;
  if (auto f = header_field(line)) ex.response_headers.push_back(std::move(*f));
}

// The request head as libcurl sent it (cookies from the jar included).
int record_request_head(CURL*, curl_infotype type, char* data, std::size_t size, void* user) {
  if (type != CURLINFO_HEADER_OUT) return 0;
  auto& ex = static_cast<MultiFetcher::Transfer*>(user)->exchange;
  std::string_view head(data, size);
  ex.request_headers.clear();
  bool first = true;
  while (!head.empty()) {
    auto eol = head.find('\n');
    auto line = trim(head.substr(0, eol));
    head = eol == std::string_view::npos ? std::string_view{} : head.substr(eol + 1);
    if (first) {
      ex.request_line = text::to_valid_utf8(line);
      first = false;
    } else if (ex.request_headers.size() < limits::kScanHeaderFields) {
      if (auto f = header_field(line)) ex.request_headers.push_back(std::move(*f));
    }
  }
  return 0;
}

std::size_t keep_location(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<MultiFetcher::Transfer*>(user);
  std::string_view line(data, size * n);
  if (t->request.record) record_response_line(*t, line);
  if (line.size() > 9 && strncasecmp(line.data(), "location:", 9) == 0) {
    auto v = line.substr(9);
    auto b = v.find_first_not_of(" \t");
    auto e = v.find_last_not_of(" \t\r\n");
    t->location = b == std::string_view::npos ? "" : std::string(v.substr(b, e - b + 1));
  }
  return size * n;
}

}  // namespace

int MultiFetcher::on_socket(void*, int fd, int what, void* self_ptr, void*) {
  auto* self = static_cast<MultiFetcher*>(self_ptr);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    return 0;
  }
  epoll_event ev{};
  ev.data.fd = fd;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) ev.events |= EPOLLIN;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) ev.events |= EPOLLOUT;
  if (epoll_ctl(self->epoll_fd_, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT)
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
  return 0;
}

int MultiFetcher::on_timer(void*, long timeout_ms, void* self_ptr) {
  static_cast<MultiFetcher*>(self_ptr)->timer_ms_ = timeout_ms;
  return 0;
}

MultiFetcher::MultiFetcher(const EgressPolicy& policy) : policy_(policy) {
  multi_ = curl_multi_init();
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (!multi_ || epoll_fd_ < 0) throw std::runtime_error("multi fetch: cannot initialise libcurl multi or epoll");
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &MultiFetcher::on_socket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &MultiFetcher::on_timer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
}

MultiFetcher::~MultiFetcher() {
  for (auto& [easy, t] : transfers_) curl_multi_remove_handle(multi_, easy);
  transfers_.clear();
  delayed_.clear();
  curl_multi_cleanup(multi_);
  ::close(epoll_fd_);
}

void MultiFetcher::start(CheckRequest request, Done done) {
  auto t = std::make_unique<Transfer>();
  t->url = request.url;
  t->request = std::move(request);
  t->done = std::move(done);
  t->started = Clock::now();
  t->gate.policy = &policy_;
  add_hop(std::move(t));
}

void MultiFetcher::add_hop(std::unique_ptr<Transfer> t) {
  t->hop_started = Clock::now();
  auto remaining =
      t->request.timeout - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t->started);
  t->out.final_url = t->url;
  if (remaining.count() <= 0) {
    t->out.kind = CheckError::Timeout;
    t->out.error = "timed out after " + std::to_string(t->request.timeout.count()) + " ms";
    complete(*t);
    return;
  }
  if (!t->request.proxy.empty() && !supported_proxy(t->request.proxy)) {
    t->out.kind = CheckError::BadProxy;
    t->out.error = "unsupported proxy (use http://, https://, socks5:// or socks5h://)";
    complete(*t);
    return;
  }
  // One handle for every hop of a check: reset, so nothing of the last hop (its URL, its
  // credentials) carries over.
  // A handle with the cookie engine on gets a fresh handle per hop: curl_easy_reset (libcurl
  // 7.88) drops the handle's COOKIEFILE list without freeing it.
  if (t->easy && t->request.cookie_share) {
    curl_easy_cleanup(t->easy);
    t->easy = nullptr;
  }
  if (t->easy)
    curl_easy_reset(t->easy);
  else
    t->easy = curl_easy_init();
  if (!t->easy) {
    t->out.kind = CheckError::Internal;
    t->out.error = "cannot initialise libcurl";
    complete(*t);
    return;
  }
  t->location.clear();
  t->gate.refusal.clear();
  t->body_seen = 0;
  t->truncated = false;
  t->out.body.clear();  // a redirect's body is not the page
  t->out.truncated = false;
  t->exchange = Exchange{};
  t->exchange.url = t->url;
  curl_slist_free_all(t->headers);
  t->headers = nullptr;
  for (const auto& h : t->request.headers) t->headers = curl_slist_append(t->headers, h.c_str());
  CURL* e = t->easy;
  curl_easy_setopt(e, CURLOPT_URL, t->url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  // Only the explicit proxy: "" disables http_proxy and friends, and an explicit NOPROXY keeps
  // the environment's no_proxy from sending some hosts around the chosen proxy.
  curl_easy_setopt(e, CURLOPT_PROXY, t->request.proxy.c_str());
  curl_easy_setopt(e, CURLOPT_NOPROXY, "");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining.count()));
  curl_easy_setopt(e, CURLOPT_USERAGENT, t->request.user_agent.c_str());
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_NOBODY, t->request.head || t->request.method == "HEAD" ? 1L : 0L);
  if (!t->request.method.empty() && t->request.method != "GET" && t->request.method != "HEAD")
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, t->request.method.c_str());
  if (t->headers) curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
  if (!t->request.body.empty() && t->hop == 0) {
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->request.body.size()));
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->request.body.data());  // the Transfer owns the bytes
  }
  if (!t->request.verify_tls) {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!t->request.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, t->request.ca_file.c_str());
  if (t->request.cookie_share) {
    curl_easy_setopt(e, CURLOPT_SHARE, t->request.cookie_share);
    curl_easy_setopt(e, CURLOPT_COOKIEFILE, "");  // the cookie engine, fed only by the scan's answers
  }
  if (t->request.record) {
    curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, record_request_head);
    curl_easy_setopt(e, CURLOPT_DEBUGDATA, t.get());
    curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
  }
  curl_easy_setopt(e, CURLOPT_CERTINFO, 1L);
  if (t->request.connect_only) curl_easy_setopt(e, CURLOPT_CONNECT_ONLY, 1L);
  attach_egress_gate(e, &t->gate);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, count_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, keep_location);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
  if (curl_multi_add_handle(multi_, e) != CURLM_OK) {
    t->out.kind = CheckError::Internal;
    t->out.error = "cannot start the transfer";
    complete(*t);
    return;
  }
  transfers_[e] = std::move(t);
}

void MultiFetcher::run(std::chrono::milliseconds max_wait) {
  auto now = Clock::now();
  while (!delayed_.empty() && delayed_.begin()->first <= now) {
    auto t = std::move(delayed_.begin()->second);
    delayed_.erase(delayed_.begin());
    add_hop(std::move(t));
  }
  long wait = max_wait.count();
  if (timer_ms_ >= 0 && timer_ms_ < wait) wait = timer_ms_;
  if (!delayed_.empty())
    wait = std::min<long>(
        wait, std::chrono::duration_cast<std::chrono::milliseconds>(delayed_.begin()->first - now).count() + 1);
  epoll_event events[64];
  int n = epoll_wait(epoll_fd_, events, 64, static_cast<int>(wait));
  int running = 0;
  if (n <= 0) {
    curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
  } else {
    for (int i = 0; i < n; ++i) {
      int flags = 0;
      if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
      curl_multi_socket_action(multi_, events[i].data.fd, flags, &running);
    }
  }
  int left = 0;
  while (CURLMsg* m = curl_multi_info_read(multi_, &left)) {
    if (m->msg == CURLMSG_DONE) finished(m->easy_handle, m->data.result);
  }
}

void MultiFetcher::finished(void* easy, int curl_code) {
  auto it = transfers_.find(easy);
  if (it == transfers_.end()) return;
  std::unique_ptr<Transfer> t = std::move(it->second);
  transfers_.erase(it);
  curl_multi_remove_handle(multi_, easy);
  auto rc = static_cast<CURLcode>(curl_code);
  CURL* e = t->easy;
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  auto& out = t->out;
  out.dns_ms = ms_of(e, CURLINFO_NAMELOOKUP_TIME_T);
  auto connect = ms_of(e, CURLINFO_CONNECT_TIME_T);
  auto tls = ms_of(e, CURLINFO_APPCONNECT_TIME_T);
  auto first = ms_of(e, CURLINFO_STARTTRANSFER_TIME_T);
  out.connect_ms = connect ? std::optional(*connect - out.dns_ms.value_or(0)) : std::nullopt;
  out.tls_ms = tls && connect ? std::optional(*tls - *connect) : std::nullopt;
  out.first_byte_ms = first ? std::optional(*first - tls.value_or(connect.value_or(0))) : std::nullopt;
  if (auto exp = leaf_expiry(e)) out.cert_expires = exp;
  out.truncated = t->truncated;
  out.tls_verified = t->request.verify_tls && boost::urls::parse_uri(t->url).has_value() &&
                     boost::urls::parse_uri(t->url)->scheme_id() == boost::urls::scheme::https;
  if (t->request.record && (rc == CURLE_OK || t->truncated) && t->gate.refusal.empty()) {
    t->exchange.status = static_cast<int>(status);
    t->exchange.body_excerpt =
        text::utf8_prefix(text::to_valid_utf8(t->exchange.body_excerpt), limits::kEvidenceExcerptBytes);
    out.exchanges.push_back(std::move(t->exchange));
    t->exchange = Exchange{};
  }

  if (!t->gate.refusal.empty() || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY) {
    if (!t->gate.refusal.empty()) std::cerr << "egress: refused " << t->url << ": " << t->gate.refusal << "\n";
    out.responded = false;
    out.status = 0;
    out.kind = CheckError::Unreachable;
    out.error = kUnreachable;
    complete(*t);
    return;
  }
  if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && t->truncated)) {
    out.responded = false;
    out.status = 0;
    out.kind = kind_of(rc);
    out.error = rc == CURLE_OPERATION_TIMEDOUT ? "timed out after " + std::to_string(t->request.timeout.count()) + " ms"
                                               : curl_easy_strerror(rc);
    complete(*t);
    return;
  }
  if (t->truncated && t->request.oversize_is_error) {
    out.responded = true;
    out.status = static_cast<int>(status);
    out.kind = CheckError::TooLarge;
    out.error = "the answer is larger than " + std::to_string(t->request.max_body) + " bytes (decoded)";
    complete(*t);
    return;
  }
  if (t->request.connect_only) {
    out.responded = true;  // the connection (and handshake) succeeded: that is the whole check
    out.status = 0;
    complete(*t);
    return;
  }
  out.responded = true;
  out.status = static_cast<int>(status);
  if (!is_redirect(status) || t->location.empty()) {
    complete(*t);
    return;
  }
  if (t->hop >= t->request.max_redirects) {
    out.kind = CheckError::TooManyRedirects;
    out.error = "stopped after " + std::to_string(t->request.max_redirects) + " redirects";
    complete(*t);
    return;
  }
  auto base = boost::urls::parse_uri(t->url);
  auto ref = boost::urls::parse_uri_reference(t->location);
  boost::urls::url next;
  if (!base || !ref || !boost::urls::resolve(*base, *ref, next) ||
      (next.scheme_id() != boost::urls::scheme::http && next.scheme_id() != boost::urls::scheme::https)) {
    out.kind = CheckError::BadRedirect;
    out.error = "invalid redirect location: " + text::utf8_prefix(t->location, 200);
    complete(*t);
    return;
  }
  next.remove_fragment();
  next.remove_userinfo();  // a Location's credentials are never sent on
  if (t->request.follow_allowed && !t->request.follow_allowed(std::string(next.buffer()))) {
    out.kind = CheckError::OutOfScope;
    out.out_of_scope_url = std::string(next.buffer());
    out.error = "not followed: the redirect to " + text::utf8_prefix(std::string(next.buffer()), 200) +
                " leaves the scan's scope";
    complete(*t);
    return;
  }
  // Nor are the caller's: Cookie and Authorization lines (the auth scan's session) stay on
  // their origin, as browsers and curl keep them.
  if (!same_origin(*base, next)) std::erase_if(t->request.headers, is_credential_header);
  // A form post answered 301/302/303 continues as a GET, as browsers do (the body is never resent).
  if ((t->request.method == "POST" && status != 307 && status != 308) ||
      (status == 303 && t->request.method != "HEAD" && !t->request.method.empty()))
    t->request.method = "GET";
  t->url = std::string(next.buffer());
  ++t->hop;
  auto due = t->hop_started + t->request.hop_interval;
  if (due > Clock::now()) {
    delayed_.emplace(due, std::move(t));
    return;
  }
  add_hop(std::move(t));
}

void MultiFetcher::complete(Transfer& t) {
  t.out.total_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t.started).count();
  // Error texts may quote what a remote server sent (a Location): valid UTF-8 from here on.
  t.out.error = text::to_valid_utf8(t.out.error);
  auto done = std::move(t.done);
  CheckOutcome out = std::move(t.out);
  done(std::move(out));
}

CheckOutcome check_once(CheckRequest request, const EgressPolicy& policy) {
  MultiFetcher fetcher(policy);
  std::optional<CheckOutcome> result;
  fetcher.start(std::move(request), [&](CheckOutcome o) { result = std::move(o); });
  while (!result) fetcher.run(std::chrono::milliseconds(200));
  return std::move(*result);
}

}  // namespace dozor::net
