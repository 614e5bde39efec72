#include "handlers/app.hpp"

#include <algorithm>
#include <filesystem>

#include "engines/config/database_params.hpp"
#include "engines/limits.hpp"
#include "handlers/vault_malware.hpp"

namespace dozor {
namespace {

monitor::SlotLimits slot_limits(const config::Config& cfg) {
  monitor::SlotLimits l;
  int threads = cfg.server.workers * cfg.server.threads;
  l.global = cfg.limits.check_slots > 0 ? cfg.limits.check_slots : std::max(1, threads / 2);
  l.per_user = cfg.limits.check_slots_per_user;
  l.per_process = std::max(1, cfg.server.threads / 2);
  return l;
}

std::string slots_file(const config::Config& cfg, const char* name = "check-slots") {
  return (std::filesystem::path(cfg.server.state_dir) / name).string();
}

monitor::SlotLimits vault_check_limits(const config::Config& cfg) {
  monitor::SlotLimits l;
  l.global = limits::analyzer::kVaultChecksInFlight;
  l.per_user = limits::analyzer::kVaultChecksPerUser;
  l.per_process = std::max(1, cfg.server.threads / 2);  // as the one-shot checks: threads for the rest
  return l;
}

monitor::SlotRefusal vault_check_refusal() {
  return {"A check for personal data of yours is already in progress; try again when it ends",
          "Too many checks for personal data are in progress; try again shortly",
          limits::analyzer::kVaultCheckRetryAfterSeconds};
}

}  // namespace

App::App(config::Config c)
    : cfg(std::move(c)),
      jwt_key(auth::load_jwt_key(cfg.auth.jwt_secret_file)),
      db(config::connection_params(cfg, config::ProcessKind::FcgiWorker)),
      auth(db, cfg.auth, jwt_key),
      passwords(auth::PasswordPolicy::load(cfg.paths.common_passwords,
                                           static_cast<std::size_t>(cfg.auth.min_password_length))),
      egress(cfg.scanner.allow_private_targets),
      check_slots(slots_file(cfg), slot_limits(cfg)),
      vault_check_slots(slots_file(cfg, "vault-check-slots"), vault_check_limits(cfg), vault_check_refusal()),
      vault_sessions(db, cfg.vault),
      vault(db, cfg.vault),
      audit_data(audit::shared_audit_data(cfg.paths.audit_data)) {
  if (cfg.vault.clamav) vault.set_malware_check(handlers::analyzer_malware_check(cfg, jwt_key));
  // Accounts made while no dozor-fcgi ran (dozorctl user add) get their vault homes now.
  vault.ensure_homes();
}

}  // namespace dozor
