#include "db/groups_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include "db/users_repo.hpp"

namespace dozor::db::groups {
namespace {

// One statement with the count, not one query per group.
constexpr const char* kSelect =
    "SELECT g.id, g.name, g.description, g.color, COUNT(s.id) AS services_count, g.status_slug, g.status_public,"
    " g.status_show_urls, g.status_announcement, g.status_title FROM `groups` g LEFT JOIN services s ON s.group_id = "
    "g.id ";

Group read(sql::ResultSet& rs) {
  Group g;
  g.id = get_int(rs, 1);
  g.name = get_string(rs, 2);
  g.description = opt_string(rs, 3);
  g.color = get_string(rs, 4);
  g.services_count = get_int(rs, 5);
  g.status_slug = opt_string(rs, 6);
  g.status_public = get_bool(rs, 7);
  g.status_show_urls = get_bool(rs, 8);
  g.status_announcement = opt_string(rs, 9);
  g.status_title = opt_string(rs, 10);
  return g;
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
    users::bump_services_revision(c, user_id);  // first: the user row is every writer's first lock
    // Counted under the user row's lock: concurrent creates cannot both pass the bound.
    auto& count = c.prepare("SELECT COUNT(*) FROM `groups` WHERE user_id = ?");
    count.setInt64(1, user_id);
    std::unique_ptr<sql::ResultSet> rs(count.executeQuery());
    if (rs->next() && rs->getInt64(1) >= max_per_user) return;
    auto& st = c.prepare(
        "INSERT INTO `groups` (user_id, name, description, color, status_slug, status_public, status_show_urls,"
        " status_announcement, status_title) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.setInt64(1, user_id);
    st.setString(2, g.name.value_or(""));
    bind_optional(st, 3, g.description.value_or(std::nullopt));
    st.setString(4, g.color.value_or("#4f7cff"));
    bind_optional(st, 5, g.status_slug.value_or(std::nullopt));
    st.setBoolean(6, g.status_public.value_or(false));
    st.setBoolean(7, g.status_show_urls.value_or(false));
    bind_optional(st, 8, g.status_announcement.value_or(std::nullopt));
    bind_optional(st, 9, g.status_title.value_or(std::nullopt));
    st.executeUpdate();
    id = c.last_insert_id();
  });
  return id;
}

bool update_owned(Connection& c, std::int64_t user_id, std::int64_t id, const GroupUpdate& g) {
  bool found = false;
  c.transaction([&] {
    users::bump_services_revision(c, user_id);
    auto& st = c.prepare(
        "UPDATE `groups` SET name = COALESCE(?, name), color = COALESCE(?, color),"
        " status_public = COALESCE(?, status_public), status_show_urls = COALESCE(?, status_show_urls),"
        " description = IF(?, ?, description), status_slug = IF(?, ?, status_slug),"
        " status_announcement = IF(?, ?, status_announcement), status_title = IF(?, ?, status_title)"
        " WHERE user_id = ? AND id = ?");
    unsigned i = 1;
    bind_optional(st, i++, g.name);
    bind_optional(st, i++, g.color);
    bind_optional(st, i++, g.status_public);
    bind_optional(st, i++, g.status_show_urls);
    for (const auto* field : {&g.description, &g.status_slug, &g.status_announcement, &g.status_title}) {
      st.setBoolean(i++, field->has_value());
      bind_optional(st, i++, field->value_or(std::nullopt));
    }
    st.setInt64(i++, user_id);
    st.setInt64(i++, id);
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
    users::bump_services_revision(c, user_id);
    auto& st = c.prepare("DELETE FROM `groups` WHERE user_id = ? AND id = ?");
    st.setInt64(1, user_id);
    st.setInt64(2, id);
    removed = st.executeUpdate() > 0;
  });
  return removed;
}

}  // namespace dozor::db::groups
