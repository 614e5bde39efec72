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
};

std::vector<Group> list_by_user(Connection& c, std::int64_t user_id);

}  // namespace dozor::db::groups
