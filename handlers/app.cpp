#include "handlers/app.hpp"

#include <algorithm>

#include "engines/config/database_params.hpp"

namespace dozor {
namespace {}  // namespace

App::App(config::Config c)
    : cfg(std::move(c)),
      db(config::connection_params(cfg, config::ProcessKind::FcgiWorker)),
      auth(db, cfg.auth, auth::load_jwt_key(cfg.auth.jwt_secret_file)),
      passwords(auth::PasswordPolicy::load(cfg.paths.common_passwords,
                                           static_cast<std::size_t>(cfg.auth.min_password_length))),
      egress(cfg.scanner.allow_private_targets),
      check_slots(std::max(1, cfg.server.threads / 4), 2) {}

}  // namespace dozor
