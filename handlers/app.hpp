#pragma once
// What a worker process shares between its threads: config, database, auth and egress gate.
#include <memory>

#include "db/database.hpp"
#include "engines/audit/data.hpp"
#include "engines/auth/auth_service.hpp"
#include "engines/auth/password_policy.hpp"
#include "engines/config/config.hpp"
#include "engines/health/scoreboard.hpp"
#include "engines/monitor/check_slots.hpp"
#include "engines/monitor/status_page.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/vault/sessions.hpp"
#include "engines/vault/vault.hpp"

namespace dozor {

struct App {
  config::Config cfg;
  std::string jwt_key;  // auth.jwt_secret_file: tokens, and the analyzer's token for an audit
  db::Database db;
  auth::AuthService auth;
  auth::PasswordPolicy passwords;  // the common list is loaded once per worker (about 3 MB)
  net::EgressPolicy egress;
  monitor::CheckSlots check_slots;  // shared by every worker process (limits.check_slots*)
  // The vault's checks for personal data (limits::analyzer::kVaultChecks*), shared the same way.
  monitor::CheckSlots vault_check_slots;
  monitor::StatusPageCache status_pages;
  vault::Sessions vault_sessions;
  vault::Vault vault;
  // share/audit (paths.audit_data): loaded by the master before fork (engines/audit/data.hpp).
  std::shared_ptr<const audit::AuditData> audit_data;
  // The pool's shared scoreboard, made by the master before fork; nullptr outside dozor-fcgi.
  const health::Scoreboard* scoreboard = health::Scoreboard::process();

  explicit App(config::Config c);
};

}  // namespace dozor
