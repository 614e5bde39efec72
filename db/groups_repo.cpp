#include "db/groups_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::groups {

std::vector<Group> list_by_user(Connection& c, std::int64_t user_id) {
  // One statement with the count, not one query per group.
  auto& st = c.prepare(
      "SELECT g.id, g.name, g.description, g.color, COUNT(s.id) AS services_count FROM `groups` g"
      " LEFT JOIN services s ON s.group_id = g.id WHERE g.user_id = ? GROUP BY g.id ORDER BY g.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Group> out;
  while (rs->next()) {
    out.push_back({get_int(*rs, 1), get_string(*rs, 2), opt_string(*rs, 3), get_string(*rs, 4), get_int(*rs, 5)});
  }
  return out;
}

}  // namespace dozor::db::groups
