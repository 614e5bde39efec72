#pragma once
#include <cstdint>
#include <string>

#include "db/database.hpp"

namespace dozor::db::login_throttle {

// Seconds the account name must still wait before a login attempt is considered (0 = none).
std::int64_t seconds_blocked(Connection& c, const std::string& username);

// Counts a failure (failures older than `window_s` start the count over) and returns the count.
std::int64_t add_failure(Connection& c, const std::string& username, int window_s);

void block_for(Connection& c, const std::string& username, std::int64_t seconds);

void clear(Connection& c, const std::string& username);

}  // namespace dozor::db::login_throttle
