#pragma once
// Proofs of control for active scans and the ownership grace of the transition
// (db/migrations/0027_scan_verifications.sql, 0028_scan_ownership_grace.sql; docs/scan.md
// "Who may scan what"). The engine (engines/scan/verify) decides; this stores.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::scan_verify {

struct Verification {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string host;
  std::string origin;
  std::string token;
  std::optional<std::string> method;  // http | dns
  std::optional<std::string> scope;   // host | origin
  std::string created_at;             // ISO 8601 UTC, milliseconds
  std::optional<std::string> checked_at;
  std::optional<std::string> verified_at;
  std::optional<std::string> expires_at;
  std::optional<std::string> last_error;
  bool valid = false;  // verified and not expired, by the database's clock
};

std::optional<Verification> find(Connection& c, std::int64_t user_id, std::int64_t id);
std::optional<Verification> find_by_origin(Connection& c, std::int64_t user_id, const std::string& origin);
std::vector<Verification> list(Connection& c, std::int64_t user_id);
std::int64_t count(Connection& c, std::int64_t user_id);
std::int64_t insert(Connection& c, std::int64_t user_id, const std::string& host, const std::string& origin,
                    const std::string& token);
// A successful proof: valid for `valid_days` from now.
void record_proof(Connection& c, std::int64_t id, const std::string& method, const std::string& scope, int valid_days);
// A failed attempt: the error is kept, an earlier proof stays as it was (it expires on its own).
void record_failure(Connection& c, std::int64_t id, const std::string& error);
bool remove(Connection& c, std::int64_t user_id, std::int64_t id);

// Whether the user holds a valid proof for `host` as a whole, or for exactly `origin`.
bool is_verified(Connection& c, std::int64_t user_id, const std::string& host, const std::string& origin);

// The URLs of the user's services still in the transition's grace (unchanged since the migration,
// not expired).
std::vector<std::string> grace_urls(Connection& c, std::int64_t user_id);

}  // namespace dozor::db::scan_verify
