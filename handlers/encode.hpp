#pragma once
// JSON shapes of the API's resources (docs/api.md).
#include <boost/json/value.hpp>
#include <vector>

#include "db/channels_repo.hpp"
#include "db/groups_repo.hpp"
#include "db/services_repo.hpp"
#include "db/users_repo.hpp"
#include "engines/monitor/service_check.hpp"

namespace dozor::handlers {

boost::json::value encode(const db::users::User& u);
boost::json::value encode(const db::services::Service& s);
boost::json::value encode(const db::groups::Group& g);
boost::json::value encode(const db::channels::Channel& c);
boost::json::value encode(const monitor::CheckResult& r);

template <typename T>
boost::json::value encode_all(const std::vector<T>& items) {
  boost::json::array out;
  out.reserve(items.size());
  for (const auto& i : items) out.push_back(encode(i));
  return out;
}

}  // namespace dozor::handlers
