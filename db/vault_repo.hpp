#pragma once
// The vault's tables (db/migrations/0011_vault.sql). Prepared statements only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::vault {

// ---- sessions (id_hash: hex of the SHA-256 of the cookie value)
void insert_session(Connection& c, const std::string& id_hash_hex, std::int64_t user_id, std::int64_t token_version,
                    const std::string& remote_addr);
struct SessionRow {
  std::int64_t user_id = 0;
  std::int64_t idle_seconds = 0;  // since last_seen_at
};
// A live session: within both expiries, of the user's current token version, user active.
std::optional<SessionRow> find_live_session(Connection& c, const std::string& id_hash_hex, int idle_seconds,
                                            int absolute_seconds);
void touch_session(Connection& c, const std::string& id_hash_hex);
void delete_session(Connection& c, const std::string& id_hash_hex);
void delete_user_sessions(Connection& c, std::int64_t user_id);
void delete_expired_sessions(Connection& c, int idle_seconds, int absolute_seconds);

// ---- rules
struct RuleRow {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string username;
  std::string path;  // canonical, relative ("" = root)
  bool read = false, write = false, del = false;
};
std::vector<RuleRow> rules_of(Connection& c, std::int64_t user_id);
std::vector<RuleRow> all_rules(Connection& c);
// Inserts or replaces the rights of (user, path); returns the rule id.
std::int64_t upsert_rule(Connection& c, const RuleRow& r);
bool delete_rule(Connection& c, std::int64_t id);
bool delete_rule_at(Connection& c, std::int64_t user_id, const std::string& path);

// ---- trash
struct TrashRow {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string original_path;
  bool is_dir = false;
  std::int64_t size = 0;
  std::int64_t trashed_at = 0;  // seconds since the epoch
};
std::int64_t insert_trash(Connection& c, std::int64_t user_id, const std::string& path, bool is_dir);
void set_trash_size(Connection& c, std::int64_t id, std::int64_t size);
std::vector<TrashRow> trash_of(Connection& c, std::int64_t user_id);
std::optional<TrashRow> find_trash(Connection& c, std::int64_t user_id, std::int64_t id);
bool delete_trash(Connection& c, std::int64_t id);
std::vector<TrashRow> expired_trash(Connection& c, std::int64_t user_id, int days);
// Every user's items past `days`, oldest first, at most `limit` (dozord's sweep).
std::vector<TrashRow> expired_trash_all(Connection& c, int days, int limit);

// ---- usage
std::int64_t usage_of(Connection& c, std::int64_t user_id);
void add_usage(Connection& c, std::int64_t user_id, std::int64_t delta);  // never below 0

// ---- homes (migration 0023: whose /home/<username> is the account's own)
struct HomeRow {
  std::string state;  // "new", "adopt", "ready"
};
std::optional<HomeRow> find_home(Connection& c, std::int64_t user_id);
// Writes the row in `state` unless the account has one (INSERT IGNORE: idempotent).
void insert_home(Connection& c, std::int64_t user_id, const std::string& state);
// Claims the making of the account's home while it is in `state` and nobody else's lease runs;
// true when this call won (one autocommitted UPDATE: under Galera a lost race is error 1213).
bool claim_home(Connection& c, std::int64_t user_id, const std::string& state, int lease_seconds);
void set_home_ready(Connection& c, std::int64_t user_id);
// Accounts whose home is not made yet (no row, or not 'ready'): (id, username), at most `limit`.
std::vector<std::pair<std::int64_t, std::string>> homes_not_ready(Connection& c, int limit);
// Removes every user's rules on `path` and beneath it (canonical, relative); with
// `older_than_user`, only the rules written before that account was created. Returns how many.
int delete_rules_under(Connection& c, const std::string& path, std::optional<std::int64_t> older_than_user);

// ---- audit
struct AuditRow {
  std::int64_t id = 0;
  std::string at;  // ISO 8601 UTC
  std::optional<std::int64_t> user_id;
  std::string username;
  std::string remote_addr;
  std::string action;
  std::string path;
  std::string target;
  std::string outcome;
};
void insert_audit(Connection& c, const AuditRow& a);
// Newest first; before_id 0 = from the newest.
std::vector<AuditRow> audit_page(Connection& c, std::int64_t before_id, int limit);

}  // namespace dozor::db::vault
