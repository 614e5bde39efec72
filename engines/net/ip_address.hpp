#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sockaddr;

namespace dozor::net {

// An IPv4 or IPv6 address in network byte order (IPv4 uses the first 4 bytes).
struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};

  static std::optional<IpAddress> parse(std::string_view text);
  static std::optional<IpAddress> from_sockaddr(const sockaddr* sa);
  std::string to_string() const;
};

}  // namespace dozor::net
