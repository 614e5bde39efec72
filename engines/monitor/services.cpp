#include "engines/monitor/services.hpp"

#include "engines/errors.hpp"

namespace dozor::monitor {

std::vector<db::services::Service> list_services(db::Database& db, std::int64_t user_id) {
  std::vector<db::services::Service> out;
  db.run([&](db::Connection& c) { out = db::services::list_by_user(c, user_id); }, db::Retry::OnLostConnection);
  return out;
}

db::services::Service create_service(db::Database& db, const db::services::Service& s, int max_per_user) {
  std::optional<db::services::Service> created;
  bool full = false;
  db.run(
      [&](db::Connection& c) {
        auto id = db::services::insert(c, s, max_per_user);
        if (id)
          created = db::services::find_owned(c, s.user_id, *id);
        else
          full = true;
      },
      db::Retry::Never);
  if (full) throw Conflict("Service limit reached: at most " + std::to_string(max_per_user) + " services per user");
  return *created;
}

void delete_service(db::Database& db, std::int64_t user_id, std::int64_t service_id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::services::remove_owned(c, user_id, service_id); }, db::Retry::Never);
  if (!removed) throw NotFound("Service not found");
}

}  // namespace dozor::monitor
