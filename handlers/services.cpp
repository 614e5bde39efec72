#include "engines/monitor/services.hpp"
#include "engines/monitor/analytics.hpp"
#include "engines/monitor/service_check.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

// One indexed query: the services with their latest check joined from service_state, so a
// check (by dozord or on demand) never writes to the owner's rows.
Response services_list(UserContext& ctx) { return json_list(monitor::list_services(ctx.app.db, ctx.caller.id)); }

Response services_create(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto name = f.string("name", true, {1, 255});
  auto url = f.http_url("url", true);
  auto interval = f.integer("check_interval", false, 10, 7 * 86400);  // 10 s .. one week
  auto active = f.boolean("is_active", false);
  f.finish();
  db::services::Service s;
  s.user_id = ctx.caller.id;
  s.name = *name;
  s.url = *url;
  s.check_interval = interval.value_or(60);
  s.is_active = active.value_or(true);
  return Response::json(encode(monitor::create_service(ctx.app.db, s, ctx.app.cfg.limits.services_per_user)));
}

Response services_delete(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id");
  monitor::delete_service(ctx.app.db, ctx.caller.id, id);
  return Response::json({{"id", id}, {"deleted", true}});
}

Response services_check(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = monitor::check_service(ctx.app.db, ctx.app.egress, ctx.app.cfg.monitor.timeout, ctx.caller.id, id);
  return Response::json(encode(result));
}

Response analytics_summary(UserContext& ctx) {
  return Response::json(monitor::analytics_summary(ctx.app.db, ctx.caller.id));
}

Response services_history(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  std::string window = "24h";
  if (auto w = ctx.request.query_param("window")) window = *w;
  if (window != "24h" && window != "7d" && window != "30d" && window != "365d")
    throw http::ValidationFailed({{"literal_error",
                                   boost::json::array{"query", "window"},
                                   "Input should be '24h', '7d', '30d' or '365d'",
                                   boost::json::value(window),
                                   {{"expected", "'24h', '7d', '30d' or '365d'"}}}});
  return Response::json(monitor::service_history(ctx.app.db, ctx.caller.id, id, window));
}

Response services_incidents(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  return Response::json(monitor::service_incidents(ctx.app.db, ctx.caller.id, id));
}

}  // namespace dozor::handlers
