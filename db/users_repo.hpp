#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::users {

struct User {
  std::int64_t id = 0;
  std::string username;            // as typed at creation (shown)
  std::string username_canonical;  // engines/auth/username: what names are compared by
  std::string email;
  std::string password_hash;
  bool is_active = true;
  bool is_admin = false;
  std::int64_t token_version = 1;
  std::int64_t services_rev = 0;  // bumped on every change of the user's services
  std::string created_at;         // ISO 8601 UTC
};

struct Changes {
  std::optional<std::string> email;
  std::optional<bool> is_active;
  std::optional<bool> is_admin;
  std::optional<std::string> password_hash;
  bool bump_token_version = false;
};

std::optional<User> find_by_id(Connection& c, std::int64_t id);
std::optional<User> find_by_canonical(Connection& c, const std::string& canonical);
std::vector<User> list(Connection& c);
// Throws DuplicateKey when the username or e-mail is taken.
std::int64_t insert(Connection& c, const User& u);
void update(Connection& c, std::int64_t id, const Changes& ch);
bool remove(Connection& c, std::int64_t id);
// Migration 0003: every (id, username) row-locked, the canonical form set per id, then the
// column made NOT NULL and the old case-insensitive unique index dropped.
std::vector<std::pair<std::int64_t, std::string>> lock_all_names(Connection& c);
void set_canonical(Connection& c, std::int64_t id, const std::string& canonical);
void require_canonical(Connection& c);

// Ids of active admins, row-locked until the transaction ends (guards the last-admin rule).
std::vector<std::int64_t> lock_active_admin_ids(Connection& c);

// Marks a change of the user's service list (services, their groups) for the list's cache; the
// user row is every such writer's first lock, so concurrent writers queue instead of deadlocking.
void bump_services_revision(Connection& c, std::int64_t user_id);

}  // namespace dozor::db::users
