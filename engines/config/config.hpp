#pragma once
// Dozor's configuration: one TOML file, every key overridable by DOZOR_<SECTION>_<KEY>.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dozor::config {

struct ServerConfig {
  std::string socket = "/run/dozor/fcgi.sock";
  unsigned socket_mode = 0660;
  int workers = 0;  // 0 = number of cores
  int threads = 16;
  std::int64_t max_requests = 0;
  std::int64_t max_body = 1 << 20;
  int shutdown_timeout = 10;
};

struct DatabaseConfig {
  std::string socket = "/run/mysqld/mysqld.sock";
  std::string host;
  int port = 3306;
  std::string name = "dozor";
  std::string user = "dozor";
  std::string password;
  int connect_timeout = 3;
};

struct AuthConfig {
  std::string jwt_secret_file = "/etc/dozor/jwt.key";
  std::int64_t token_lifetime = 43200;
  int max_failures = 5;
  int lockout_seconds = 60;
};

struct MonitorConfig {
  int timeout = 10;
};

struct ScannerConfig {
  bool allow_private_targets = false;
};

struct PathsConfig {
  std::string migrations = "/usr/share/dozor/migrations";
};

struct Config {
  ServerConfig server;
  DatabaseConfig database;
  AuthConfig auth;
  MonitorConfig monitor;
  ScannerConfig scanner;
  PathsConfig paths;
};

// Thrown with every problem found, one per line.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses TOML text, then applies overrides from `env` ("DOZOR_SERVER_WORKERS=4" entries).
// Unknown sections or keys are errors: a typo must not silently fall back to a default.
Config parse(const std::string& toml_text, const std::vector<std::string>& env);

// Reads the file (path empty → $DOZOR_CONFIG or /etc/dozor/dozor.toml) and the process environment.
Config load(std::string path);

// The path load() would read.
std::string resolve_path(std::string path);

}  // namespace dozor::config
