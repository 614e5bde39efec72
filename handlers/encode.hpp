#pragma once
// JSON shapes of the API's resources (docs/api.md).
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/value.hpp>
#include <vector>

#include "db/channels_repo.hpp"
#include "db/groups_repo.hpp"
#include "db/services_repo.hpp"
#include "db/users_repo.hpp"
#include "engines/monitor/service_check.hpp"
#include "fcgi/response.hpp"

namespace dozor::handlers {

boost::json::value encode(const db::users::User& u, boost::json::storage_ptr sp = {});
boost::json::value encode(const db::services::Service& s, boost::json::storage_ptr sp = {});
boost::json::value encode(const db::groups::Group& g, boost::json::storage_ptr sp = {});
boost::json::value encode(const db::channels::Channel& c, boost::json::storage_ptr sp = {});
boost::json::value encode(const monitor::CheckResult& r, boost::json::storage_ptr sp = {});

// A JSON array answer. One arena holds the whole document: a list of a hundred services is
// otherwise a thousand small allocations, which dominated its cost (bench/api).
template <typename T>
http::Response json_list(const std::vector<T>& items) {
  boost::json::monotonic_resource arena;
  boost::json::array out(&arena);
  out.reserve(items.size());
  for (const auto& i : items) out.push_back(encode(i, &arena));
  return http::Response::json(out);
}

}  // namespace dozor::handlers
