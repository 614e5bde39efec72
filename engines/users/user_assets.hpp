#pragma once
// What a user owns, as an admin sees it (404 for an unknown user, not an empty list).
#include <cstdint>
#include <vector>

#include "db/channels_repo.hpp"
#include "db/database.hpp"
#include "db/groups_repo.hpp"
#include "db/services_repo.hpp"

namespace dozor::users {

std::vector<db::services::Service> services_of(db::Database& db, std::int64_t user_id);
std::vector<db::groups::Group> groups_of(db::Database& db, std::int64_t user_id);
std::vector<db::channels::Channel> channels_of(db::Database& db, std::int64_t user_id);

}  // namespace dozor::users
