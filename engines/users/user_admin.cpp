#include "engines/users/user_admin.hpp"

#include <algorithm>

#include "engines/auth/password.hpp"
#include "engines/errors.hpp"

namespace dozor::users {
namespace {

bool is_only_active_admin(const std::vector<std::int64_t>& admins, std::int64_t id) {
  return admins.size() == 1 && admins.front() == id;
}

}  // namespace

db::users::User create(db::Database& db, const NewUser& n) {
  db::users::User u;
  u.username = n.username;
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

db::users::User update(db::Database& db, std::int64_t id, const Update& up) {
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

void remove(db::Database& db, std::int64_t id) {
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto admins = db::users::lock_active_admin_ids(c);
          if (is_only_active_admin(admins, id)) throw Conflict("The last active admin cannot be deleted");
          if (!db::users::remove(c, id)) throw NotFound("User not found");
        });
      },
      db::Retry::Never);
}

db::users::User get(db::Database& db, std::int64_t id) {
  std::optional<db::users::User> u;
  db.run([&](db::Connection& c) { u = db::users::find_by_id(c, id); }, db::Retry::OnLostConnection);
  if (!u) throw NotFound("User not found");
  return *u;
}

std::vector<db::users::User> list(db::Database& db) {
  std::vector<db::users::User> out;
  db.run([&](db::Connection& c) { out = db::users::list(c); }, db::Retry::OnLostConnection);
  return out;
}

}  // namespace dozor::users
