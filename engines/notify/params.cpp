#include "engines/notify/params.hpp"

#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>

#include "engines/net/ip_address.hpp"
#include "engines/text/ascii.hpp"

namespace dozor::notify {
namespace {

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

std::optional<std::string> first_control(const boost::json::value& v, const std::string& name) {
  if (v.is_string()) {
    if (has_control_chars(v.get_string())) return name;
  } else if (v.is_object()) {
    for (const auto& [k, member] : v.get_object())
      if (auto found = first_control(member, std::string(k))) return found;
  } else if (v.is_array()) {
    for (const auto& item : v.get_array())
      if (auto found = first_control(item, name)) return found;
  }
  return std::nullopt;
}

}  // namespace

bool has_control_chars(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return true;
    // U+0080..U+009F are encoded as C2 80 .. C2 9F.
    if (c == 0xc2 && i + 1 < s.size()) {
      auto next = static_cast<unsigned char>(s[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return true;
    }
  }
  return false;
}

bool is_telegram_token_text(std::string_view token) {
  for (char c : token)
    if (!is_ascii_alnum(c) && c != ':' && c != '_' && c != '-') return false;
  return true;
}

std::optional<std::string> smtp_host_problem(std::string_view host) {
  if (host.empty()) return "the host is empty";
  std::string_view bare = host;
  if (bare.size() > 2 && bare.front() == '[' && bare.back() == ']') bare = bare.substr(1, bare.size() - 2);
  if (bare.find(':') != std::string_view::npos) {
    auto ip = net::IpAddress::parse(bare);
    if (ip && ip->v6) return std::nullopt;
    return "the host must be a DNS name or an IP address (no port, user or path: the port is its own field)";
  }
  if (bare.size() != host.size()) return "only an IPv6 address may be written in brackets";
  for (char c : host)
    if (!is_ascii_alnum(c) && c != '-' && c != '.')
      return "the host must be a DNS name or an IP address: letters, digits, '-' and '.' only";
  if (host.front() == '.' || host.front() == '-' || host.find("..") != std::string_view::npos)
    return "the host is not a valid DNS name";
  return std::nullopt;
}

std::string smtp_url_host(std::string_view host) {
  if (host.find(':') != std::string_view::npos && host.front() != '[') return "[" + std::string(host) + "]";
  return std::string(host);
}

std::optional<UrlIssue> proxy_problem(std::string_view proxy) {
  auto u = boost::urls::parse_uri(proxy);
  if (!u || !u->has_authority() || u->encoded_host().empty())
    return UrlIssue{"url_parsing", "Input should be a valid URL"};
  std::string scheme = text::ascii_lower(u->scheme());
  if (scheme != "http" && scheme != "https" && scheme != "socks5" && scheme != "socks5h")
    return UrlIssue{"url_scheme", "URL scheme should be 'http', 'https', 'socks5' or 'socks5h'"};
  if ((!u->encoded_path().empty() && u->encoded_path() != "/") || u->has_query() || u->has_fragment())
    return UrlIssue{"url_parsing", "Input should be a valid URL, a proxy has no path, query or fragment"};
  // Percent-encoding must not smuggle in what the raw text may not hold.
  if (has_control_chars(u->host()) || has_control_chars(u->userinfo()))
    return UrlIssue{"url_parsing", "Input should be a valid URL, control characters are not allowed"};
  return std::nullopt;
}

std::optional<std::string> member_with_control_chars(const boost::json::object& params) {
  for (const auto& [k, member] : params)
    if (auto found = first_control(member, std::string(k))) return found;
  return std::nullopt;
}

}  // namespace dozor::notify
