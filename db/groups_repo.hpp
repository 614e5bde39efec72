#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::groups {

struct Group {
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> description;
  std::string color;
  std::int64_t services_count = 0;
  // Its public status page (/status/{slug}): docs/status-pages.md.
  std::optional<std::string> status_slug;
  bool status_public = false;
  bool status_show_urls = false;
  std::optional<std::string> status_announcement;
  std::optional<std::string> status_title;  // the page's title; the name when not set
};

// A partial edit: absent members are left; description's inner nullopt sets NULL.
struct GroupUpdate {
  std::optional<std::string> name, color;
  std::optional<std::optional<std::string>> description, status_slug, status_announcement, status_title;
  std::optional<bool> status_public, status_show_urls;
};

std::vector<Group> list_by_user(Connection& c, std::int64_t user_id);
std::optional<Group> find_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// The new id, or nothing when the owner already has max_per_user groups.
// Both throw DuplicateKey when status_slug is another group's.
std::optional<std::int64_t> insert(Connection& c, std::int64_t user_id, const GroupUpdate& g, int max_per_user);
bool update_owned(Connection& c, std::int64_t user_id, std::int64_t id, const GroupUpdate& g);
// Its services stay, ungrouped (the foreign key sets their group_id to NULL).
bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id);

}  // namespace dozor::db::groups
