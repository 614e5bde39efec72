// The JSON of a public status page: anyone may read it, and embed it elsewhere.
#include "handlers/handlers.hpp"

namespace dozor::handlers {

Response status_page(Context& ctx) {
  const std::string& slug = ctx.path.at("slug");
  // Anything that cannot be a slug is not looked up (docs/status-pages.md: [a-z0-9-], 3..64).
  bool plausible = slug.size() >= 3 && slug.size() <= 64 &&
                   slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  auto page = plausible ? ctx.app.status_pages.get(ctx.app.db, slug) : std::nullopt;
  if (!page) return Response::error(404, "Status page not found");
  auto r = Response::json(*page);
  // Public data: caches and other sites' pages may hold it as long as the worker does.
  r.cache_control = "public, max-age=" + std::to_string(monitor::kStatusPageTtl.count());
  r.with_header("Access-Control-Allow-Origin", "*");
  return r;
}

}  // namespace dozor::handlers
