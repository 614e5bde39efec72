#include "engines/config/database_params.hpp"

namespace dozor::config {

db::ConnectionParams connection_params(const Config& c, ProcessKind kind) {
  const auto& d = c.database;
  db::ConnectionParams p;
  p.socket = d.socket;
  p.host = d.host;
  p.port = d.port;
  p.name = d.name;
  p.user = d.user;
  p.password = d.password;
  p.connect_timeout = d.connect_timeout;
  p.pool_size = pool_size_for(c, kind);
  p.pool_wait_ms = d.pool_wait_ms;
  p.statement_timeout = d.statement_timeout;
  return p;
}

}  // namespace dozor::config
