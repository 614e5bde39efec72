#pragma once
// Account management for admins: the rules that keep at least one active admin and that kill
// old tokens when an account loses rights or its password.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/users_repo.hpp"

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

// Throws Conflict when the username or e-mail is taken.
db::users::User create(db::Database& db, const NewUser& u);
// Throws NotFound, Conflict (duplicate e-mail, or the last active admin would be lost).
db::users::User update(db::Database& db, std::int64_t id, const Update& u);
// Throws NotFound, Conflict (the last active admin).
void remove(db::Database& db, std::int64_t id);
db::users::User get(db::Database& db, std::int64_t id);
std::vector<db::users::User> list(db::Database& db);

}  // namespace dozor::users
