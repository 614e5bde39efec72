// Kiosk routes (spec §4.2 and §4.6): one state per user behind /api/v1, /api and /api/security.
#include "engines/monitor/kiosk.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

int interval_param(const http::Request& req) {
  auto raw = req.query_param("interval");
  if (!raw) return monitor::kKioskDefaultInterval;
  auto v = parse_int_text(*raw);
  if (!v)
    throw http::ValidationFailed({{"int_parsing",
                                   boost::json::array{"query", "interval"},
                                   "Input should be a valid integer, unable to parse string as an integer",
                                   boost::json::value(*raw),
                                   {}}});
  if (*v < monitor::kKioskMinInterval || *v > monitor::kKioskMaxInterval) {
    bool low = *v < monitor::kKioskMinInterval;
    throw http::ValidationFailed(
        {{low ? "greater_than_equal" : "less_than_equal",
          boost::json::array{"query", "interval"},
          low ? "Input should be greater than or equal to " + std::to_string(monitor::kKioskMinInterval)
              : "Input should be less than or equal to " + std::to_string(monitor::kKioskMaxInterval),
          boost::json::value(*raw),
          {{low ? "ge" : "le", low ? monitor::kKioskMinInterval : monitor::kKioskMaxInterval}}}});
  }
  return static_cast<int>(*v);
}

}  // namespace

Response kiosk_start(UserContext& ctx) {
  int interval = interval_param(ctx.request);
  return Response::json(monitor::kiosk_apply(ctx.app.db, ctx.caller.id, monitor::KioskAction::Start, interval));
}
Response kiosk_stop(UserContext& ctx) {
  return Response::json(monitor::kiosk_apply(ctx.app.db, ctx.caller.id, monitor::KioskAction::Stop, 0));
}
Response kiosk_next(UserContext& ctx) {
  return Response::json(monitor::kiosk_apply(ctx.app.db, ctx.caller.id, monitor::KioskAction::Next, 0));
}
Response kiosk_previous(UserContext& ctx) {
  return Response::json(monitor::kiosk_apply(ctx.app.db, ctx.caller.id, monitor::KioskAction::Previous, 0));
}
Response kiosk_state(UserContext& ctx) { return Response::json(monitor::kiosk_state(ctx.app.db, ctx.caller.id)); }

}  // namespace dozor::handlers
