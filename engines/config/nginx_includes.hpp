#pragma once
// The nginx lines the production site takes from dozor.toml (docs/install.md "nginx and the
// config"). The site is a conffile rendered at build time (nginx/render prod); what depends on
// the config — who may reach each restricted location, the analyzer's listener, the body limits
// that follow analyzer.max_document and vault.max_upload — it includes from /etc/dozor/nginx,
// where `dozorctl nginx-config` writes these files. The dev stack renders the same keys inline.
#include <string>
#include <string_view>
#include <vector>

#include "engines/config/config.hpp"

namespace dozor::config {

struct NginxInclude {
  std::string file;  // a name in /etc/dozor/nginx
  std::string text;
};

// "127.0.0.1/32, ::1/128 10.0.0.0/8" → each entry checked (an IPv4 or IPv6 address, an optional
// prefix length in range); the problems, one per bad entry, naming `key`.
std::vector<std::string> network_problems(std::string_view list, std::string_view key);
std::vector<std::string> split_networks(std::string_view list);

// "ADDRESS:PORT" as nginx's listen takes it (analyzer.listen, each entry of scanner.oast_listen): IPv4, [IPv6] or a
// host name, port 1-65535.
bool valid_listen(std::string_view listen);

// Every file, from a config that parse() accepted.
std::vector<NginxInclude> nginx_includes(const Config& c);

}  // namespace dozor::config
