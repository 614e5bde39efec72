#include "engines/monitor/services.hpp"

#include <limits>
#include "engines/monitor/analytics.hpp"
#include "engines/monitor/check_rules.hpp"
#include "engines/monitor/service_check.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

// One indexed query: the services with their latest check joined from service_state, so a
// check (by dozord or on demand) never writes to the owner's rows.
Response services_list(UserContext& ctx) { return json_list(monitor::list_services(ctx.app.db, ctx.caller.id)); }

namespace {

using boost::json::array;

// A nullable integer member: absent → nullopt; null → optional(nullopt); a number → its value.
std::optional<std::optional<std::int64_t>> nullable_int(Fields& f, const char* name, std::int64_t ge, std::int64_t le) {
  auto* v = f.raw(name);
  if (!v) return std::nullopt;
  if (v->is_null()) return std::optional<std::int64_t>{};
  auto n = f.integer(name, false, ge, le);
  if (!n) return std::nullopt;  // the issue is recorded
  return std::optional<std::int64_t>{*n};
}

std::optional<std::optional<std::string>> nullable_text(Fields& f, const char* name, std::size_t max_length) {
  auto* v = f.raw(name);
  if (!v) return std::nullopt;
  if (v->is_null()) return std::optional<std::string>{};
  auto s = f.string(name, false, {1, max_length});
  if (!s) return std::nullopt;
  return std::optional<std::string>{*s};
}

// The members create and edit share (all optional here; create fills defaults), with the
// same rules: docs/monitoring.md, "Check options".
db::services::ServiceUpdate read_service_fields(Fields& f, bool name_and_url_required) {
  db::services::ServiceUpdate u;
  u.name = f.string("name", name_and_url_required, {1, limits::kServiceNameChars});
  u.url = f.monitor_target("url", name_and_url_required);
  u.check_interval = f.integer("check_interval", false, limits::kCheckIntervalMin, limits::kCheckIntervalMax);
  u.is_active = f.boolean("is_active", false);
  u.group_id = nullable_int(f, "group_id", 1, std::numeric_limits<std::int64_t>::max());
  u.slow_ms = nullable_int(f, "slow_ms", 1, limits::kSlowMsMax);
  u.method = f.string("method", false);
  if (u.method && *u.method != "GET" && *u.method != "HEAD") {
    f.add({"literal_error",
           array{"body", "method"},
           "Input should be 'GET' or 'HEAD'",
           boost::json::value(*u.method),
           {{"expected", "'GET' or 'HEAD'"}}});
    u.method.reset();
  }
  u.expected_status = nullable_text(f, "expected_status", monitor::kMaxExpectedStatusLength);
  if (u.expected_status && *u.expected_status) {
    std::string why;
    if (!monitor::parse_status_ranges(**u.expected_status, &why)) {
      f.add({"value_error",
             array{"body", "expected_status"},
             "Value error, " + why,
             boost::json::value(**u.expected_status),
             {}});
      u.expected_status.reset();
    }
  }
  u.keyword = nullable_text(f, "keyword", monitor::kMaxKeywordLength);
  u.keyword_absent = f.boolean("keyword_absent", false);
  if (u.url && monitor::is_tcp_target(*u.url) && u.keyword && *u.keyword)
    f.add({"value_error",
           array{"body", "keyword"},
           "Value error, a tcp:// target has no body to search",
           boost::json::value(**u.keyword),
           {}});
  return u;
}

}  // namespace

Response services_create(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto u = read_service_fields(f, true);
  f.finish();
  db::services::Service s;
  s.user_id = ctx.caller.id;
  s.name = *u.name;
  s.url = *u.url;
  s.check_interval = u.check_interval.value_or(60);
  s.is_active = u.is_active.value_or(true);
  s.group_id = u.group_id.value_or(std::nullopt);
  s.slow_ms = u.slow_ms.value_or(std::nullopt);
  s.options.method = u.method.value_or("GET");
  s.options.expected_status = u.expected_status.value_or(std::nullopt);
  s.options.keyword = u.keyword.value_or(std::nullopt);
  s.options.keyword_absent = u.keyword_absent.value_or(false);
  return Response::json(encode(monitor::create_service(ctx.app.db, s, ctx.app.cfg.limits.services_per_user)));
}

Response services_update(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto u = read_service_fields(f, false);
  f.finish();
  return Response::json(encode(monitor::update_service(ctx.app.db, ctx.caller.id, id, u)));
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
