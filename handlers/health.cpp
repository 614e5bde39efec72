#include "handlers/handlers.hpp"

namespace dozor::handlers {

Response health(Context& ctx) {
  bool db_ok = ctx.app.db.ping();
  return Response::json({{"status", db_ok ? "ok" : "degraded"},
                         {"version", DOZOR_VERSION},
                         {"database", db_ok ? "ok" : "unavailable"}},
                        db_ok ? 200 : 503);
}

}  // namespace dozor::handlers
