#pragma once
// Rows of login_throttle (migration 0003): one per throttle counter key. The decisions are made
// in engines/auth/throttle; this file only reads, locks, writes and expires rows. Times are the
// database's clock in ms since the epoch, so every host of a cluster counts alike.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::login_throttle {

struct Row {
  std::int64_t failures = 0;
  std::int64_t last_ms = 0;
  std::string slots;
};

std::int64_t now_ms(Connection& c);

// The rows that exist among `keys`, read without locks (a blocked client costs no write).
std::map<std::string, Row> peek(Connection& c, const std::vector<std::string>& keys);

// Inside a transaction: makes every key's row exist and locks them all (keys must be sorted,
// the one lock order of every caller, so two attempts cannot deadlock on each other).
std::map<std::string, Row> lock(Connection& c, const std::vector<std::string>& keys);

void store(Connection& c, const std::string& key, const Row& r, std::int64_t expires_ms);
void remove(Connection& c, const std::string& key);

// Deletes at most `limit` rows whose expiry passed; returns how many.
std::int64_t purge_expired(Connection& c, std::int64_t now_ms, int limit);

}  // namespace dozor::db::login_throttle
