#include "db/groups_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::groups {
namespace {

// One statement with the count, not one query per group.
constexpr const char* kSelect =
    "SELECT g.id, g.name, g.description, g.color, COUNT(s.id) AS services_count FROM `groups` g"
    " LEFT JOIN services s ON s.group_id = g.id ";

Group read(sql::ResultSet& rs) {
  return {get_int(rs, 1), get_string(rs, 2), opt_string(rs, 3), get_string(rs, 4), get_int(rs, 5)};
}

// Services carry their group: a group change is a change of the owner's service list.
void bump_revision(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("UPDATE users SET services_rev = services_rev + 1 WHERE id = ?");
  st.setInt64(1, user_id);
  st.executeUpdate();
}

}  // namespace

std::vector<Group> list_by_user(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string(kSelect) + "WHERE g.user_id = ? GROUP BY g.id ORDER BY g.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Group> out;
  while (rs->next()) out.push_back(read(*rs));
  return out;
}

std::optional<Group> find_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare(std::string(kSelect) + "WHERE g.user_id = ? AND g.id = ? GROUP BY g.id");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read(*rs);
}

std::optional<std::int64_t> insert(Connection& c, std::int64_t user_id, const GroupUpdate& g, int max_per_user) {
  std::optional<std::int64_t> id;
  c.transaction([&] {
    bump_revision(c, user_id);  // first: the user row is every writer's first lock
    // Counted under the user row's lock: concurrent creates cannot both pass the bound.
    auto& count = c.prepare("SELECT COUNT(*) FROM `groups` WHERE user_id = ?");
    count.setInt64(1, user_id);
    std::unique_ptr<sql::ResultSet> rs(count.executeQuery());
    if (rs->next() && rs->getInt64(1) >= max_per_user) return;
    auto& st = c.prepare("INSERT INTO `groups` (user_id, name, description, color) VALUES (?, ?, ?, ?)");
    st.setInt64(1, user_id);
    st.setString(2, g.name.value_or(""));
    bind_optional(st, 3, g.description.value_or(std::nullopt));
    st.setString(4, g.color.value_or("#4f7cff"));
    st.executeUpdate();
    id = c.last_insert_id();
  });
  return id;
}

bool update_owned(Connection& c, std::int64_t user_id, std::int64_t id, const GroupUpdate& g) {
  bool found = false;
  c.transaction([&] {
    bump_revision(c, user_id);
    auto& st = c.prepare(
        "UPDATE `groups` SET name = COALESCE(?, name), color = COALESCE(?, color),"
        " description = IF(?, ?, description) WHERE user_id = ? AND id = ?");
    bind_optional(st, 1, g.name);
    bind_optional(st, 2, g.color);
    st.setBoolean(3, g.description.has_value());
    bind_optional(st, 4, g.description.value_or(std::nullopt));
    st.setInt64(5, user_id);
    st.setInt64(6, id);
    st.executeUpdate();
    // "Rows matched", not "changed": an edit that changes nothing still finds the group.
    auto& exists = c.prepare("SELECT 1 FROM `groups` WHERE user_id = ? AND id = ?");
    exists.setInt64(1, user_id);
    exists.setInt64(2, id);
    std::unique_ptr<sql::ResultSet> rs(exists.executeQuery());
    found = rs->next();
  });
  return found;
}

bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  c.transaction([&] {
    bump_revision(c, user_id);
    auto& st = c.prepare("DELETE FROM `groups` WHERE user_id = ? AND id = ?");
    st.setInt64(1, user_id);
    st.setInt64(2, id);
    removed = st.executeUpdate() > 0;
  });
  return removed;
}

}  // namespace dozor::db::groups
