#pragma once
// Notification channels of a user (spec §4.7). `params` is the stored JSON object, secrets in
// clear: only engines/notify reads it for sending, and answers mask it (engines/secrets).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::channels {

struct Channel {
  std::int64_t id = 0;
  std::string type;
  bool enabled = true;
  std::string params_json;
};

std::vector<Channel> list_by_user(Connection& c, std::int64_t user_id);
std::vector<Channel> list_enabled(Connection& c, std::int64_t user_id);
std::optional<Channel> find_owned(Connection& c, std::int64_t user_id, std::int64_t id);
// The user's oldest channel of `type` (the one the bulk route updates).
std::optional<Channel> first_of_type(Connection& c, std::int64_t user_id, const std::string& type);
// Legacy columns (spec §4.7 rule 2) are filled from the new ones: name = type, config = "{}",
// is_active = enabled.
std::int64_t insert(Connection& c, std::int64_t user_id, const Channel& ch);
bool update_owned(Connection& c, std::int64_t user_id, const Channel& ch);
bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id);

}  // namespace dozor::db::channels
