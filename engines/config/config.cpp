#include "engines/config/config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "engines/config/nginx_includes.hpp"
#include "engines/limits.hpp"

extern char** environ;

namespace dozor::config {
namespace {

// One entry per key: how to set it from a TOML node and from an environment string.
struct Setter {
  std::function<bool(const toml::node&)> from_toml;
  std::function<bool(const std::string&)> from_text;
};

bool valid_location(const std::string& name) {
  if (name.empty() || name.size() > limits::kLocationChars) return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
           ch == '-';
  });
}

bool parse_int(const std::string& text, std::int64_t& out) {
  try {
    std::size_t used = 0;
    out = std::stoll(text, &used, 10);
    return used == text.size();
  } catch (...) {
    return false;
  }
}

template <typename Int>
Setter int_setter(Int& field, std::int64_t min, std::int64_t max) {
  auto assign = [&field, min, max](std::int64_t v) {
    if (v < min || v > max) return false;
    field = static_cast<Int>(v);
    return true;
  };
  return {[assign](const toml::node& n) {
            auto v = n.value<std::int64_t>();
            return v && assign(*v);
          },
          [assign](const std::string& s) {
            std::int64_t v = 0;
            return parse_int(s, v) && assign(v);
          }};
}

Setter string_setter(std::string& field) {
  return {[&field](const toml::node& n) {
            auto v = n.value<std::string>();
            if (!v) return false;
            field = *v;
            return true;
          },
          [&field](const std::string& s) {
            field = s;
            return true;
          }};
}

// Tesseract language names joined by '+' ("rus+eng", "chi_sim"): they become a file name.
Setter ocr_languages_setter(std::string& field) {
  auto assign = [&field](const std::string& s) {
    static const std::regex kLanguages("[a-z]{3}(_[a-z]+)?(\\+[a-z]{3}(_[a-z]+)?)*");
    if (!std::regex_match(s, kLanguages)) return false;
    field = s;
    return true;
  };
  return {[assign](const toml::node& n) {
            auto v = n.value<std::string>();
            return v && assign(*v);
          },
          assign};
}

Setter bool_setter(bool& field) {
  auto from_text = [&field](const std::string& s) {
    if (s == "true" || s == "1" || s == "yes")
      field = true;
    else if (s == "false" || s == "0" || s == "no")
      field = false;
    else
      return false;
    return true;
  };
  return {[&field](const toml::node& n) {
            auto v = n.value<bool>();
            if (!v) return false;
            field = *v;
            return true;
          },
          from_text};
}

// File modes are written as octal strings ("0660") or integers.
Setter mode_setter(unsigned& field) {
  auto from_text = [&field](const std::string& s) {
    try {
      std::size_t used = 0;
      unsigned long v = std::stoul(s, &used, 8);
      if (used != s.size() || v > 0777) return false;
      field = static_cast<unsigned>(v);
      return true;
    } catch (...) {
      return false;
    }
  };
  return {[from_text](const toml::node& n) {
            if (auto s = n.value<std::string>()) return from_text(*s);
            return false;
          },
          from_text};
}

