#include "engines/net/egress_policy.hpp"

#include <cstdint>

namespace dozor::net {
namespace {

std::uint32_t v4_value(const std::uint8_t* b) {
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

bool in_v4(std::uint32_t a, std::uint32_t net, int bits) {
  std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (a & mask) == (net & mask);
}

constexpr std::uint32_t ip4(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}

AddressKind classify_v4(std::uint32_t a) {
  if (a == ip4(169, 254, 169, 254) || a == ip4(169, 254, 170, 2) || a == ip4(100, 100, 100, 200) ||
      a == ip4(192, 0, 0, 192) || a == ip4(168, 63, 129, 16))
    return AddressKind::CloudMetadata;
  if (in_v4(a, ip4(0, 0, 0, 0), 8)) return AddressKind::Unspecified;
  if (in_v4(a, ip4(127, 0, 0, 0), 8)) return AddressKind::Loopback;
  if (in_v4(a, ip4(10, 0, 0, 0), 8) || in_v4(a, ip4(172, 16, 0, 0), 12) || in_v4(a, ip4(192, 168, 0, 0), 16))
    return AddressKind::Private;
  if (in_v4(a, ip4(100, 64, 0, 0), 10)) return AddressKind::CarrierNat;
  if (in_v4(a, ip4(169, 254, 0, 0), 16)) return AddressKind::LinkLocal;
  if (in_v4(a, ip4(224, 0, 0, 0), 4)) return AddressKind::Multicast;
  if (in_v4(a, ip4(192, 0, 0, 0), 24) || in_v4(a, ip4(192, 0, 2, 0), 24) || in_v4(a, ip4(192, 88, 99, 0), 24) ||
      in_v4(a, ip4(198, 18, 0, 0), 15) || in_v4(a, ip4(198, 51, 100, 0), 24) || in_v4(a, ip4(203, 0, 113, 0), 24) ||
      in_v4(a, ip4(240, 0, 0, 0), 4))
    return AddressKind::Reserved;
  return AddressKind::Public;
}

bool v6_prefix(const IpAddress& a, std::initializer_list<std::uint8_t> prefix, int bits) {
  int i = 0;
  for (std::uint8_t p : prefix) {
    int take = std::min(8, bits - i * 8);
    if (take <= 0) break;
    std::uint8_t mask = static_cast<std::uint8_t>(0xFF << (8 - take));
    if ((a.bytes[static_cast<std::size_t>(i)] & mask) != (p & mask)) return false;
    ++i;
  }
  return true;
}

bool all_zero(const IpAddress& a, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i)
    if (a.bytes[i] != 0) return false;
  return true;
}

AddressKind classify_v6(const IpAddress& a) {
  const auto& b = a.bytes;
  if (all_zero(a, 0, 16)) return AddressKind::Unspecified;
  if (all_zero(a, 0, 15) && b[15] == 1) return AddressKind::Loopback;
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address inside.
  if (all_zero(a, 0, 10) && b[10] == 0xFF && b[11] == 0xFF) return classify_v4(v4_value(&b[12]));
  if (v6_prefix(a, {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) return classify_v4(v4_value(&b[12]));
  if (v6_prefix(a, {0x00, 0x64, 0xff, 0x9b, 0x00, 0x01}, 48)) return AddressKind::Private;  // local NAT64
  if (all_zero(a, 0, 8) && b[8] == 0xFF && b[9] == 0xFF && b[10] == 0 && b[11] == 0)
    return classify_v4(v4_value(&b[12]));                                   // ::ffff:0:a.b.c.d (SIIT)
  if (v6_prefix(a, {0x20, 0x02}, 16)) return classify_v4(v4_value(&b[2]));  // 6to4
  if (all_zero(a, 0, 12)) return AddressKind::Reserved;                     // IPv4-compatible (deprecated)
  if (b[0] == 0xfd && b[1] == 0x00 && b[2] == 0x0e && b[3] == 0xc2 && all_zero(a, 4, 14) && b[14] == 0x02 &&
      b[15] == 0x54)
    return AddressKind::CloudMetadata;  // fd00:ec2::254
  if (v6_prefix(a, {0xfc}, 7)) return AddressKind::Private;
  if (v6_prefix(a, {0xfe, 0x80}, 10)) return AddressKind::LinkLocal;
  if (b[0] == 0xff) return AddressKind::Multicast;
  if (v6_prefix(a, {0x20, 0x01, 0x0d, 0xb8}, 32) || v6_prefix(a, {0x20, 0x01, 0, 0}, 32) ||
      v6_prefix(a, {0x01, 0, 0, 0, 0, 0, 0, 0}, 64) || v6_prefix(a, {0xfe, 0xc0}, 10) || v6_prefix(a, {0x3f, 0xff}, 20))
    return AddressKind::Reserved;  // documentation, Teredo, discard, site-local, documentation-2
  return AddressKind::Public;
}

}  // namespace

const char* to_string(AddressKind k) {
  switch (k) {
    case AddressKind::Public: return "public";
    case AddressKind::Loopback: return "loopback";
    case AddressKind::Private: return "private";
    case AddressKind::CarrierNat: return "carrier-grade NAT";
    case AddressKind::LinkLocal: return "link-local";
    case AddressKind::CloudMetadata: return "cloud metadata";
    case AddressKind::Multicast: return "multicast";
    case AddressKind::Unspecified: return "unspecified";
    case AddressKind::Reserved: return "reserved";
  }
  return "unknown";
}

AddressKind classify(const IpAddress& a) { return a.v6 ? classify_v6(a) : classify_v4(v4_value(a.bytes.data())); }

std::optional<std::string> EgressPolicy::refusal(const IpAddress& a) const {
  AddressKind k = classify(a);
  bool allowed =
      k == AddressKind::Public ||
      (allow_private_ && (k == AddressKind::Loopback || k == AddressKind::Private || k == AddressKind::CarrierNat));
  if (allowed) return std::nullopt;
  return "egress policy refuses " + a.to_string() + " (" + to_string(k) + " address)";
}

std::optional<std::string> EgressPolicy::refusal(const std::vector<IpAddress>& resolved) const {
  if (resolved.empty()) return std::string("egress policy: the name resolved to no address");
  for (const auto& a : resolved)
    if (auto why = refusal(a)) return why;
  return std::nullopt;
}

}  // namespace dozor::net
