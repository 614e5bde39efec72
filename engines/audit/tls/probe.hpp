#pragma once
// One TLS handshake with OpenSSL, as a probe (docs/audit.md "TLS"): a protocol version range and a
// cipher list, security level 0 so that legacy protocols and weak ciphers can be *offered* by us
// and their acceptance by the server seen. The connect goes through the egress policy
// (net::connect_gated); the handshake is non-blocking and bounded by a deadline.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/tls/cert.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::audit::tls {

struct ProbeTarget {
  std::string host;  // for SNI and the hostname check (no brackets)
  std::uint16_t port = 443;
  std::vector<net::IpAddress> addresses;  // resolved once, judged by the policy at each connect
  const net::EgressPolicy* policy = nullptr;
  std::string ca_file;  // scanner.ca_file; empty: the system's trust store
};

struct ProbeSpec {
  int min_version = 0;  // TLS1_VERSION … TLS1_3_VERSION
  int max_version = 0;
  std::string cipher_list = "ALL:@SECLEVEL=0";  // TLS ≤ 1.2 suites
  bool want_chain = false;
};

struct ProbeResult {
  enum class Outcome { Accepted, Refused, NotTestable, ConnectFailed, Timeout };
  Outcome outcome = Outcome::Refused;
  std::string error;     // why not Accepted: the OpenSSL error or alert, the connect error
  std::string protocol;  // "TLSv1.2"
  std::string cipher;    // OpenSSL's name of the negotiated suite
  // With want_chain: the chain as the server sent it (leaf first), the verification against the
  // trust anchors (hostname not included) and the hostname check of the leaf.
  std::vector<CertInfo> chain;
  std::optional<bool> verified;
  std::string verify_error;
  std::optional<bool> hostname_match;
};

ProbeResult probe(const ProbeTarget& target, const ProbeSpec& spec, std::chrono::steady_clock::time_point deadline);

// "TLSv1.0" … "TLSv1.3" for TLS1_VERSION … TLS1_3_VERSION.
std::string version_name(int version);

}  // namespace dozor::audit::tls
