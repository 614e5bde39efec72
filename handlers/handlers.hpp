#pragma once
// Every route's handler: decode + validate → one engine call → encode.
#include "fcgi/response.hpp"
#include "handlers/context.hpp"

namespace dozor::handlers {

using http::Response;

Response health(Context& ctx);

Response auth_login(Context& ctx);
Response auth_verify(Context& ctx);

Response admin_list_users(Context& ctx);
Response admin_create_user(Context& ctx);
Response admin_update_user(Context& ctx);
Response admin_delete_user(Context& ctx);
Response admin_user_services(Context& ctx);
Response admin_user_groups(Context& ctx);
Response admin_user_channels(Context& ctx);
Response admin_me(Context& ctx);

Response services_list(Context& ctx);
Response services_create(Context& ctx);
Response services_delete(Context& ctx);
Response services_check(Context& ctx);

}  // namespace dozor::handlers
