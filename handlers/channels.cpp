// Notification channels and the notify routes (spec §4.7, ARCHITECTURE §4): bearer token
// required, secrets masked in every answer, params validated for the channel's type.
#include <boost/url/parse.hpp>

#include "engines/notify/channels.hpp"
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

// Messenger (Telegram) params: token, chat_id, optional proxy (http, https, socks5, socks5h).
object messenger_params(const value& v, Fields& parent, const array& loc) {
  Fields f(v, loc);
  auto token = f.string("token", true, {1, limits::kTelegramTokenChars});
  auto chat = f.string("chat_id", true, {1, limits::kTelegramChatIdChars});
  auto proxy = f.nullable_string("proxy", {1, limits::kUrlLength});
  auto enabled = f.boolean("enabled", false);  // NotifyPayload carries it inside; ignored here
  (void)enabled;
  if (proxy) {
    auto u = boost::urls::parse_uri(*proxy);
    std::string scheme = u ? std::string(u->scheme()) : "";
    if (!u || u->encoded_host().empty())
      f.add({"url_parsing", with(loc, "proxy"), "Input should be a valid URL", value(*proxy), {}});
    else if (scheme != "http" && scheme != "https" && scheme != "socks5" && scheme != "socks5h")
      f.add({"url_scheme",
             with(loc, "proxy"),
             "URL scheme should be 'http', 'https', 'socks5' or 'socks5h'",
             value(*proxy),
             {}});
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
  auto host = f.string("host", true, {1, limits::kSmtpHostChars});
  auto port = f.integer("port", false, 1, 65535);
  auto tls = f.boolean("use_tls", false);
  auto user = f.nullable_string("username", {0, limits::kSmtpCredentialChars});
  auto password = f.nullable_string("password", {0, limits::kSmtpCredentialChars});
  auto from = f.nullable_email("from_addr");
  (void)f.boolean("enabled", false);
  array to;
  if (const value* raw = f.raw("to_addrs"); raw && !raw->is_null()) {
    if (!raw->is_array()) {
      f.add({"list_type", with(loc, "to_addrs"), "Input should be a valid list", *raw, {}});
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

object params_for(const std::string& type, const value* v, Fields& parent, const array& loc) {
  static const value empty = object{};
  const value& p = v && !v->is_null() ? *v : empty;
  return type == "messenger" ? messenger_params(p, parent, loc) : email_params(p, parent, loc);
}

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
    in.params = params_for(*type, f.raw("params"), f, array{"body", "params"});
  }
  f.finish();
  in.type = *type;
  in.enabled = enabled.value_or(true);
  return in;
}

notify::SendContext send_context(const App& app) {
  notify::SendContext s;
  s.telegram_api_base = app.cfg.notify.telegram_api_base;
  s.egress = &app.egress;
  s.timeout = std::chrono::seconds(app.cfg.monitor.timeout);
  return s;
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
    in.params = params_for(kind, v, f, array{"body", kind});
    // MessengerConfig.enabled defaults to true, EmailConfig.enabled to false (spec §2).
    in.enabled = std::string(kind) == "messenger";
    if (v->is_object())
      if (auto* e = v->as_object().if_contains("enabled"); e && e->is_bool()) in.enabled = e->as_bool();
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

Response notify_test(UserContext& ctx) {
  auto results = notify::send_test(ctx.app.db, ctx.caller.id, notify::parse_language(ctx.app.cfg.notify.language),
                                   send_context(ctx.app));
  array items;
  for (const auto& r : results) {
    items.push_back(object{{"channel_id", r.channel_id},
                           {"type", r.type},
                           {"status", r.ok ? "ok" : "error"},
                           {"error", r.ok ? value(nullptr) : value(r.error)}});
  }
  return Response::json(object{{"sent", std::count_if(results.begin(), results.end(), [](auto& r) { return r.ok; })},
                               {"results", items}});
}

}  // namespace dozor::handlers
