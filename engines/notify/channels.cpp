#include "engines/notify/channels.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "engines/errors.hpp"
#include "engines/secrets.hpp"

namespace dozor::notify {

boost::json::object keep_masked_secrets(boost::json::object incoming, const std::string& stored_json) {
  boost::system::error_code ec;
  auto stored = boost::json::parse(stored_json, ec);
  const boost::json::object* old = !ec && stored.is_object() ? &stored.as_object() : nullptr;
  for (auto& [key, value] : incoming) {
    if (!secrets::is_secret_name(key) || !value.is_string() || !secrets::is_masked(value.as_string())) continue;
    const boost::json::value* before = old ? old->if_contains(key) : nullptr;
    if (before) value = *before;
  }
  return incoming;
}

std::vector<db::channels::Channel> list_channels(db::Database& db, std::int64_t user_id) {
  std::vector<db::channels::Channel> out;
  db.run([&](db::Connection& c) { out = db::channels::list_by_user(c, user_id); }, db::Retry::OnLostConnection);
  return out;
}

db::channels::Channel create_channel(db::Database& db, std::int64_t user_id, const ChannelInput& in) {
  db::channels::Channel ch{0, in.type, in.enabled, boost::json::serialize(in.params)};
  db.run([&](db::Connection& c) { ch.id = db::channels::insert(c, user_id, ch); }, db::Retry::Never);
  return ch;
}

db::channels::Channel update_channel(db::Database& db, std::int64_t user_id, std::int64_t id, const ChannelInput& in) {
  std::optional<db::channels::Channel> saved;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto old = db::channels::find_owned(c, user_id, id);
          if (!old) return;
          db::channels::Channel ch{id, in.type, in.enabled,
                                   boost::json::serialize(keep_masked_secrets(in.params, old->params_json))};
          db::channels::update_owned(c, user_id, ch);
          saved = ch;
        });
      },
      db::Retry::Never);
  if (!saved) throw NotFound("Channel not found");
  return *saved;
}

void delete_channel(db::Database& db, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::channels::remove_owned(c, user_id, id); }, db::Retry::Never);
  if (!removed) throw NotFound("Channel not found");
}

db::channels::Channel upsert_by_type(db::Database& db, std::int64_t user_id, const ChannelInput& in) {
  db::channels::Channel ch;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto old = db::channels::first_of_type(c, user_id, in.type);
          ch = {0, in.type, in.enabled,
                boost::json::serialize(old ? keep_masked_secrets(in.params, old->params_json) : in.params)};
          if (old) {
            ch.id = old->id;
            db::channels::update_owned(c, user_id, ch);
          } else {
            ch.id = db::channels::insert(c, user_id, ch);
          }
        });
      },
      db::Retry::Never);
  return ch;
}

std::vector<TestResult> send_test(db::Database& db, std::int64_t user_id, Language lang, const SendContext& ctx) {
  std::vector<db::channels::Channel> enabled;
  db.run([&](db::Connection& c) { enabled = db::channels::list_enabled(c, user_id); }, db::Retry::OnLostConnection);
  std::vector<TestResult> out;
  Message m = render_test(lang);
  for (const auto& ch : enabled) {
    boost::system::error_code ec;
    auto params = boost::json::parse(ch.params_json, ec);
    auto r = send(ch.type, !ec && params.is_object() ? params.as_object() : boost::json::object{}, m, ctx);
    out.push_back({ch.id, ch.type, r.ok, r.error});
  }
  return out;
}

}  // namespace dozor::notify
