#include "engines/users/user_admin.hpp"
#include "engines/users/user_assets.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

constexpr StringRule kUsername{1, limits::kUsernameChars};
constexpr StringRule kPassword{8, limits::kPasswordMaxChars};

std::int64_t user_id(Context& ctx) { return path_int(ctx.path.at("user_id"), "user_id"); }

}  // namespace

Response admin_list_users(UserContext& ctx) { return json_list(users::list(ctx.app.db)); }

Response admin_create_user(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  users::NewUser n;
  auto username = f.string("username", true, kUsername);
  auto email = f.email("email", true);
  auto password = f.string("password", true, kPassword);
  auto is_admin = f.boolean("is_admin", false);
  if (username && username->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.@-") !=
                      std::string::npos)
    f.add({"string_pattern_mismatch",
           {"body", "username"},
           "String should match pattern '^[A-Za-z0-9_.@-]+$'",
           boost::json::value(*username),
           {}});
  f.finish();
  n.username = *username;
  n.email = *email;
  n.password = *password;
  n.is_admin = is_admin.value_or(false);
  auto created = users::create(ctx.app.db, ctx.app.passwords, n);
  ctx.app.vault.ensure_home(created);  // the vault home exists from the account's creation (docs/vault.md)
  return Response::json(encode(created));
}

Response admin_update_user(UserContext& ctx) {
  auto id = user_id(ctx);
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  users::Update u;
  u.email = f.nullable_email("email");
  u.is_active = f.nullable_boolean("is_active");
  u.is_admin = f.nullable_boolean("is_admin");
  u.password = f.nullable_string("password", kPassword);
  f.finish();
  return Response::json(encode(users::update(ctx.app.db, ctx.app.passwords, id, u)));
}

Response admin_delete_user(UserContext& ctx) {
  auto id = user_id(ctx);
  auto gone = users::remove(ctx.app.db, id);
  // Its vault home is archived, never left for the next account of the name (docs/vault.md).
  ctx.app.vault.archive_home({ctx.caller, ctx.request.remote_addr}, gone);
  return Response::json({{"id", id}, {"deleted", true}});
}

Response admin_user_services(UserContext& ctx) { return json_list(users::services_of(ctx.app.db, user_id(ctx))); }

Response admin_user_groups(UserContext& ctx) { return json_list(users::groups_of(ctx.app.db, user_id(ctx))); }

Response admin_user_channels(UserContext& ctx) { return json_list(users::channels_of(ctx.app.db, user_id(ctx))); }

Response admin_me(UserContext& ctx) { return Response::json(encode(ctx.caller)); }

}  // namespace dozor::handlers
