#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::channels {

struct Channel {
  std::int64_t id = 0;
  std::string type;
  bool enabled = true;
  std::string params_json;  // stored JSON object; secrets inside are masked by the engine
};

std::vector<Channel> list_by_user(Connection& c, std::int64_t user_id);

}  // namespace dozor::db::channels
