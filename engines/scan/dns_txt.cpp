#include "engines/scan/dns_txt.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engines/limits.hpp"
#include "engines/text/ascii.hpp"

namespace dozor::scan::dns {
namespace {

constexpr std::uint16_t kTypeTxt = 16;
constexpr std::uint16_t kClassIn = 1;
constexpr std::size_t kHeader = 12;
constexpr std::size_t kMaxPacket = 4096;

std::uint16_t u16(std::string_view p, std::size_t at) {
  return static_cast<std::uint16_t>((static_cast<unsigned char>(p[at]) << 8) | static_cast<unsigned char>(p[at + 1]));
}

void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xff);
}

std::string lower_name(std::string_view name) {
  std::string s = text::ascii_lower(name);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// Reads the (possibly compressed) name at `at`; advances `at` past it in the packet. Pointers
// must point backwards (no loops); the name is at most 255 octets.
std::optional<std::string> read_name(std::string_view p, std::size_t& at) {
  std::string name;
  std::size_t pos = at;
  bool jumped = false;
  std::size_t octets = 0;
  for (int hops = 0; hops < 128; ++hops) {
    if (pos >= p.size()) return std::nullopt;
    auto len = static_cast<unsigned char>(p[pos]);
    if ((len & 0xc0) == 0xc0) {
      if (pos + 1 >= p.size()) return std::nullopt;
      auto target = static_cast<std::size_t>(u16(p, pos) & 0x3fff);
      if (target >= pos) return std::nullopt;  // forwards or onto itself: a loop
      if (!jumped) at = pos + 2;
      jumped = true;
      pos = target;
      continue;
    }
    if ((len & 0xc0) != 0) return std::nullopt;  // reserved label types
    if (len == 0) {
      if (!jumped) at = pos + 1;
      return name;
    }
    if (pos + 1 + len > p.size()) return std::nullopt;
    octets += len + 1u;
    if (octets > 255) return std::nullopt;
    if (!name.empty()) name += '.';
    name.append(p.substr(pos + 1, len));
    pos += 1 + len;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> build_txt_query(std::uint16_t id, std::string_view name) {
  std::string n = lower_name(name);
  if (n.empty() || n.size() > 253) return std::nullopt;
  std::string out;
  put16(out, id);
  put16(out, 0x0100);  // a standard query, recursion desired
  put16(out, 1);       // one question
  put16(out, 0);
  put16(out, 0);
  put16(out, 0);
  std::size_t start = 0;
  while (start <= n.size()) {
    auto dot = n.find('.', start);
    auto label = n.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (label.empty() || label.size() > 63) return std::nullopt;
    for (char c : label)
      if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) return std::nullopt;
    out += static_cast<char>(label.size());
    out += label;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  out += '\0';
  put16(out, kTypeTxt);
  put16(out, kClassIn);
  return out;
}

TxtAnswer parse_txt_answer(std::string_view p, std::uint16_t id, std::string_view name) {
  TxtAnswer a;
  if (p.size() < kHeader) {
    a.error = "the DNS answer is shorter than its header";
    return a;
  }
  if (u16(p, 0) != id) {
    a.error = "the DNS answer is for another query";
    return a;
  }
  auto flags = u16(p, 2);
  if (!(flags & 0x8000)) {
    a.error = "the DNS packet is not an answer";
    return a;
  }
  if (flags & 0x0200) {
    a.error = "the DNS answer was truncated";
    return a;
  }
  auto qd = u16(p, 4), an = u16(p, 6);
  if (qd != 1) {
    a.error = "the DNS answer does not echo the question";
    return a;
  }
  std::size_t at = kHeader;
  auto qname = read_name(p, at);
  if (!qname || at + 4 > p.size() || text::ascii_lower(*qname) != lower_name(name) || u16(p, at) != kTypeTxt ||
      u16(p, at + 2) != kClassIn) {
    a.error = "the DNS answer does not echo the question";
    return a;
  }
  at += 4;
  auto rcode = flags & 0x000f;
  if (rcode == 3) {  // NXDOMAIN: the name has no records at all
    a.ok = true;
    return a;
  }
  if (rcode != 0) {
    a.error = "the DNS server answered with error code " + std::to_string(rcode);
    return a;
  }
  for (std::uint16_t i = 0; i < an; ++i) {
    if (!read_name(p, at) || at + 10 > p.size()) {
      a.error = "the DNS answer is malformed";
      return a;
    }
    auto type = u16(p, at), cls = u16(p, at + 2);
    std::size_t rdlength = u16(p, at + 8);
    at += 10;
    if (at + rdlength > p.size()) {
      a.error = "the DNS answer is malformed";
      return a;
    }
    if (type == kTypeTxt && cls == kClassIn && a.records.size() < limits::scope::kTxtRecords) {
      std::string value;
      std::size_t r = at;
      while (r < at + rdlength) {
        std::size_t len = static_cast<unsigned char>(p[r]);
        if (r + 1 + len > at + rdlength) {
          a.error = "the DNS answer is malformed";
          return a;
        }
        value.append(p.substr(r + 1, len));
        r += 1 + len;
      }
      a.records.push_back(std::move(value));
    }
    at += rdlength;
  }
  a.ok = true;
  return a;
}

std::optional<Resolver> parse_resolver(std::string_view text) {
  Resolver r;
  std::string host;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = std::string(text.substr(1, close - 1));
    auto rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      text = rest.substr(1);
      if (text.empty()) return std::nullopt;
    } else {
      text = {};
    }
  } else if (std::count(text.begin(), text.end(), ':') > 1) {
    host = std::string(text);  // a bare IPv6 literal
    text = {};
  } else {
    auto colon = text.find(':');
    host = std::string(text.substr(0, colon));
    text = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
    if (colon != std::string_view::npos && text.empty()) return std::nullopt;
  }
  if (!text.empty()) {
    int port = 0;
    for (char c : text) {
      if (c < '0' || c > '9' || port > 65535) return std::nullopt;
      port = port * 10 + (c - '0');
    }
    if (port < 1 || port > 65535) return std::nullopt;
    r.port = port;
  }
  unsigned char buf[sizeof(in6_addr)];
  if (inet_pton(AF_INET, host.c_str(), buf) != 1 && inet_pton(AF_INET6, host.c_str(), buf) != 1) return std::nullopt;
  r.address = host;
  return r;
}

std::optional<Resolver> resolver_from_resolv_conf(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    auto line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    constexpr std::string_view kKey = "nameserver";
    if (line.substr(0, kKey.size()) != kKey) continue;
    auto rest = line.substr(kKey.size());
    auto first = rest.find_first_not_of(" \t");
    if (first == std::string_view::npos || first == 0) continue;
    rest = rest.substr(first);
    auto end = rest.find_first_of(" \t\r#;");
    auto address = rest.substr(0, end);
    if (address.find('%') != std::string_view::npos) continue;  // a scoped link-local address
    if (auto r = parse_resolver(address.find(':') != std::string_view::npos && address.front() != '['
                                    ? "[" + std::string(address) + "]"
                                    : std::string(address)))
      return r;
  }
  return std::nullopt;
}

