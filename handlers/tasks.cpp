// Background tasks (issue 9 §1, docs/tasks.md): queue a task, read it, its public status, the
// caller's list, cancel; start a background scan of a service.
#include <boost/json/array.hpp>

#include "engines/tasks/kinds.hpp"
#include "engines/tasks/queue.hpp"
#include "engines/tasks/schedules.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

constexpr int kListDefault = 20;
constexpr int kListMax = 100;

}  // namespace

// The optional JSON body as the kind's options: every option within its bounds, unknown keys
// refused (extra_forbidden), absent ones at their defaults (absent string options not stored).
boost::json::object decode_kind_options(const http::Request& request, const tasks::KindSpec& kind,
                                        const std::string& target) {
  boost::json::value body = boost::json::object{};
  if (!request.body.empty()) body = parse_json_body(request.body);
  Fields f(body);
  boost::json::object options;
  for (const auto& o : kind.options) options[o.name] = f.integer(o.name, false, o.min, o.max).value_or(o.fallback);
  for (const auto& o : kind.strings)
    if (auto v = f.string(o.name, false, {0, o.max_chars})) options[o.name] = *v;
  if (const auto* given = body.if_object())
    for (const auto& [key, value] : *given) {
      bool known = false;
      for (const auto& o : kind.options) known = known || key == o.name;
      for (const auto& o : kind.strings) known = known || key == o.name;
      if (!known)
        f.add({"extra_forbidden", boost::json::array{"body", key}, "Extra inputs are not permitted", value, {}});
    }
  f.finish();
  if (kind.check)
    if (auto problem = kind.check(options, target))
      // Never echoing the input: it may be a secret.
      throw http::ValidationFailed({{"value_error",
                                     boost::json::array{"body", problem->field},
                                     "Value error, " + problem->message,
                                     std::nullopt,
                                     {}}});
  return options;
}

namespace {

const tasks::KindSpec& kind_param(const http::Request& request) {
  std::string name = request.query_param("task_type").value_or("scan");
  if (const auto* kind = tasks::find_kind(name)) return *kind;
  throw http::ValidationFailed({{"enum",
                                 boost::json::array{"query", "task_type"},
                                 "Input should be " + tasks::kind_list(),
                                 boost::json::value(name),
                                 {{"expected", tasks::kind_list()}}}});
}

}  // namespace

// POST /api/security/queue/{target_url}?task_type=scan|audit|crawl with optional options.
Response task_enqueue(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  const auto& kind = kind_param(ctx.request);
  auto options = decode_kind_options(ctx.request, kind, target);
  if (kind.active) require_scan(ctx, std::string(kind.name), target, "task");
  tasks::NewTaskRequest r{ctx.caller.id, std::string(kind.name), target, std::move(options), {}};
  return Response::json(tasks::enqueue(ctx.app.db, r, ctx.app.cfg.tasks.queued_per_user));
}

// POST /api/scan/{service_id}/start: a background scan (the full audit) of the caller's service.
Response scan_service_start(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  const auto& kind = *tasks::find_kind("scan");
  auto target = service_site(ctx, id);
  auto options = decode_kind_options(ctx.request, kind, target);
  tasks::NewTaskRequest r{ctx.caller.id, "scan", target, std::move(options), id};
  return Response::json(tasks::enqueue(ctx.app.db, r, ctx.app.cfg.tasks.queued_per_user));
}

// GET /api/security/queue/{task_id}: the owner's (or an admin's) view, with the result when done.
Response task_read(UserContext& ctx) {
  return Response::json(tasks::read(ctx.app.db, ctx.path.at("task_id"), ctx.caller.id, ctx.caller.is_admin));
}

// DELETE /api/security/queue/{task_id}
Response task_cancel(UserContext& ctx) {
  return Response::json(tasks::cancel(ctx.app.db, ctx.path.at("task_id"), ctx.caller.id));
}

// GET /api/task/{task_id}/status: no token (spec); state and progress only.
Response task_status(Context& ctx) { return Response::json(tasks::public_status(ctx.app.db, ctx.path.at("task_id"))); }

// GET /api/security/tasks?limit=&offset=
Response tasks_list(UserContext& ctx) {
  auto limit = static_cast<int>(query_int(ctx.request, "limit", kListDefault, 1, kListMax));
  auto offset = static_cast<int>(query_int(ctx.request, "offset", 0, 0, 1000000));
  return Response::json(tasks::list(ctx.app.db, ctx.caller.id, limit, offset));
}

// POST /api{,/v1}/owasp/schedule/{service_id}?interval_hours=24 (1..720): the service's recurring
// OWASP scan, created or re-timed.
Response owasp_schedule(UserContext& ctx) {
  auto id = path_int(ctx.path.at("service_id"), "service_id", 1);
  auto hours = static_cast<int>(
      query_int(ctx.request, "interval_hours", limits::kScheduleHoursDefault, 1, limits::kScheduleHoursMax));
  service_site(ctx, id);
  return Response::json(tasks::schedule_service(ctx.app.db, ctx.caller.id, id, "owasp", hours));
}

// GET /api/v1/schedules
Response schedules_list(UserContext& ctx) { return Response::json(tasks::list_schedules(ctx.app.db, ctx.caller.id)); }

// DELETE /api/v1/schedules/{schedule_id}
Response schedules_delete(UserContext& ctx) {
  auto id = path_int(ctx.path.at("schedule_id"), "schedule_id", 1);
  tasks::delete_schedule(ctx.app.db, ctx.caller.id, id);
  return Response::json({{"id", id}, {"deleted", true}});
}

}  // namespace dozor::handlers
