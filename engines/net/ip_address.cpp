#include "engines/net/ip_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cstring>

namespace dozor::net {

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  std::string s(text);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  IpAddress a;
  if (inet_pton(AF_INET, s.c_str(), a.bytes.data()) == 1) return a;
  a.v6 = true;
  if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) == 1) return a;
  return std::nullopt;
}

std::optional<IpAddress> IpAddress::from_sockaddr(const sockaddr* sa) {
  if (!sa) return std::nullopt;
  IpAddress a;
  if (sa->sa_family == AF_INET) {
    sockaddr_in in{};
    std::memcpy(&in, sa, sizeof in);
    std::memcpy(a.bytes.data(), &in.sin_addr, 4);
    return a;
  }
  if (sa->sa_family == AF_INET6) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, sa, sizeof in6);
    a.v6 = true;
    std::memcpy(a.bytes.data(), &in6.sin6_addr, 16);
    return a;
  }
  return std::nullopt;
}

std::string IpAddress::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf);
  return buf;
}

}  // namespace dozor::net
