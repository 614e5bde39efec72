#pragma once
// A user's services: list, create, edit, delete (another user's service is "not found").
#include <cstdint>
#include <vector>

#include "db/database.hpp"
#include "db/services_repo.hpp"

namespace dozor::monitor {

// The latest check failed but the monitor has not (yet) confirmed an outage: the debounced state
// is not down while a re-check, or another location, decides. Such a service is neither shown
// as up nor counted as down (docs/monitoring.md, "Pending").
bool is_pending(const db::services::Service& s);

std::vector<db::services::Service> list_services(db::Database& db, std::int64_t user_id);
// Throws Conflict when the owner already has max_per_user services.
db::services::Service create_service(db::Database& db, const db::services::Service& s, int max_per_user);
// Throws NotFound (not the owner's), InvalidField (group_id not the owner's group).
db::services::Service update_service(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                     const db::services::ServiceUpdate& u);
void delete_service(db::Database& db, std::int64_t user_id, std::int64_t service_id);

}  // namespace dozor::monitor
