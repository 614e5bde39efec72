#include "engines/config/nginx_includes.hpp"

#include <arpa/inet.h>

#include <cctype>
#include <charconv>

namespace dozor::config {

namespace {

constexpr const char* kHeader =
    "# Written by `dozorctl nginx-config` from /etc/dozor/dozor.toml; edit the config, run it again,\n"
    "# then reload nginx. Included by the dozor site (a conffile).\n";

// Body limits carry the multipart envelope on top of the file itself.
constexpr std::int64_t kEnvelopeBytes = std::int64_t{1} << 20;

bool valid_network(std::string_view n) {
  auto slash = n.find('/');
  std::string addr(n.substr(0, slash));
  unsigned char buf[16];
  int max_prefix = 0;
  if (inet_pton(AF_INET, addr.c_str(), buf) == 1)
    max_prefix = 32;
  else if (inet_pton(AF_INET6, addr.c_str(), buf) == 1)
    max_prefix = 128;
  else
    return false;
  if (slash == std::string_view::npos) return true;
  auto len = n.substr(slash + 1);
  int prefix = -1;
  auto [end, ec] = std::from_chars(len.data(), len.data() + len.size(), prefix);
  return ec == std::errc() && end == len.data() + len.size() && !len.empty() && prefix >= 0 && prefix <= max_prefix;
}

std::string allow_lines(const std::string& list, const char* nobody) {
  std::string out = kHeader;
  auto nets = split_networks(list);
  if (nets.empty()) out += std::string("# ") + nobody + "\n";
  for (const auto& n : nets) out += "allow " + n + ";\n";
  return out;
}

// The out-of-band listener (docs/scan.md "XXE and SSRF"): scanner.oast_listen, or, when that is
// empty, a loopback port that answers 404 to everything (the site has the server block either way).
std::string oast_listen(const Config& c) {
  std::string out = kHeader;
  auto listens = split_networks(c.scanner.oast_listen);
  if (listens.empty())
    return out +
           "# scanner.oast_listen is empty: out-of-band interactions are off\nlisten 127.0.0.1:8182;\nreturn 404;\n";
  for (const auto& l : listens) out += "listen " + l + ";\n";
  return out;
}

}  // namespace

std::vector<std::string> split_networks(std::string_view list) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : list) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<std::string> network_problems(std::string_view list, std::string_view key) {
  std::vector<std::string> problems;
  for (const auto& n : split_networks(list))
    if (!valid_network(n))
      problems.push_back("config: " + std::string(key) + ": '" + n +
                         "' is not a network (an IPv4 or IPv6 address with an optional /prefix)");
  return problems;
}

bool valid_listen(std::string_view listen) {
  auto colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  auto host = listen.substr(0, colon);
  auto port_text = listen.substr(colon + 1);
  int port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port < 1 || port > 65535) return false;
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return false;
    std::string addr(host.substr(1, host.size() - 2));
    unsigned char buf[16];
    return inet_pton(AF_INET6, addr.c_str(), buf) == 1;
  }
  for (char ch : host)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '-') return false;
  return true;
}

std::vector<NginxInclude> nginx_includes(const Config& c) {
  // An empty analyzer.listen keeps the listener where the package puts it, open to no one.
  const bool analyzer_off = c.analyzer.listen.empty();
  return {
      {"internal-networks-from-config.conf",
       allow_lines(c.nginx.internal_networks, "nginx.internal_networks is empty: loopback only")},
      {"docserver-networks-from-config.conf",
       allow_lines(c.vault.docserver_networks, "vault.docserver_networks is empty: no network")},
      {"analyzer-networks-from-config.conf",
       allow_lines(analyzer_off ? std::string() : c.analyzer.networks,
                   analyzer_off ? "analyzer.listen is empty: no network" : "analyzer.networks is empty: no network")},
      {"analyzer-listen.conf",
       std::string(kHeader) + "listen " + (analyzer_off ? std::string("127.0.0.1:8181") : c.analyzer.listen) + ";\n"},
      {"oast-listen.conf", oast_listen(c)},
      {"analyzer-body.conf", std::string(kHeader) + "client_max_body_size " +
                                 std::to_string(c.analyzer.max_document + kEnvelopeBytes) + ";\n"},
      {"vault-body.conf",
       std::string(kHeader) + "client_max_body_size " + std::to_string(c.vault.max_upload + kEnvelopeBytes) + ";\n"},
  };
}

}  // namespace dozor::config
