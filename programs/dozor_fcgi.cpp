// dozor-fcgi: the FastCGI application server (master + worker pool).
#include <sysexits.h>

#include <iostream>
#include <string>

#include "db/database.hpp"
#include "engines/audit/data.hpp"
#include "engines/audit/geo/geo.hpp"
#include "engines/auth/auth_service.hpp"
#include "engines/auth/password_policy.hpp"
#include "engines/config/command_line.hpp"
#include "engines/config/config.hpp"
#include "engines/limits.hpp"
#include "engines/net/multi_fetch.hpp"
#include "fcgi/dispatch.hpp"
#include "fcgi/routes.hpp"
#include "fcgi/supervisor.hpp"
#include "fcgi/worker.hpp"
#include "handlers/app.hpp"

namespace {

constexpr const char* kUsage =
    "usage: dozor-fcgi [--config FILE] [--check-config]\n"
    "       dozor-fcgi --version | --help\n"
    "  --config FILE    configuration (default $DOZOR_CONFIG or /etc/dozor/dozor.toml)\n"
    "  --check-config   load the configuration and every file a worker reads at start (JWT key, nginx\n"
    "                   key, database password file, common-password list, audit data), report, and exit:\n"
    "                   0 when valid, 78 (EX_CONFIG) when not; systemd's ExecReload runs it\n"
    "Without --check-config: run the master process (man dozor-fcgi).\n";

// The configuration plus what every worker loads from it at start. Checked before the master
// forks anything, so a bad config fails the start at once (exit 78) instead of a worker crash
// loop that never reports READY; and a reload refuses a config its new workers could not use.
dozor::config::Config load_checked(const std::string& config_path) {
  auto cfg = dozor::config::load(config_path);
  cfg.server.nginx_key = dozor::config::read_nginx_key(cfg.server.nginx_key_file, "server.nginx_key_file");
  dozor::auth::load_jwt_key(cfg.auth.jwt_secret_file);
  dozor::auth::PasswordPolicy::load(cfg.paths.common_passwords, static_cast<std::size_t>(cfg.auth.min_password_length));
  // Compiled once here and inherited by every worker (a reload compiles it afresh).
  dozor::audit::shared_audit_data(cfg.paths.audit_data, /*reload=*/true);
  dozor::audit::geo::check_database(cfg.scanner.geoip_db);
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = dozor::config::parse_command_line(argc, argv, "dozor-fcgi", kUsage);
  if (!parsed.line) return parsed.exit_status;
  const std::string config_path = parsed.line->config_path;
  const bool check_only = parsed.line->check_only;
  try {
    load_checked(config_path);
  } catch (const std::exception& e) {
    std::cerr << "dozor-fcgi: " << e.what() << "\n";
    return EX_CONFIG;
  }
  if (check_only) {
    std::cout << "dozor-fcgi: configuration " << dozor::config::resolve_path(config_path) << " is valid\n";
    return 0;
  }
  try {
    auto load = [&] { return load_checked(config_path); };
    // Each worker builds its own state after fork: connections and threads never cross fork().
    auto worker = [](int listen_fd, const dozor::config::Config& cfg) {
      dozor::net::global_init();
      dozor::db::init_driver();
      dozor::App app(cfg);
      auto router = dozor::http::build_router();
      dozor::fcgi::WorkerLimits limits{
          cfg.server.threads,  cfg.server.max_requests, cfg.server.max_body, cfg.server.shutdown_timeout, {},
          cfg.server.nginx_key};
      // Vault uploads go to disk as they arrive (bounded memory), never read whole.
      const long long upload_limit = cfg.vault.max_upload + dozor::limits::kVaultMultipartOverhead;
      limits.stream_body = [upload_limit](const dozor::http::Request& r) -> long long {
        return r.method == "POST" && r.raw_path == "/vault/upload" ? upload_limit : 0;
      };
      return dozor::fcgi::run_worker(
          listen_fd, limits, [&](const dozor::http::Request& req) { return dozor::http::dispatch(router, app, req); });
    };
    return dozor::fcgi::run_supervisor(load, worker);
  } catch (const std::exception& e) {
    std::cerr << "dozor-fcgi: " << e.what() << "\n";
    return 1;
  }
}
