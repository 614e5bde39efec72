#pragma once
// What a handler receives. Public routes get a Context, which has no caller at all;
// authenticated routes get a UserContext, whose caller is always set. A handler cannot ask
// for a caller its route did not authenticate: the types do not offer one.
#include <map>
#include <string>

#include "db/users_repo.hpp"
#include "engines/vault/sessions.hpp"
#include "fcgi/request.hpp"
#include "fcgi/response.hpp"
#include "handlers/app.hpp"

namespace dozor::handlers {

struct Context {
  const http::Request& request;
  std::map<std::string, std::string> path;  // raw (still percent-encoded) captures
  App& app;
};

struct UserContext : Context {
  const db::users::User& caller;  // authenticated (and admin on admin routes) by dispatch
};

// Vault routes: authenticated by the vault session cookie (and, when mutating, its CSRF token).
struct VaultContext : UserContext {
  const vault::Session& session;
};

}  // namespace dozor::handlers
