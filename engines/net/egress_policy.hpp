#pragma once
// Which destination addresses Dozor may connect to on behalf of a user (ARCHITECTURE §4).
// Applied to the address actually connected, after DNS and on every redirect.
#include <optional>
#include <string>
#include <vector>

#include "engines/net/ip_address.hpp"

namespace dozor::net {

enum class AddressKind {
  Public,
  Loopback,
  Private,        // RFC 1918, IPv6 ULA
  CarrierNat,     // 100.64.0.0/10
  LinkLocal,      // 169.254.0.0/16, fe80::/10
  CloudMetadata,  // 169.254.169.254 and friends: never reachable
  Multicast,
  Unspecified,  // 0.0.0.0/8, ::
  Reserved,     // documentation, benchmarking, 240/4, broadcast, Teredo, discard …
};

const char* to_string(AddressKind k);

// Classifies an address; IPv4-mapped, NAT64 and 6to4 IPv6 addresses are judged by the IPv4
// address they carry.
AddressKind classify(const IpAddress& a);

class EgressPolicy {
 public:
  explicit EgressPolicy(bool allow_private_targets) : allow_private_(allow_private_targets) {}

  // nullopt when allowed, else the reason.
  std::optional<std::string> refusal(const IpAddress& a) const;
  // Every address a name resolves to must be allowed: a public answer mixed with a private one
  // is refused as a whole (a rebinding attacker controls the order).
  std::optional<std::string> refusal(const std::vector<IpAddress>& resolved) const;
  bool allow_private() const { return allow_private_; }

 private:
  bool allow_private_;
};

}  // namespace dozor::net
