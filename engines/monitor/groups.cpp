#include "engines/monitor/groups.hpp"

#include "db/errors.hpp"
#include "engines/errors.hpp"

namespace dozor::monitor {
namespace {
// The only unique column a user sets: status_slug, unique among the owner's groups and among
// published pages (db/migrations/0029): a conflict never tells of another user's private page.
constexpr const char* kSlugTaken = "This status page address is already taken";
}  // namespace

std::vector<db::groups::Group> list_groups(db::Database& db, std::int64_t user_id) {
  std::vector<db::groups::Group> out;
  db.run([&](db::Connection& c) { out = db::groups::list_by_user(c, user_id); }, db::Retry::OnLostConnection);
  return out;
}

db::groups::Group create_group(db::Database& db, std::int64_t user_id, const db::groups::GroupUpdate& g,
                               int max_per_user) {
  std::optional<db::groups::Group> created;
  try {
    db.run(
        [&](db::Connection& c) {
          if (auto id = db::groups::insert(c, user_id, g, max_per_user))
            created = db::groups::find_owned(c, user_id, *id);
        },
        db::Retry::Never);
  } catch (const db::DuplicateKey&) {
    throw Conflict(kSlugTaken);
  }
  if (!created) throw Conflict("Group limit reached: at most " + std::to_string(max_per_user) + " groups per user");
  return *created;
}

db::groups::Group update_group(db::Database& db, std::int64_t user_id, std::int64_t id,
                               const db::groups::GroupUpdate& g) {
  std::optional<db::groups::Group> updated;
  try {
    db.run(
        [&](db::Connection& c) {
          if (db::groups::update_owned(c, user_id, id, g)) updated = db::groups::find_owned(c, user_id, id);
        },
        db::Retry::Never);
  } catch (const db::DuplicateKey&) {
    throw Conflict(kSlugTaken);
  }
  if (!updated) throw NotFound("Group not found");
  return *updated;
}

void delete_group(db::Database& db, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::groups::remove_owned(c, user_id, id); }, db::Retry::Never);
  if (!removed) throw NotFound("Group not found");
}

}  // namespace dozor::monitor
