#pragma once
// A user's groups of services: list, create, edit, delete (another user's group is "not found").
#include <cstdint>
#include <vector>

#include "db/database.hpp"
#include "db/groups_repo.hpp"

namespace dozor::monitor {

std::vector<db::groups::Group> list_groups(db::Database& db, std::int64_t user_id);
// Throws Conflict when the owner already has max_per_user groups or status_slug is taken.
db::groups::Group create_group(db::Database& db, std::int64_t user_id, const db::groups::GroupUpdate& g,
                               int max_per_user);
// Throws NotFound, or Conflict when status_slug is taken.
db::groups::Group update_group(db::Database& db, std::int64_t user_id, std::int64_t id,
                               const db::groups::GroupUpdate& g);
void delete_group(db::Database& db, std::int64_t user_id, std::int64_t id);

}  // namespace dozor::monitor