std::map<std::string, Setter> setters(Config& c) {
  constexpr std::int64_t kBig = 1LL << 40;
  return {
      {"server.socket", string_setter(c.server.socket)},
      {"server.socket_mode", mode_setter(c.server.socket_mode)},
      {"server.workers", int_setter(c.server.workers, 0, 256)},
      {"server.threads", int_setter(c.server.threads, 1, 1024)},
      {"server.max_requests", int_setter(c.server.max_requests, 0, kBig)},
      {"server.max_body", int_setter(c.server.max_body, 1024, 256LL << 20)},  // read whole: keep it bounded
      {"server.shutdown_timeout", int_setter(c.server.shutdown_timeout, 0, 3600)},
      {"server.state_dir", string_setter(c.server.state_dir)},
      {"database.socket", string_setter(c.database.socket)},
      {"database.host", string_setter(c.database.host)},
      {"database.port", int_setter(c.database.port, 1, 65535)},
      {"database.name", string_setter(c.database.name)},
      {"database.user", string_setter(c.database.user)},
      {"database.password", string_setter(c.database.password)},
      {"database.password_file", string_setter(c.database.password_file)},
      {"database.connect_timeout", int_setter(c.database.connect_timeout, 1, 60)},
      {"database.pool_size", int_setter(c.database.pool_size, 0, 64)},
      {"database.pool_wait_ms", int_setter(c.database.pool_wait_ms, 1, 60000)},
      {"database.statement_timeout", int_setter(c.database.statement_timeout, 1, 3600)},
      {"server.nginx_key_file", string_setter(c.server.nginx_key_file)},
      {"auth.jwt_secret_file", string_setter(c.auth.jwt_secret_file)},
      {"auth.token_lifetime", int_setter(c.auth.token_lifetime, 60, 30LL * 86400)},
      {"auth.max_failures", int_setter(c.auth.max_failures, 1, 1000)},
      {"auth.lockout_seconds", int_setter(c.auth.lockout_seconds, 1, 86400)},
      {"auth.client_max_failures", int_setter(c.auth.client_max_failures, 1, 100000)},
      {"auth.account_max_failures", int_setter(c.auth.account_max_failures, 1, 1000000)},
      {"auth.device_cookie_days", int_setter(c.auth.device_cookie_days, 1, 400)},
      {"auth.hash_concurrency", int_setter(c.auth.hash_concurrency, 1, 64)},
      {"auth.hash_queue", int_setter(c.auth.hash_queue, 0, 10000)},
      {"auth.min_password_length", int_setter(c.auth.min_password_length, 8, 128)},
      {"monitor.timeout", int_setter(c.monitor.timeout, 1, 300)},
      {"monitor.failures_to_down", int_setter(c.monitor.failures_to_down, 1, 100)},
      {"monitor.successes_to_up", int_setter(c.monitor.successes_to_up, 1, 100)},
      {"monitor.location", string_setter(c.monitor.location)},
      {"monitor.confirm_locations", int_setter(c.monitor.confirm_locations, 1, limits::kMaxLocations)},
      {"monitor.lease_seconds", int_setter(c.monitor.lease_seconds, 5, 3600)},
      {"monitor.max_in_flight", int_setter(c.monitor.max_in_flight, 1, 100000)},
      {"monitor.retention_days", int_setter(c.monitor.retention_days, 1, 3650)},
      {"monitor.rollup_retention_days", int_setter(c.monitor.rollup_retention_days, 1, 3650)},
      {"monitor.cert_warning_days", int_setter(c.monitor.cert_warning_days, 1, 365)},
      {"limits.groups_per_user", int_setter(c.limits.groups_per_user, 1, 100000)},
      {"limits.services_per_user", int_setter(c.limits.services_per_user, 1, 1000000)},
      {"limits.check_slots", int_setter(c.limits.check_slots, 0, 4096)},
      {"limits.check_slots_per_user", int_setter(c.limits.check_slots_per_user, 1, 16)},
      {"notify.telegram_api_base", string_setter(c.notify.telegram_api_base)},
      {"notify.language", string_setter(c.notify.language)},
      {"notify.smtp_from", string_setter(c.notify.smtp_from)},
      {"scanner.allow_private_targets", bool_setter(c.scanner.allow_private_targets)},
      {"scanner.ca_file", string_setter(c.scanner.ca_file)},
      {"scanner.request_timeout", int_setter(c.scanner.request_timeout, 1, 120)},
      {"scanner.max_body_bytes", int_setter(c.scanner.max_body_bytes, 1024, std::int64_t{256} * 1024 * 1024)},
      {"scanner.per_host_concurrency", int_setter(c.scanner.per_host_concurrency, 1, 64)},
      {"scanner.per_host_interval_ms", int_setter(c.scanner.per_host_interval_ms, 0, 60000)},
      {"scanner.crawl_seconds", int_setter(c.scanner.crawl_seconds, 1, 600)},
      {"scanner.audit_seconds", int_setter(c.scanner.audit_seconds, 1, 600)},
      {"scanner.geoip_db", string_setter(c.scanner.geoip_db)},
      {"scanner.templates_dirs", string_setter(c.scanner.templates_dirs)},
      {"scanner.scan_any_target", bool_setter(c.scanner.scan_any_target)},
      {"scanner.ownership_grace", bool_setter(c.scanner.ownership_grace)},
      {"scanner.dns_resolver", string_setter(c.scanner.dns_resolver)},
      {"scanner.oast_base_url", string_setter(c.scanner.oast_base_url)},
      {"scanner.oast_listen", string_setter(c.scanner.oast_listen)},
      {"tasks.runners", int_setter(c.tasks.runners, 1, 64)},
      {"tasks.per_user", int_setter(c.tasks.per_user, 1, 64)},
      {"tasks.queued_per_user", int_setter(c.tasks.queued_per_user, 1, 10000)},
      {"tasks.max_attempts", int_setter(c.tasks.max_attempts, 1, 100)},
      {"tasks.lease_seconds", int_setter(c.tasks.lease_seconds, 3, 3600)},
      {"tasks.task_seconds", int_setter(c.tasks.task_seconds, 1, 86400)},
      {"tasks.keep_days", int_setter(c.tasks.keep_days, 1, 3650)},
      {"paths.migrations", string_setter(c.paths.migrations)},
      {"analyzer.socket", string_setter(c.analyzer.socket)},
      {"analyzer.socket_mode", mode_setter(c.analyzer.socket_mode)},
      {"analyzer.workers", int_setter(c.analyzer.workers, 1, 64)},
      {"analyzer.threads", int_setter(c.analyzer.threads, 1, 256)},
      {"analyzer.model", string_setter(c.analyzer.model)},
      {"analyzer.max_document", int_setter(c.analyzer.max_document, 1024, 1LL << 30)},
      {"analyzer.max_pages", int_setter(c.analyzer.max_pages, 1, 100000)},
      {"analyzer.max_seconds", int_setter(c.analyzer.max_seconds, 1, 3600)},
      {"analyzer.user_documents_per_hour", int_setter(c.analyzer.user_documents_per_hour, 0, 1000000000)},
      {"analyzer.user_bytes_per_hour", int_setter(c.analyzer.user_bytes_per_hour, 0, 1LL << 50)},
      {"analyzer.user_pages_per_hour", int_setter(c.analyzer.user_pages_per_hour, 0, 1000000000)},
      {"analyzer.user_seconds_per_hour", int_setter(c.analyzer.user_seconds_per_hour, 0, 1000000000)},
      {"analyzer.ocr", bool_setter(c.analyzer.ocr)},
      {"analyzer.ocr_languages", ocr_languages_setter(c.analyzer.ocr_languages)},
      {"analyzer.fetch_urls", bool_setter(c.analyzer.fetch_urls)},
      {"analyzer.fetch_timeout", int_setter(c.analyzer.fetch_timeout, 1, 600)},
      {"analyzer.nginx_key_file", string_setter(c.analyzer.nginx_key_file)},
      {"analyzer.listen", string_setter(c.analyzer.listen)},
      {"analyzer.networks", string_setter(c.analyzer.networks)},
      {"paths.common_passwords", string_setter(c.paths.common_passwords)},
      {"paths.audit_data", string_setter(c.paths.audit_data)},
      {"vault.root", string_setter(c.vault.root)},
      {"vault.origins", string_setter(c.vault.origins)},
      {"vault.max_upload", int_setter(c.vault.max_upload, 1, kBig)},
      {"vault.quota", int_setter(c.vault.quota, 0, kBig * 1024)},
      {"vault.trash_days", int_setter(c.vault.trash_days, 1, 3650)},
      {"vault.session_idle", int_setter(c.vault.session_idle, 60, std::int64_t{7} * 86400)},
      {"vault.session_absolute", int_setter(c.vault.session_absolute, 300, std::int64_t{30} * 86400)},
      {"vault.docserver_url", string_setter(c.vault.docserver_url)},
      {"vault.docserver_jwt_secret", string_setter(c.vault.docserver_jwt_secret)},
      {"vault.docserver_jwt_secret_file", string_setter(c.vault.docserver_jwt_secret_file)},
      {"vault.docserver_networks", string_setter(c.vault.docserver_networks)},
      {"vault.clamav", bool_setter(c.vault.clamav)},
      {"vault.clamav_database", string_setter(c.vault.clamav_database)},
      {"nginx.internal_networks", string_setter(c.nginx.internal_networks)},
  };
}

