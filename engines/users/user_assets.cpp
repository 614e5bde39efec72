#include "engines/users/user_assets.hpp"

#include "db/users_repo.hpp"
#include "engines/errors.hpp"

namespace dozor::users {
namespace {

template <typename List>
auto owned(db::Database& db, std::int64_t user_id, List list) {
  decltype(list(std::declval<db::Connection&>(), user_id)) out;
  db.run(
      [&](db::Connection& c) {
        if (!db::users::find_by_id(c, user_id)) throw NotFound("User not found");
        out = list(c, user_id);
      },
      db::Retry::OnLostConnection);
  return out;
}

}  // namespace

std::vector<db::services::Service> services_of(db::Database& db, std::int64_t user_id) {
  return owned(db, user_id, db::services::list_by_user);
}
std::vector<db::groups::Group> groups_of(db::Database& db, std::int64_t user_id) {
  return owned(db, user_id, db::groups::list_by_user);
}
std::vector<db::channels::Channel> channels_of(db::Database& db, std::int64_t user_id) {
  return owned(db, user_id, db::channels::list_by_user);
}

}  // namespace dozor::users
