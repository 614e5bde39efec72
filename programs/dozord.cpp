// dozord: the background daemon — scheduled checks of every active service (engines/monitor) and
// the background tasks of the queue (engines/tasks: crawls, audits).
// Several may run, on one host or several: they share the work through leases in MariaDB.
#include <sysexits.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>

#include "db/database.hpp"
#include "engines/audit/data.hpp"
#include "engines/auth/auth_service.hpp"
#include "engines/config/command_line.hpp"
#include "engines/config/config.hpp"
#include "engines/config/database_params.hpp"
#include "engines/monitor/daemon.hpp"
#include "engines/monitor/outbox_sender.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/multi_fetch.hpp"
#include "engines/notify/outbox.hpp"
#include "engines/tasks/pool.hpp"
#include "engines/vault/vault.hpp"

namespace {

constexpr const char* kUsage =
    "usage: dozord [--config FILE] [--check-config]\n"
    "       dozord --version | --help\n"
    "  --config FILE    configuration (default $DOZOR_CONFIG or /etc/dozor/dozor.toml)\n"
    "  --check-config   load the configuration (and database.password_file), report, and exit:\n"
    "                   0 when valid, 78 (EX_CONFIG) when not; systemd's ExecReload runs it\n"
    "Without --check-config: run the daemon (man dozord).\n";

// Trash items purged per retention round (every minute): thousands a day at most, while a
// round never holds the checks back for long.
constexpr int kVaultTrashChunk = 100;

std::atomic<bool> g_exit{false};
std::atomic<bool> g_reload{false};
std::atomic<bool> g_stop_loop{false};  // either of the above: the daemon loop winds down

void request_exit(int) {
  g_exit.store(true);
  g_stop_loop.store(true);
}
// engines/notify's delivery behind the daemon's OutboxSender hook: the daemon's OutboxPump runs
// it on a thread of its own, so a slow SMTP server never delays a check.
class NotifyOutbox final : public dozor::monitor::OutboxSender {
 public:
  NotifyOutbox(const dozor::config::Config& cfg, dozor::db::Database& db, const dozor::net::EgressPolicy& egress)
      : db_(db) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    opts_.owner = std::string(host) + ":" + std::to_string(getpid()) + ":outbox";
    opts_.language = dozor::notify::parse_language(cfg.notify.language);
    opts_.send = dozor::notify::send_context(cfg, egress);
  }
  // Each send is bounded by its own timeout; the deadline only decides whether to start a round.
  int deliver_pending(std::chrono::steady_clock::time_point deadline) override {
    if (std::chrono::steady_clock::now() >= deadline) return 0;
    try {
      auto s = dozor::notify::deliver_pending(db_, opts_);
      if (s.failed) std::cerr << "dozord: " << s.failed << " notification(s) failed; retried with backoff\n";
      return s.sent + s.failed;
    } catch (const std::exception& e) {
      std::cerr << "dozord: outbox: " << e.what() << "\n";  // database away: the next round tries again
      return 0;
    }
  }

 private:
  dozor::db::Database& db_;
  dozor::notify::OutboxOptions opts_;
};

void request_reload(int) {
  g_reload.store(true);
  g_stop_loop.store(true);
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = dozor::config::parse_command_line(argc, argv, "dozord", kUsage);
  if (!parsed.line) return parsed.exit_status;
  const std::string config_path = parsed.line->config_path;
  const bool check_only = parsed.line->check_only;
  // A config error is final (exit 78: the unit's RestartPreventExitStatus= stops retrying).
  dozor::config::Config cfg;
  std::shared_ptr<const dozor::audit::AuditData> audit_data;  // what audit tasks run with
  try {
    cfg = dozor::config::load(config_path);
    audit_data = dozor::audit::load_audit_data(cfg.paths.audit_data);
  } catch (const std::exception& e) {
    std::cerr << "dozord: " << e.what() << "\n";
    return EX_CONFIG;
  }
  if (check_only) {
    std::cout << "dozord: configuration " << dozor::config::resolve_path(config_path) << " is valid\n";
    return 0;
  }
  try {
    struct sigaction sa {};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = request_exit;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    sa.sa_handler = request_reload;
    sigaction(SIGHUP, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    dozor::net::global_init();
    dozor::db::init_driver();
    sd_notify(0, "READY=1");
    for (;;) {
      // One generation per configuration: a reload finishes the checks in flight first.
      dozor::db::Database db(dozor::config::connection_params(cfg, dozor::config::ProcessKind::Daemon));
      dozor::net::EgressPolicy egress(cfg.scanner.allow_private_targets);
      NotifyOutbox outbox(cfg, db, egress);
      dozor::monitor::Daemon daemon(cfg, db, egress, outbox);
      // The vault's trash is swept here too, for users who never come back to empty it.
      std::optional<dozor::vault::Vault> vault;
      try {
        vault.emplace(db, cfg.vault);
        daemon.add_retention("retention of the vault's trash",
                             [&vault] { return vault->purge_expired_all(kVaultTrashChunk); });
      } catch (const std::exception& e) {
        std::cerr << "dozord: the vault's trash is not swept: " << e.what() << "\n";
      }
      std::cerr << "dozord: running as " << daemon.owner() << " (location " << cfg.monitor.location << ")\n";
      // Audit tasks hand the site's documents to the analyzer with a token signed by this key.
      std::string jwt_key;
      try {
        jwt_key = dozor::auth::load_jwt_key(cfg.auth.jwt_secret_file);
      } catch (const std::exception& e) {
        std::cerr << "dozord: audit tasks will not read documents: " << e.what() << "\n";
      }
      dozor::tasks::TaskPool tasks({cfg, egress, audit_data, db, jwt_key},
                                   dozor::tasks::pool_options(cfg, daemon.owner()));
      tasks.start();
      auto stats = daemon.run(g_stop_loop, [] { sd_notify(0, "WATCHDOG=1"); });
      tasks.stop();  // running tasks go back to the queue for the next generation or another dozord
      auto done = tasks.stats();
      std::cerr << "dozord: tasks " << done.succeeded << " succeeded, " << done.failed << " failed, " << done.cancelled
                << " cancelled\n";
      std::cerr << "dozord: " << stats.checks_done << " checks, " << stats.transitions << " state changes\n";
      if (g_exit.load()) break;
      g_reload.store(false);
      g_stop_loop.store(false);
      if (g_exit.load()) g_stop_loop.store(true);  // SIGTERM between the two stores above
      sd_notify(0, "RELOADING=1");
      try {
        auto next = dozor::config::load(config_path);
        audit_data = dozor::audit::load_audit_data(next.paths.audit_data);
        cfg = std::move(next);
        std::cerr << "dozord: configuration reloaded\n";
      } catch (const std::exception& e) {
        std::cerr << "dozord: reload refused, keeping the running configuration: " << e.what() << "\n";
      }
      sd_notify(0, "READY=1");
    }
    sd_notify(0, "STOPPING=1");
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "dozord: " << e.what() << "\n";
    return 1;
  }
}
