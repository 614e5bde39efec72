// Notification channels and the notify routes (spec §4.7, ARCHITECTURE §4): bearer token
// required, secrets masked in every answer, params validated for the channel's type.
#include <limits>

#include "engines/notify/channels.hpp"
#include "engines/notify/params.hpp"
#include "engines/secrets.hpp"
#include "handlers/encode.hpp"
#include "handlers/handlers.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

array with(array loc, const char* name) {
  loc.emplace_back(name);
  return loc;
}

constexpr const char* kTokenPattern = "^[A-Za-z0-9:_-]+$";

// A text member of params: its length rule, then no control characters (CR, LF, NUL, TAB …), in
// every field alike (docs/notifications.md "What a channel may hold").
std::optional<std::string> text(Fields& f, const array& loc, const char* name, bool required, StringRule rule) {
  auto s = required ? f.string(name, true, rule) : f.nullable_string(name, rule);
  if (s && notify::has_control_chars(*s)) {
    f.add({"value_error",
           with(loc, name),
           "Value error, control characters (CR, LF, NUL …) are not allowed",
           value(*s),
           {}});
    return std::nullopt;
  }
  return s;
}

// Messenger (Telegram) params: token, chat_id, optional proxy (http, https, socks5, socks5h).
object messenger_params(const value& v, Fields& parent, const array& loc) {
  Fields f(v, loc);
  auto token = text(f, loc, "token", true, {1, limits::kTelegramTokenChars});
  auto chat = text(f, loc, "chat_id", true, {1, limits::kTelegramChatIdChars});
  auto proxy = text(f, loc, "proxy", false, {1, limits::kUrlLength});
  auto enabled = f.boolean("enabled", false);  // NotifyPayload carries it inside; ignored here
  (void)enabled;
  // A masked echo ("****ij") stands for the stored token (docs/notifications.md).
  if (token && !secrets::is_masked(*token) && !notify::is_telegram_token_text(*token)) {
    f.add({"string_pattern_mismatch", with(loc, "token"),
           std::string("String should match pattern '") + kTokenPattern + "'", value(*token),
           object{{"pattern", kTokenPattern}}});
  }
  if (proxy) {
    if (auto problem = notify::proxy_problem(*proxy))
      f.add({problem->type, with(loc, "proxy"), problem->msg, value(*proxy), {}});
  }
  for (auto& issue : f.take_issues()) parent.add(std::move(issue));
  object out;
  if (token) out["token"] = *token;
  if (chat) out["chat_id"] = *chat;
  out["proxy"] = proxy ? value(*proxy) : value(nullptr);
  return out;
}

// E-mail (SMTP) params, with EmailConfig's defaults: port 587, use_tls true, to_addrs [].
object email_params(const value& v, Fields& parent, const array& loc) {
  Fields f(v, loc);
  auto host = text(f, loc, "host", true, {1, limits::kSmtpHostChars});
  auto port = f.integer("port", false, 1, 65535);
  auto tls = f.boolean("use_tls", false);
  auto user = text(f, loc, "username", false, {0, limits::kSmtpCredentialChars});
  auto password = text(f, loc, "password", false, {0, limits::kSmtpCredentialChars});
  auto from = f.nullable_email("from_addr");
  (void)f.boolean("enabled", false);
  if (host) {
    if (auto problem = notify::smtp_host_problem(*host))
      f.add({"value_error", with(loc, "host"), "Value error, " + *problem, value(*host), {}});
  }
  array to;
  if (const value* raw = f.raw("to_addrs"); raw && !raw->is_null()) {
    if (!raw->is_array()) {
      f.add({"list_type", with(loc, "to_addrs"), "Input should be a valid list", *raw, {}});
    } else if (raw->as_array().size() > limits::kEmailRecipients) {
      f.add({"too_long", with(loc, "to_addrs"),
             "List should have at most " + std::to_string(limits::kEmailRecipients) + " items after validation, not " +
                 std::to_string(raw->as_array().size()),
             *raw,
             object{{"field_type", "List"},
                    {"max_length", limits::kEmailRecipients},
                    {"actual_length", raw->as_array().size()}}});
    } else {
      std::size_t i = 0;
      for (const auto& a : raw->as_array()) {
        array item = with(loc, "to_addrs");
        item.emplace_back(i++);
        if (!a.is_string())
          f.add({"string_type", item, "Input should be a valid string", a, {}});
        else if (!is_valid_email(a.as_string()))
          f.add({"value_error", item, "value is not a valid email address", a, {}});
        else
          to.push_back(a);
      }
    }
  }
  for (auto& issue : f.take_issues()) parent.add(std::move(issue));
  object out;
  if (host) out["host"] = *host;
  out["port"] = port.value_or(587);
  out["use_tls"] = tls.value_or(true);
  out["username"] = user ? value(*user) : value(nullptr);
  out["password"] = password ? value(*password) : value(nullptr);
  out["from_addr"] = from ? value(*from) : value(nullptr);
  out["to_addrs"] = to;
  return out;
}

