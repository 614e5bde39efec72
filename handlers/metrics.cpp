#include "engines/monitor/metrics.hpp"
#include "handlers/handlers.hpp"

namespace dozor::handlers {

// nginx lets only loopback and the configured internal networks reach /metrics.
Response metrics(Context& ctx) {
  Response r;
  r.content_type = "text/plain; version=0.0.4; charset=utf-8";
  r.body = monitor::metrics_text(ctx.app.db);
  return r;
}

}  // namespace dozor::handlers
