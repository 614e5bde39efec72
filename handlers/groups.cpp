// Groups of services (issue 7 §3; GroupResponse of spec §2), under /api/v1 and /api.
#include "engines/monitor/groups.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

constexpr const char* kSlugPattern = "^[a-z0-9]+(-[a-z0-9]+)*$";

// Lower-case letters and digits in words joined by single hyphens: safe in a URL path as is.
bool is_slug(const std::string& s) {
  bool word = false;
  for (char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      word = true;
    else if (c == '-' && word)
      word = false;
    else
      return false;
  }
  return word;
}

bool is_hex_color(const std::string& s) {
  if (s.size() != 7 || s[0] != '#') return false;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

db::groups::GroupUpdate read_group(Fields& f, bool create) {
  db::groups::GroupUpdate g;
  g.name = f.string("name", create, {1, limits::kGroupNameChars});
  if (auto* v = f.raw("description"); v && v->is_null())
    g.description = std::optional<std::string>{};
  else if (auto d = f.string("description", false, {0, limits::kGroupTextChars}))
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
  if (auto* v = f.raw("status_slug"); v && v->is_null()) {
    g.status_slug = std::optional<std::string>{};
  } else if (auto slug = f.string("status_slug", false, {limits::kStatusSlugMinChars, limits::kStatusSlugMaxChars})) {
    if (!is_slug(*slug))
      f.add({"string_pattern_mismatch",
             boost::json::array{"body", "status_slug"},
             std::string("String should match pattern '") + kSlugPattern + "'",
             boost::json::value(*slug),
             {{"pattern", kSlugPattern}}});
    else
      g.status_slug = std::optional<std::string>{*slug};
  }
  g.status_public = f.boolean("status_public", false);
  g.status_show_urls = f.boolean("status_show_urls", false);
  if (auto* v = f.raw("status_announcement"); v && v->is_null())
    g.status_announcement = std::optional<std::string>{};
  else if (auto a = f.string("status_announcement", false, {0, limits::kGroupTextChars}))
    g.status_announcement = std::optional<std::string>{*a};
  if (auto* v = f.raw("status_title"); v && v->is_null())
    g.status_title = std::optional<std::string>{};
  else if (auto t = f.string("status_title", false, {1, limits::kGroupNameChars}))
    g.status_title = std::optional<std::string>{*t};
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