object params_for(const std::string& type, const value& v, Fields& parent, const array& loc) {
  return type == "messenger" ? messenger_params(v, parent, loc) : email_params(v, parent, loc);
}

// ChannelIn: type, enabled (true), params (default {}). An absent, null or empty params is a
// channel not configured yet, stored as {}; any other params are validated for the type.
notify::ChannelInput decode_channel(const std::string& body) {
  auto json = parse_json_body(body);
  Fields f(json);
  auto type = f.string("type", true, {1, 32});
  auto enabled = f.boolean("enabled", false);
  notify::ChannelInput in;
  if (type && *type != "messenger" && *type != "email") {
    f.add({"literal_error", array{"body", "type"}, "Input should be 'messenger' or 'email'", value(*type),
           object{{"expected", "'messenger' or 'email'"}}});
  } else if (type) {
    const value* raw = f.raw("params");
    bool unset = !raw || raw->is_null() || (raw->is_object() && raw->as_object().empty());
    if (!unset) in.params = params_for(*type, *raw, f, array{"body", "params"});
  }
  f.finish();
  in.type = *type;
  in.enabled = enabled.value_or(true);
  return in;
}

std::optional<std::int64_t> channel_query(const http::Request& request) {
  if (!request.query_param("channel_id")) return std::nullopt;
  return query_int(request, "channel_id", 0, 1, std::numeric_limits<std::int64_t>::max());
}

}  // namespace

Response channels_list(UserContext& ctx) { return json_list(notify::list_channels(ctx.app.db, ctx.caller.id)); }

Response channels_create(UserContext& ctx) {
  return Response::json(encode(notify::create_channel(ctx.app.db, ctx.caller.id, decode_channel(ctx.request.body))));
}

Response channels_update(UserContext& ctx) {
  auto id = path_int(ctx.path.at("channel_id"), "channel_id");
  auto in = decode_channel(ctx.request.body);
  return Response::json(encode(notify::update_channel(ctx.app.db, ctx.caller.id, id, in)));
}

Response channels_delete(UserContext& ctx) {
  auto id = path_int(ctx.path.at("channel_id"), "channel_id");
  notify::delete_channel(ctx.app.db, ctx.caller.id, id);
  return Response::json({{"id", id}, {"deleted", true}});
}

// NotifyPayload: {"messenger": MessengerConfig|null, "email": EmailConfig|null}; each kind
// present updates the user's channel of that type or creates it (spec §4.7 rule 1).
Response notify_bulk(UserContext& ctx) {
  auto json = parse_json_body(ctx.request.body);
  Fields f(json);
  std::vector<notify::ChannelInput> inputs;
  for (const char* kind : {"messenger", "email"}) {
    const value* v = f.raw(kind);
    if (!v || v->is_null()) continue;
    notify::ChannelInput in;
    in.type = kind;
    in.params = params_for(kind, *v, f, array{"body", kind});
    // MessengerConfig.enabled defaults to true, EmailConfig.enabled to false (spec §2) for a new
    // channel; an existing one keeps what the request does not name (docs/notifications.md).
    in.merge = true;
    in.enabled = std::string(kind) == "messenger";
    in.enabled_named = false;
    if (v->is_object()) {
      for (const auto& member : v->as_object())
        if (in.params.contains(member.key())) in.named.emplace_back(member.key());
      if (auto* e = v->as_object().if_contains("enabled"); e && e->is_bool()) {
        in.enabled = e->as_bool();
        in.enabled_named = true;
      }
    }
    inputs.push_back(std::move(in));
  }
  f.finish();
  object out{{"messenger", nullptr}, {"email", nullptr}};
  for (const auto& in : inputs) {
    std::string type = in.type;
    out[type] = encode(notify::upsert_by_type(ctx.app.db, ctx.caller.id, in));
  }
  return Response::json(out);
}

// Spec §4.7: no parameters, 200 with an unspecified body. Extension: ?channel_id= tests that one
// channel (enabled or not), for a settings page's "Send test" button.
Response notify_test(UserContext& ctx) {
  auto only = channel_query(ctx.request);
  auto results = notify::send_test(ctx.app.db, ctx.caller.id, notify::parse_language(ctx.app.cfg.notify.language),
                                   notify::send_context(ctx.app.cfg, ctx.app.egress), only);
  array items;
  std::int64_t sent = 0;
  for (const auto& r : results) {
    const auto& o = r.outcome;
    sent += o.ok;
    object item{{"channel_id", r.channel_id},
                {"type", r.type},
                {"status", o.ok          ? "ok"
                           : o.timed_out ? "timeout"
                                         : "error"},
                {"error", o.ok ? value(nullptr) : value(o.error)}};
    if (r.type == "email") {
      item["sender"] = o.sender.empty() ? value(nullptr) : value(o.sender);
      item["default_sender"] = o.default_sender;
    }
    items.push_back(std::move(item));
  }
  return Response::json(
      object{{"sent", sent}, {"deadline_seconds", limits::kNotifyTestSeconds}, {"results", std::move(items)}});
}

}  // namespace dozor::handlers
