#include "engines/users/user_admin.hpp"

#include <algorithm>
#include <map>

#include "engines/auth/password.hpp"
#include "engines/auth/username.hpp"
#include "engines/errors.hpp"

namespace dozor::users {
namespace {

bool is_only_active_admin(const std::vector<std::int64_t>& admins, std::int64_t id) {
  return admins.size() == 1 && admins.front() == id;
}

}  // namespace

db::users::User create(db::Database& db, const auth::PasswordPolicy& policy, const NewUser& n) {
  auto name = auth::check_new_username(n.username);
  if (!name.problem.empty()) throw InvalidField("username", name.problem);
  if (auto problem = policy.problem(n.password, name.canonical); !problem.empty())
    throw InvalidField("password", problem);
  db::users::User u;
  u.username = n.username;
  u.username_canonical = name.canonical;
  u.email = n.email;
  u.password_hash = auth::hash_password(n.password);
  u.is_admin = n.is_admin;
  u.is_active = n.is_active;
  std::optional<db::users::User> created;
  try {
    db.run(
        [&](db::Connection& c) {
          auto id = db::users::insert(c, u);
          created = db::users::find_by_id(c, id);
        },
        db::Retry::Never);
  } catch (const db::DuplicateKey&) {
    throw Conflict("A user with this username or e-mail already exists");
  }
  return *created;
}

db::users::User update(db::Database& db, const auth::PasswordPolicy& policy, std::int64_t id, const Update& up) {
  if (up.password) {
    // The rule needs the account's name: read it first (a rename cannot happen in between,
    // names never change).
    auto current = get(db, id);
    if (auto problem = policy.problem(*up.password, current.username_canonical); !problem.empty())
      throw InvalidField("password", problem);
  }
  db::users::Changes ch;
  ch.email = up.email;
  ch.is_active = up.is_active;
  ch.is_admin = up.is_admin;
  if (up.password) ch.password_hash = auth::hash_password(*up.password);
  std::optional<db::users::User> result;
  try {
    db.run(
        [&](db::Connection& c) {
          c.transaction([&] {
            auto admins = db::users::lock_active_admin_ids(c);
            auto current = db::users::find_by_id(c, id);
            if (!current) throw NotFound("User not found");
            bool loses_admin = current->is_admin && current->is_active &&
                               ((up.is_admin && !*up.is_admin) || (up.is_active && !*up.is_active));
            if (loses_admin && is_only_active_admin(admins, id))
              throw Conflict("The last active admin cannot be deactivated or demoted");
            ch.bump_token_version = up.password.has_value() || (up.is_active && !*up.is_active && current->is_active) ||
                                    (up.is_admin && !*up.is_admin && current->is_admin);
            db::users::update(c, id, ch);
            result = db::users::find_by_id(c, id);
          });
        },
        db::Retry::Never);
  } catch (const db::DuplicateKey&) {
    throw Conflict("A user with this e-mail already exists");
  }
  return *result;
}

db::users::User remove(db::Database& db, std::int64_t id) {
  std::optional<db::users::User> gone;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto admins = db::users::lock_active_admin_ids(c);
          if (is_only_active_admin(admins, id)) throw Conflict("The last active admin cannot be deleted");
          gone = db::users::find_by_id(c, id);
          if (!gone || !db::users::remove(c, id)) throw NotFound("User not found");
        });
      },
      db::Retry::Never);
  return *gone;
}

db::users::User get(db::Database& db, std::int64_t id) {
  std::optional<db::users::User> u;
  db.run([&](db::Connection& c) { u = db::users::find_by_id(c, id); }, db::Retry::OnLostConnection);
  if (!u) throw NotFound("User not found");
  return *u;
}

std::optional<db::users::User> find_by_name(db::Database& db, const std::string& username) {
  auto canonical = auth::canonical_username(username);
  if (!canonical) return std::nullopt;
  std::optional<db::users::User> u;
  db.run([&](db::Connection& c) { u = db::users::find_by_canonical(c, *canonical); }, db::Retry::OnLostConnection);
  return u;
}

void fill_canonical_usernames(db::Connection& c) {
  std::string problems;
  c.transaction([&] {
    auto rows = db::users::lock_all_names(c);
    std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>> by_name;
    for (const auto& [id, name] : rows) {
      auto canonical = auth::canonical_username(name);
      if (!canonical)
        problems += "\n  user #" + std::to_string(id) + " '" + name +
                    "' has no canonical form (control, unassigned or private-use characters, or too long)";
      else
        by_name[*canonical].emplace_back(id, name);
    }
    for (const auto& [canonical, owners] : by_name) {
      if (owners.size() < 2) continue;
      problems += "\n  users";
      for (const auto& [id, name] : owners) problems += " #" + std::to_string(id) + " '" + name + "'";
      problems += " are one name ('" + canonical + "')";
    }
    if (!problems.empty()) return;  // nothing written
    for (const auto& [canonical, owners] : by_name) db::users::set_canonical(c, owners.front().first, canonical);
  });
  if (!problems.empty())
    throw std::runtime_error(
        "usernames must be unique after canonicalisation (docs/login.md); rename these accounts, e.g."
        " UPDATE users SET username = 'new-name' WHERE id = N, then run dozorctl migrate again:" +
        problems);
  db::users::require_canonical(c);
}

std::vector<db::users::User> list(db::Database& db) {
  std::vector<db::users::User> out;
  db.run([&](db::Connection& c) { out = db::users::list(c); }, db::Retry::OnLostConnection);
  return out;
}

}  // namespace dozor::users
