#pragma once
// What a handler receives: the request, typed path parameters, the caller, the app.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "db/users_repo.hpp"
#include "fcgi/request.hpp"
#include "fcgi/response.hpp"
#include "handlers/app.hpp"

namespace dozor::handlers {

struct Context {
  const http::Request& request;
  std::map<std::string, std::string> path;  // raw (still percent-encoded) captures
  std::optional<db::users::User> user;      // set when the route requires auth
  App& app;

  const db::users::User& caller() const { return *user; }
};

}  // namespace dozor::handlers
