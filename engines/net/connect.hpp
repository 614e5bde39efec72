#pragma once
// Raw TCP connections for checks that speak their own protocol (the TLS probes, geolocation's
// resolution): a bounded DNS lookup and a connect gated by the egress policy, like every socket
// libcurl opens (engines/net/egress_socket.hpp).
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/net/egress_policy.hpp"

namespace dozor::net {

struct ConnectError : std::runtime_error {
  enum class Kind { Resolve, Refused, Connect, Timeout };
  ConnectError(Kind k, const std::string& msg) : std::runtime_error(msg), kind(k) {}
  Kind kind;
};

// An owned socket descriptor (closed on destruction).
class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket();
  Socket(Socket&& o) noexcept : fd_(o.release()) {}
  Socket& operator=(Socket&& o) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_ = -1;
};

// The addresses of `host` (a name, a dotted quad, an IPv6 literal with or without brackets),
// A and AAAA, in the resolver's order without duplicates. A literal needs no DNS. The lookup
// (getaddrinfo on a thread of its own) is abandoned after `timeout`; at most
// limits::kPendingLookups may be outstanding per process, beyond that the call refuses at once.
// Throws ConnectError (Resolve, Timeout).
std::vector<IpAddress> resolve_host(const std::string& host, std::chrono::milliseconds timeout);

// A connected, non-blocking TCP socket to the first of `addresses` that accepts within what is
// left of `timeout`. Every address is judged by the policy before its connect; a refused one
// is never connected to. Throws ConnectError (Refused when the policy refused them all).
Socket connect_gated(const std::vector<IpAddress>& addresses, std::uint16_t port, const EgressPolicy& policy,
                     std::chrono::milliseconds timeout);

// resolve_host + the policy on the whole answer (a public answer mixed with a private one is
// refused, EgressPolicy::refusal) + connect_gated, all within `timeout`.
Socket connect_gated(const std::string& host, std::uint16_t port, const EgressPolicy& policy,
                     std::chrono::milliseconds timeout);

}  // namespace dozor::net
