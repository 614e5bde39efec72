#pragma once
// Folds check samples into the stored hourly and daily rollups, inside the caller's
// transaction (the one that stores the checks themselves).
#include <vector>

#include "db/database.hpp"
#include "engines/monitor/rollup.hpp"

namespace dozor::monitor {

void store_rollups(db::Connection& c, const std::vector<rollup::Sample>& samples);

}  // namespace dozor::monitor
