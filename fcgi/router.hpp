#pragma once
// Path routing on raw (percent-encoded) segments. Patterns: literal segments, `{name}` (one
// segment), `{name:int}` (one segment, validated by the handler so a bad value is a 422, not
// a 404), and a trailing `{name:path}` that captures the rest of the raw path (target URLs).
// The most specific match wins: a literal beats a parameter beats a rest-of-path capture.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fcgi/response.hpp"
#include "handlers/context.hpp"

namespace dozor::http {

// Vault: the vault's session cookie (never a bearer token); VaultWrite: that plus the Origin,
// Sec-Fetch-Site and CSRF-token checks of a mutating request (fcgi/vault_guard.hpp).
enum class Access { Public, User, Admin, Vault, VaultWrite };

using PublicHandler = std::function<Response(handlers::Context&)>;
using UserHandler = std::function<Response(handlers::UserContext&)>;
using VaultHandler = std::function<Response(handlers::VaultContext&)>;
// A public route takes a PublicHandler, a User or Admin route a UserHandler: Router::add
// refuses any other pairing, so no handler runs without the caller its type promises.
using Handler = std::variant<PublicHandler, UserHandler, VaultHandler>;

struct Route {
  std::string method;
  std::string pattern;
  Handler handler;
  Access access;
};

struct RouteMatch {
  const Route* route = nullptr;
  std::map<std::string, std::string> params;
  std::vector<std::string> allowed;  // methods of the path when no route matched the method
};

class Router {
 public:
  void add(Route r);
  // route == nullptr: allowed empty → 404, else → 405 with those methods. HEAD matches the
  // GET route of the path, and HEAD is listed beside every GET in `allowed`.
  RouteMatch match(std::string_view method, std::string_view raw_path) const;
  const std::vector<Route>& routes() const { return routes_; }

 private:
  struct Segment {
    enum Kind { Literal, Param, Rest } kind;
    std::string text;  // literal text or parameter name
  };
  struct Compiled {
    std::vector<Segment> segments;
    std::size_t route_index;
  };
  std::vector<Route> routes_;
  std::vector<Compiled> compiled_;
};

}  // namespace dozor::http
