#include "engines/monitor/services.hpp"

#include "engines/errors.hpp"

namespace dozor::monitor {

bool is_pending(const db::services::Service& s) { return s.is_active && s.last_status == "down" && s.state != "down"; }

std::vector<db::services::Service> list_services(db::Database& db, std::int64_t user_id) {
  std::vector<db::services::Service> out;
  db.run([&](db::Connection& c) { out = db::services::list_by_user(c, user_id); }, db::Retry::OnLostConnection);
  return out;
}

db::services::Service create_service(db::Database& db, const db::services::Service& s, int max_per_user) {
  std::optional<db::services::Service> created;
  db::services::Inserted inserted;
  db.run(
      [&](db::Connection& c) {
        inserted = db::services::insert(c, s, max_per_user);
        if (inserted.id) created = db::services::find_owned(c, s.user_id, *inserted.id);
      },
      db::Retry::Never);
  if (inserted.full)
    throw Conflict("Service limit reached: at most " + std::to_string(max_per_user) + " services per user");
  if (inserted.no_such_group) throw InvalidField("group_id", "no such group");
  return *created;
}

db::services::Service update_service(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                     const db::services::ServiceUpdate& u) {
  auto result = db::services::UpdateResult::NotFound;
  std::optional<db::services::Service> updated;
  db.run(
      [&](db::Connection& c) {
        result = db::services::update_owned(c, user_id, service_id, u);
        if (result == db::services::UpdateResult::Updated) updated = db::services::find_owned(c, user_id, service_id);
      },
      db::Retry::Never);
  if (result == db::services::UpdateResult::NoSuchGroup) throw InvalidField("group_id", "no such group");
  if (!updated) throw NotFound("Service not found");
  return *updated;
}

void delete_service(db::Database& db, std::int64_t user_id, std::int64_t service_id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::services::remove_owned(c, user_id, service_id); }, db::Retry::Never);
  if (!removed) throw NotFound("Service not found");
}

}  // namespace dozor::monitor
