#pragma once
// The database settings of one process, from the config (db/ knows nothing of the config).
#include "db/database.hpp"
#include "engines/config/config.hpp"

namespace dozor::config {

db::ConnectionParams connection_params(const Config& c, ProcessKind kind);

}  // namespace dozor::config
