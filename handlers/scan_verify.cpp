// Proof of control for active scans (docs/scan.md "Proof of control", docs/api.md):
// GET/POST /api{,/v1}/scan-verifications, POST …/{id}/verify, DELETE …/{id}.
#include <boost/json/array.hpp>

#include "engines/scan/verify.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {

// GET: the caller's sites, verified or not.
Response scan_verifications_list(UserContext& ctx) {
  return Response::json(scan::verify::list(ctx.app.db, ctx.caller.id));
}

// POST {"url": "https://shop.example"}: the token to publish for that site (the same one again
// for a site already asked).
Response scan_verification_request(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto url = f.http_url("url", true);
  f.finish();
  auto site = scan::verify::site_of(*url);
  if (!site)
    throw http::ValidationFailed({{"url_parsing",
                                   boost::json::array{"body", "url"},
                                   "Input should be a valid URL",
                                   boost::json::value(*url),
                                   {}}});
  return Response::json(scan::verify::request(ctx.app.db, ctx.caller.id, *site));
}

// POST {"method": "http" | "dns"} (default http): fetch the token file or ask the TXT record now.
Response scan_verification_verify(UserContext& ctx) {
  auto id = path_int(ctx.path.at("verification_id"), "verification_id", 1);
  std::string method = "http";
  if (!ctx.request.body.empty()) {
    auto body = parse_json_body(ctx.request.body);
    Fields f(body);
    auto m = f.string("method", false);
    if (m && *m != "http" && *m != "dns")
      f.add({"enum", boost::json::array{"body", "method"}, "Input should be 'http' or 'dns'", boost::json::value(*m),
             boost::json::object{{"expected", "'http' or 'dns'"}}});
    f.finish();
    if (m) method = *m;
  }
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);  // one outbound request, as a check
  return Response::json(
      scan::verify::check(ctx.app.db, ctx.app.egress, ctx.app.cfg.scanner, ctx.caller.id, id, method));
}

Response scan_verification_delete(UserContext& ctx) {
  auto id = path_int(ctx.path.at("verification_id"), "verification_id", 1);
  scan::verify::revoke(ctx.app.db, ctx.caller.id, id);
  return Response::json({{"id", id}, {"deleted", true}});
}

}  // namespace dozor::handlers