TxtAnswer lookup_txt(std::string_view name, const Resolver& resolver, std::chrono::milliseconds timeout) {
  TxtAnswer fail;
  if (sodium_init() < 0) {
    fail.error = "libsodium cannot be initialised";
    return fail;
  }
  auto id = static_cast<std::uint16_t>(randombytes_uniform(65536));
  auto query = build_txt_query(id, name);
  if (!query) {
    fail.error = "not a DNS name: " + std::string(name.substr(0, 100));
    return fail;
  }
  sockaddr_storage addr{};
  socklen_t len = 0;
  int family = AF_INET;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (inet_pton(AF_INET, resolver.address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<std::uint16_t>(resolver.port));
    len = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, resolver.address.c_str(), &v6->sin6_addr) == 1) {
    family = AF_INET6;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<std::uint16_t>(resolver.port));
    len = sizeof(sockaddr_in6);
  } else {
    fail.error = "the DNS resolver address is not an IP address";
    return fail;
  }
  int fd = ::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    fail.error = std::string("cannot open a UDP socket: ") + std::strerror(errno);
    return fail;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const std::string& packet = *query;
  // Connected: the kernel drops datagrams from any other address and port.
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      ::send(fd, packet.data(), packet.size(), 0) != static_cast<ssize_t>(packet.size())) {
    fail.error = std::string("cannot reach the DNS resolver: ") + std::strerror(errno);
    return fail;
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[kMaxPacket];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd pfd{fd, POLLIN, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail.error = std::string("the DNS resolver refused the query: ") + std::strerror(errno);
      return fail;
    }
    auto answer = parse_txt_answer(std::string_view(buf, static_cast<std::size_t>(n)), id, name);
    if (answer.error == "the DNS answer is for another query") continue;  // a stray datagram: keep waiting
    return answer;
  }
  fail.error = "the DNS resolver did not answer within " + std::to_string(timeout.count()) + " ms";
  return fail;
}

}  // namespace dozor::scan::dns
