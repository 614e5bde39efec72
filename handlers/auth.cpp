#include "engines/auth/device_cookie.hpp"
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
  auth::LoginAttempt attempt{*username, *password, ctx.request.remote_addr, {}};
  if (auto c = ctx.request.cookies.find(auth::DeviceCookies::kName); c != ctx.request.cookies.end())
    attempt.device_cookie = c->second;
  auto result = ctx.app.auth.login(attempt);
  // __Host-: Secure, Path=/ and no Domain, so no sibling host can set or shadow it; HttpOnly
  // keeps it from scripts; SameSite=Strict keeps it off cross-site requests.
  return Response::json({{"access_token", result.token},
                         {"token_type", "bearer"},
                         {"expires_in", result.expires_in},
                         {"user", encode(result.user)}})
      .with_header("Set-Cookie", std::string(auth::DeviceCookies::kName) + "=" + result.device_cookie +
                                     "; Max-Age=" + std::to_string(result.device_cookie_max_age) +
                                     "; Path=/; Secure; HttpOnly; SameSite=Strict");
}

Response auth_verify(UserContext& ctx) { return Response::json({{"valid", true}, {"user", encode(ctx.caller)}}); }

Response analyzer_caller(Context& ctx) {
  Response r;
  r.status = 204;
  auto token = http::bearer_token(ctx.request);
  if (token.empty()) return r;
  auto user = ctx.app.auth.authenticate_analyzer_caller(token);
  return r.with_header("X-Dozor-Caller-Id", std::to_string(user.id))
      .with_header("X-Dozor-Caller-Admin", user.is_admin ? "1" : "0");
}

}  // namespace dozor::handlers
