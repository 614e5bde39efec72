#include "db/channels_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::channels {

std::vector<Channel> list_by_user(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT id, type, enabled, params FROM channels WHERE user_id = ? ORDER BY id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Channel> out;
  while (rs->next()) out.push_back({get_int(*rs, 1), get_string(*rs, 2), get_bool(*rs, 3), get_string(*rs, 4)});
  return out;
}

}  // namespace dozor::db::channels