// "https://docs.example.com:8443": a host of letters, digits, '.' and '-', an optional port,
// nothing after. No IPv6 literal: CSP's host-source grammar has none, so browsers would drop it.
bool bare_http_origin(std::string_view u) {
  std::string_view rest;
  if (u.rfind("http://", 0) == 0)
    rest = u.substr(7);
  else if (u.rfind("https://", 0) == 0)
    rest = u.substr(8);
  else
    return false;
  std::size_t host_end = 0;
  while (host_end < rest.size() &&
         (std::isalnum(static_cast<unsigned char>(rest[host_end])) || rest[host_end] == '.' || rest[host_end] == '-'))
    ++host_end;
  if (host_end == 0) return false;
  auto port = rest.substr(host_end);
  if (port.empty()) return true;
  if (port.front() != ':' || port.size() < 2 || port.size() > 6) return false;
  for (char c : port.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "name@example.com": one '@' with text on both sides, a dot in the domain, at most 254 bytes, and
// nothing that could end or extend a header or an SMTP command (controls, spaces, '<', '>', ',').
bool plain_mail_address(std::string_view a) {
  auto at = a.find('@');
  if (a.size() > 254 || at == std::string_view::npos || at == 0 || a.find('@', at + 1) != std::string_view::npos)
    return false;
  auto domain = a.substr(at + 1);
  if (domain.empty() || domain.find('.') == std::string_view::npos || domain.front() == '.' || domain.back() == '.')
    return false;
  for (char ch : a) {
    auto u = static_cast<unsigned char>(ch);
    if (u <= 0x20 || u >= 0x7f || ch == '<' || ch == '>' || ch == ',' || ch == ';' || ch == '"' || ch == '\\')
      return false;
  }
  return true;
}

// "DOZOR_SERVER_MAX_BODY" → "server.max_body" (the section is the first word).
std::string env_to_key(const std::string& name) {
  std::string rest = name.substr(6);
  auto us = rest.find('_');
  if (us == std::string::npos) return {};
  std::string key = rest.substr(0, us) + "." + rest.substr(us + 1);
  for (auto& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return key;
}

}  // namespace

Config parse(const std::string& toml_text, const std::vector<std::string>& env) {
  Config c;
  auto table = setters(c);
  std::ostringstream problems;

  toml::table doc;
  try {
    doc = toml::parse(toml_text);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << "config: TOML syntax error at line " << e.source().begin.line << ": " << e.description();
    throw ConfigError(msg.str());
  }
  for (auto&& [section, node] : doc) {
    auto* sect = node.as_table();
    if (!sect) {
      problems << "config: '" << section.str() << "' is not a section\n";
      continue;
    }
    for (auto&& [key, value] : *sect) {
      std::string full = std::string(section.str()) + "." + std::string(key.str());
      auto it = table.find(full);
      if (it == table.end())
        problems << "config: unknown key '" << full << "'\n";
      else if (!it->second.from_toml(value))
        problems << "config: invalid value for '" << full << "'\n";
    }
  }
  for (const auto& entry : env) {
    if (entry.rfind("DOZOR_", 0) != 0 || entry.rfind("DOZOR_CONFIG=", 0) == 0) continue;
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string key = env_to_key(entry.substr(0, eq));
    auto it = table.find(key);
    if (it == table.end()) continue;  // other DOZOR_* variables (tests, scripts) are not config
    if (!it->second.from_text(entry.substr(eq + 1)))
      problems << "config: invalid value in " << entry.substr(0, eq) << "\n";
  }
  if (c.server.workers == 0)
    c.server.workers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxDefaultWorkers);
  if (c.notify.language != "en" && c.notify.language != "ru")
    problems << "config: notify.language must be \"en\" or \"ru\"\n";
  if (c.notify.telegram_api_base.rfind("https://", 0) != 0 && c.notify.telegram_api_base.rfind("http://", 0) != 0)
    problems << "config: notify.telegram_api_base must be an http(s) URL\n";
  if (!c.notify.smtp_from.empty() && !plain_mail_address(c.notify.smtp_from))
    problems << "config: notify.smtp_from must be empty or one e-mail address (name@example.com)\n";
  if (!c.scanner.oast_base_url.empty() && c.scanner.oast_base_url.rfind("https://", 0) != 0 &&
      c.scanner.oast_base_url.rfind("http://", 0) != 0)
    problems << "config: scanner.oast_base_url must be empty or an http(s) URL\n";
  // Rollups summarise raw checks: they must outlive them, or history would have a hole.
  if (c.monitor.rollup_retention_days < c.monitor.retention_days)
    problems << "config: monitor.rollup_retention_days must be at least monitor.retention_days\n";
  // A lease shorter than a check (plus time to store it) would hand a service to a second
  // dozord while the first is still checking it.
  if (c.monitor.lease_seconds < c.monitor.timeout + 5)
    problems << "config: monitor.lease_seconds must be at least monitor.timeout + 5\n";
  // A location is a list element in service_state.failed_locations (comma-separated).
  if (!valid_location(c.monitor.location))
    problems << "config: monitor.location must be 1-64 characters of A-Z a-z 0-9 . _ -\n";
  if (c.vault.root.empty() || c.vault.root.front() != '/') problems << "config: vault.root must be an absolute path\n";
  if (!c.vault.docserver_url.empty()) {
    const auto& u = c.vault.docserver_url;
    // A bare origin: it goes into the editor page's CSP as a source, so nothing but
    // scheme://host[:port] (a ';' or a space would add directives).
    if (!bare_http_origin(u))
      problems << "config: vault.docserver_url must be an http(s) origin (scheme://host[:port], no path; a host "
                  "name or IPv4 address, as a CSP source names it)\n";
    if (c.vault.docserver_jwt_secret.size() < 16 && c.vault.docserver_jwt_secret_file.empty())
      problems
          << "config: vault.docserver_jwt_secret must hold at least 16 characters when vault.docserver_url is set\n";
  }
  if (c.vault.session_idle > c.vault.session_absolute)
    problems << "config: vault.session_idle must not exceed vault.session_absolute\n";
  // nginx allows these (nginx_includes.hpp): a typo must fail here, not as a site nginx refuses.
  for (const auto& [list, key] : {std::pair{&c.analyzer.networks, "analyzer.networks"},
                                  std::pair{&c.vault.docserver_networks, "vault.docserver_networks"},
                                  std::pair{&c.nginx.internal_networks, "nginx.internal_networks"}})
    for (const auto& p : network_problems(*list, key)) problems << p << "\n";
  for (const auto& l : split_networks(c.scanner.oast_listen))
    if (!valid_listen(l))
      problems << "config: scanner.oast_listen: '" << l
               << "' is not ADDRESS:PORT (IPv4, [IPv6] or a host name; port 1-65535)\n";
  if (!c.analyzer.listen.empty() && !valid_listen(c.analyzer.listen))
    problems << "config: analyzer.listen must be ADDRESS:PORT (IPv4, [IPv6] or a host name; port 1-65535) or empty\n";
  if (!problems.str().empty()) throw ConfigError(problems.str());
  return c;
}

int pool_size_for(const Config& c, ProcessKind kind) {
  if (c.database.pool_size > 0) return c.database.pool_size;
  switch (kind) {
    case ProcessKind::FcgiWorker: return std::max(2, kFcgiConnectionBudget / std::max(1, c.server.workers));
    case ProcessKind::Daemon: return 8;
    case ProcessKind::Tool: return 2;
  }
  return 2;
}

std::string resolve_path(std::string path) {
  if (!path.empty()) return path;
  if (const char* p = std::getenv("DOZOR_CONFIG"); p && *p) return p;
  return "/etc/dozor/dozor.toml";
}

Config load(std::string path, Secrets secrets) {
  path = resolve_path(std::move(path));
  std::ifstream in(path);
  if (!in) throw ConfigError("config: cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  auto c = parse(text.str(), env);
  if (secrets == Secrets::Skip) return c;
  read_password_file(c);
  read_docserver_secret_file(c);
  return c;
}

void read_password_file(Config& c) {
  auto& d = c.database;
  if (d.password_file.empty()) return;
  // Two sources would leave the admin guessing which one is used (a password left in dozor.env
  // after the package moved it to a file, for example).
  if (!d.password.empty())
    throw ConfigError("config: database.password and database.password_file are both set; keep one (" +
                      d.password_file + " is the package's)");
  std::ifstream in(d.password_file);
  if (!in)
    throw ConfigError("config: cannot read database.password_file " + d.password_file + ": " + std::strerror(errno));
  std::getline(in, d.password);
  if (!d.password.empty() && d.password.back() == '\r') d.password.pop_back();
}

void read_docserver_secret_file(Config& c) {
  auto& v = c.vault;
  if (v.docserver_jwt_secret_file.empty()) return;
  // Like the database password: one source, and the value itself is never part of a message.
  if (!v.docserver_jwt_secret.empty())
    throw ConfigError("config: vault.docserver_jwt_secret and vault.docserver_jwt_secret_file are both set; keep one");
  std::ifstream in(v.docserver_jwt_secret_file);
  if (!in)
    throw ConfigError("config: cannot read vault.docserver_jwt_secret_file " + v.docserver_jwt_secret_file + ": " +
                      std::strerror(errno));
  std::getline(in, v.docserver_jwt_secret);
  if (!v.docserver_jwt_secret.empty() && v.docserver_jwt_secret.back() == '\r') v.docserver_jwt_secret.pop_back();
}

std::string read_nginx_key(const std::string& path, const char* key) {
  if (path.empty()) return {};
  std::ifstream in(path);
  if (!in) throw ConfigError(std::string("config: cannot read ") + key + " " + path + ": " + std::strerror(errno));
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  bool ok = line.size() >= 32 && line.size() <= 256 && std::all_of(line.begin(), line.end(), [](char ch) {
              return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
            });
  // The value itself is never part of a message.
  if (!ok)
    throw ConfigError(std::string("config: ") + key + " " + path +
                      " must hold one line of 32 to 256 characters A-Z a-z 0-9 _ - (the key nginx sends)");
  return line;
}

}  // namespace dozor::config
