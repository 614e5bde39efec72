#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

Response auth_login(Context& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto username = f.string("username", true);
  auto password = f.string("password", true);
  f.finish();
  auto result = ctx.app.auth.login(*username, *password);
  return Response::json({{"access_token", result.token},
                         {"token_type", "bearer"},
                         {"expires_in", result.expires_in},
                         {"user", encode(result.user)}});
}

Response auth_verify(UserContext& ctx) { return Response::json({{"valid", true}, {"user", encode(ctx.caller)}}); }

}  // namespace dozor::handlers
