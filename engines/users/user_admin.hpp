#pragma once
// Account management for admins: the rules that keep at least one active admin and that kill
// old tokens when an account loses rights or its password.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "engines/auth/password_policy.hpp"

namespace dozor::users {

struct NewUser {
  std::string username;
  std::string email;
  std::string password;
  bool is_admin = false;
  bool is_active = true;
};

struct Update {
  std::optional<std::string> email;
  std::optional<bool> is_active;
  std::optional<bool> is_admin;
  std::optional<std::string> password;
};

// Throws InvalidField (a username with no canonical form or with invisible characters, a
// password the policy refuses) and Conflict when the canonical username or the e-mail is taken.
db::users::User create(db::Database& db, const auth::PasswordPolicy& policy, const NewUser& u);
// Throws NotFound, InvalidField (password policy), Conflict (duplicate e-mail, or the last
// active admin would be lost).
db::users::User update(db::Database& db, const auth::PasswordPolicy& policy, std::int64_t id, const Update& u);
// Throws NotFound, Conflict (the last active admin). Returns the account as it was (its home
// is then archived by the vault: docs/vault.md "Homes").
db::users::User remove(db::Database& db, std::int64_t id);
db::users::User get(db::Database& db, std::int64_t id);
// The account whose canonical name `username` is (any spelling of it), or nullopt.
std::optional<db::users::User> find_by_name(db::Database& db, const std::string& username);

// Migration 0003's hook: fills users.username_canonical for every row. Throws, naming the
// rows and writing nothing, when two accounts share a canonical name or a name has none.
void fill_canonical_usernames(db::Connection& c);
std::vector<db::users::User> list(db::Database& db);

}  // namespace dozor::users
