#include "handlers/app.hpp"

#include <algorithm>

namespace dozor {
namespace {

db::ConnectionParams params_of(const config::DatabaseConfig& d) {
  return {d.socket, d.host, d.port, d.name, d.user, d.password, d.connect_timeout};
}

}  // namespace

App::App(config::Config c)
    : cfg(std::move(c)),
      db(params_of(cfg.database)),
      auth(db, cfg.auth, auth::load_jwt_key(cfg.auth.jwt_secret_file)),
      egress(cfg.scanner.allow_private_targets),
      check_slots(std::max(1, cfg.server.threads / 4), 2) {}

}  // namespace dozor
