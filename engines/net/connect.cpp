#include "engines/net/connect.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "engines/limits.hpp"

namespace dozor::net {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The lookup runs on a thread of its own that owns this state: a lookup abandoned at the
// timeout finishes (at the resolver's own timeout) without touching the caller's memory.
struct Lookup {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  int rc = 0;
  std::vector<IpAddress> addresses;
};

int poll_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

std::string strip_brackets(const std::string& host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') return host.substr(1, host.size() - 2);
  return host;
}

// One connect attempt; the socket on success, else an error text.
Socket try_connect(const IpAddress& a, std::uint16_t port, Clock::time_point deadline, std::string& error) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  if (a.v6) {
    auto* s6 = reinterpret_cast<sockaddr_in6*>(&ss);
    s6->sin6_family = AF_INET6;
    s6->sin6_port = htons(port);
    std::memcpy(&s6->sin6_addr, a.bytes.data(), 16);
    len = sizeof(sockaddr_in6);
  } else {
    auto* s4 = reinterpret_cast<sockaddr_in*>(&ss);
    s4->sin_family = AF_INET;
    s4->sin_port = htons(port);
    std::memcpy(&s4->sin_addr, a.bytes.data(), 4);
    len = sizeof(sockaddr_in);
  }
  Socket s(::socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (s.fd() < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return {};
  }
  if (::connect(s.fd(), reinterpret_cast<sockaddr*>(&ss), len) == 0) return s;
  if (errno != EINPROGRESS) {
    error = "connect to " + a.to_string() + ": " + std::strerror(errno);
    return {};
  }
  pollfd p{s.fd(), POLLOUT, 0};
  int n = 0;
  do {
    n = ::poll(&p, 1, poll_ms(deadline));
  } while (n < 0 && errno == EINTR);
  if (n == 0) {
    error = "timeout";
    return {};
  }
  int so_error = 0;
  socklen_t so_len = sizeof so_error;
  if (n < 0 || ::getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &so_error, &so_len) != 0 || so_error != 0) {
    error = "connect to " + a.to_string() + ": " + std::strerror(so_error != 0 ? so_error : errno);
    return {};
  }
  return s;
}

}  // namespace

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

Socket& Socket::operator=(Socket&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

std::vector<IpAddress> resolve_host(const std::string& raw_host, milliseconds timeout) {
  std::string host = strip_brackets(raw_host);
  if (auto literal = IpAddress::parse(host)) return {*literal};
  if (host.empty()) throw ConnectError(ConnectError::Kind::Resolve, "no host name to resolve");
  // getaddrinfo cannot be interrupted: a lookup that outlives `timeout` keeps its thread until the
  // resolver gives up. Bound how many may be left so at once, so slow names cannot pile threads up.
  static std::atomic<int> pending{0};
  if (pending.fetch_add(1) >= limits::kPendingLookups) {
    pending.fetch_sub(1);
    throw ConnectError(ConnectError::Kind::Resolve, "too many name lookups in progress; try again later");
  }
  auto state = std::make_shared<Lookup>();
  std::thread([state, host] {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_IDN;  // a Unicode host name is resolved by its A-labels
    addrinfo* res = nullptr;
    int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
    std::vector<IpAddress> out;
    for (addrinfo* p = rc == 0 ? res : nullptr; p; p = p->ai_next) {
      auto a = IpAddress::from_sockaddr(p->ai_addr);
      if (a && std::none_of(out.begin(), out.end(),
                            [&](const IpAddress& b) { return b.bytes == a->bytes && b.v6 == a->v6; }))
        out.push_back(*a);
    }
    if (res) ::freeaddrinfo(res);
    std::lock_guard l(state->mutex);
    state->rc = rc;
    state->addresses = std::move(out);
    state->done = true;
    state->done_cv.notify_all();
    pending.fetch_sub(1);
  }).detach();
  std::unique_lock l(state->mutex);
  if (!state->done_cv.wait_for(l, timeout, [&] { return state->done; }))
    throw ConnectError(ConnectError::Kind::Timeout, "resolving " + host + " timed out");
  if (state->rc != 0)
    throw ConnectError(ConnectError::Kind::Resolve, "cannot resolve " + host + ": " + ::gai_strerror(state->rc));
  if (state->addresses.empty())
    throw ConnectError(ConnectError::Kind::Resolve, "cannot resolve " + host + ": no address");
  return state->addresses;
}

Socket connect_gated(const std::vector<IpAddress>& addresses, std::uint16_t port, const EgressPolicy& policy,
                     milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  std::string last_error = "no address to connect to";
  bool any_allowed = false, timed_out = false;
  for (const auto& a : addresses) {
    if (auto why = policy.refusal(a)) {
      last_error = *why;
      continue;
    }
    any_allowed = true;
    if (Clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    std::string error;
    Socket s = try_connect(a, port, deadline, error);
    if (s.fd() >= 0) return s;
    if (error == "timeout") {
      timed_out = true;
      last_error = "connect to " + a.to_string() + " port " + std::to_string(port) + " timed out";
      break;
    }
    last_error = error;
  }
  if (!any_allowed) throw ConnectError(ConnectError::Kind::Refused, last_error);
  if (timed_out) throw ConnectError(ConnectError::Kind::Timeout, last_error);
  throw ConnectError(ConnectError::Kind::Connect, last_error);
}

Socket connect_gated(const std::string& host, std::uint16_t port, const EgressPolicy& policy, milliseconds timeout) {
  auto start = Clock::now();
  auto addresses = resolve_host(host, timeout);
  if (auto why = policy.refusal(addresses)) throw ConnectError(ConnectError::Kind::Refused, *why);
  auto left = timeout - std::chrono::duration_cast<milliseconds>(Clock::now() - start);
  if (left <= milliseconds(0)) throw ConnectError(ConnectError::Kind::Timeout, "resolving " + host + " used the time");
  return connect_gated(addresses, port, policy, left);
}

}  // namespace dozor::net
