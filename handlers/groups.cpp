// Groups of services (issue 7 §3; GroupResponse of spec §2), under /api/v1 and /api.
#include "engines/monitor/groups.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

constexpr std::size_t kMaxDescription = 2000;

bool is_hex_color(const std::string& s) {
  if (s.size() != 7 || s[0] != '#') return false;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

db::groups::GroupUpdate read_group(Fields& f, bool create) {
  db::groups::GroupUpdate g;
  g.name = f.string("name", create, {1, 255});
  if (auto* v = f.raw("description"); v && v->is_null())
    g.description = std::optional<std::string>{};
  else if (auto d = f.string("description", false, {0, kMaxDescription}))
    g.description = std::optional<std::string>{*d};
  g.color = f.string("color", false);
  if (g.color && !is_hex_color(*g.color)) {
    f.add({"string_pattern_mismatch",
           boost::json::array{"body", "color"},
           "String should match pattern '^#[0-9a-fA-F]{6}$'",
           boost::json::value(*g.color),
           {{"pattern", "^#[0-9a-fA-F]{6}$"}}});
    g.color.reset();
  }
  return g;
}

}  // namespace

Response groups_list(UserContext& ctx) { return json_list(monitor::list_groups(ctx.app.db, ctx.caller.id)); }

Response groups_create(UserContext& ctx) {
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto g = read_group(f, true);
  f.finish();
  return Response::json(
      encode(monitor::create_group(ctx.app.db, ctx.caller.id, g, ctx.app.cfg.limits.groups_per_user)));
}

Response groups_update(UserContext& ctx) {
  auto id = path_int(ctx.path.at("group_id"), "group_id", 1);
  auto body = parse_json_body(ctx.request.body);
  Fields f(body);
  auto g = read_group(f, false);
  f.finish();
  return Response::json(encode(monitor::update_group(ctx.app.db, ctx.caller.id, id, g)));
}

Response groups_delete(UserContext& ctx) {
  auto id = path_int(ctx.path.at("group_id"), "group_id", 1);
  monitor::delete_group(ctx.app.db, ctx.caller.id, id);
  return Response::json({{"id", id}, {"deleted", true}});
}

}  // namespace dozor::handlers
