#include "handlers/handlers.hpp"
#include "handlers/versions.hpp"

namespace dozor::handlers {

Response health(Context& ctx) {
  // The database's state as seen within the last second (any statement counts), so a health
  // probe under load does not cost a round trip per request.
  bool db_ok = ctx.app.db.healthy(std::chrono::seconds(1));
  return Response::json({{"status", db_ok ? "ok" : "degraded"},
                         {"version", kApiInterfaceVersion},
                         {"build", DOZOR_VERSION},
                         {"database", db_ok ? "ok" : "unavailable"}},
                        db_ok ? 200 : 503);
}

}  // namespace dozor::handlers
