#include "engines/notify/channels.hpp"

#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/secrets.hpp"

namespace dozor::notify {
namespace {

boost::json::object parse_object(const std::string& json) {
  boost::system::error_code ec;
  auto v = boost::json::parse(json, ec);
  return !ec && v.is_object() ? std::move(v.as_object()) : boost::json::object{};
}

std::string text_of(const boost::json::object& o, const char* key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The stored channel updated with `in`: merged (bulk) or replaced, masked secrets restored.
db::channels::Channel updated(const db::channels::Channel& old, const ChannelInput& in) {
  boost::json::object params = in.params;
  bool enabled = in.enabled;
  if (in.merge && old.type == in.type) {
    // What the request did not name keeps its stored value (bulk, docs/notifications.md) —
    // secrets as their masks, so that the rules of a masked echo apply to them too (a stored
    // password does not follow a new host).
    auto carried = secrets::mask_json(parse_object(old.params_json));
    for (const auto& [key, value] : carried.as_object())
      if (std::find(in.named.begin(), in.named.end(), std::string(key)) == in.named.end()) params[key] = value;
    if (!in.enabled_named) enabled = old.enabled;
  }
  return {old.id,
          in.type,
          enabled,
          boost::json::serialize(keep_masked_secrets(std::move(params), old.params_json)),
          old.last_delivery,
          old.last_failure};
}

// Takes the user's row lock first (every writer's first lock): concurrent creates of one user
// wait for each other, so neither the bound nor "one channel per type" of the bulk route races.
bool has_room(db::Connection& c, std::int64_t user_id) {
  return db::channels::count_locked(c, user_id) < static_cast<std::int64_t>(limits::kChannelsPerUser);
}

Conflict full() {
  return Conflict("Channel limit reached: at most " + std::to_string(limits::kChannelsPerUser) + " channels per user");
}

// A claim owner no other request shares: host, process and 64 random bits.
std::string claim_owner() {
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  unsigned char rnd[8];
  randombytes_buf(rnd, sizeof rnd);
  char hex[17];
  sodium_bin2hex(hex, sizeof hex, rnd, sizeof rnd);
  return std::string(host) + ":" + std::to_string(getpid()) + ":" + hex;
}

}  // namespace

boost::json::object keep_masked_secrets(boost::json::object incoming, const std::string& stored_json) {
  boost::json::object old = parse_object(stored_json);
  std::optional<std::string> restored;  // the first secret taken from storage
  for (auto& [key, value] : incoming) {
    if (!value.is_string()) continue;
    const boost::json::value* before = old.if_contains(key);
    if (secrets::is_secret_name(key)) {
      if (!secrets::is_masked(value.as_string()) || !before) continue;
      value = *before;
      if (!restored) restored = std::string(key);
    } else if (secrets::has_masked_userinfo(value.as_string())) {
      auto stored_masked = before && before->is_string() ? secrets::mask_url_userinfo(before->get_string())
                                                         : std::optional<std::string>();
      if (!stored_masked || *stored_masked != value.as_string())
        throw InvalidField::at({"params", std::string(key)},
                               "the URL's credentials are masked (****): send them in full to change the URL");
      value = *before;
    }
  }
  // A stored secret goes only where it went before: with a new host it must be sent again.
  if (restored && text_of(incoming, "host") != text_of(old, "host"))
    throw InvalidField::at({"params", *restored},
                           "the stored " + *restored + " is kept only for the same host: send it again to change host");
  return incoming;
}

std::vector<db::channels::Channel> list_channels(db::Database& db, std::int64_t user_id) {
  std::vector<db::channels::Channel> out;
  db.run([&](db::Connection& c) { out = db::channels::list_by_user(c, user_id); }, db::Retry::OnLostConnection);
  return out;
}

db::channels::Channel create_channel(db::Database& db, std::int64_t user_id, const ChannelInput& in) {
  db::channels::Channel ch{0, in.type, in.enabled, boost::json::serialize(in.params), {}, {}};
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          if (!has_room(c, user_id)) throw full();
          ch.id = db::channels::insert(c, user_id, ch);
        });
      },
      db::Retry::Never);
  return ch;
}

db::channels::Channel update_channel(db::Database& db, std::int64_t user_id, std::int64_t id, const ChannelInput& in) {
  std::optional<db::channels::Channel> saved;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto old = db::channels::find_owned(c, user_id, id);
          if (!old) return;
          auto ch = updated(*old, in);
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
          bool room = has_room(c, user_id);  // first: the lock, then the channel of the type
          auto old = db::channels::first_of_type(c, user_id, in.type);
          if (old) {
            try {
              ch = updated(*old, in);
            } catch (InvalidField& f) {  // the bulk body names the kind, not "params"
              if (!f.loc.empty()) f.loc.front() = in.type;
              throw;
            }
            db::channels::update_owned(c, user_id, ch);
          } else {
            if (!room) throw full();
            ch = {0, in.type, in.enabled, boost::json::serialize(in.params), {}, {}};
            ch.id = db::channels::insert(c, user_id, ch);
          }
        });
      },
      db::Retry::Never);
  return ch;
}

std::vector<TestResult> send_test(db::Database& db, std::int64_t user_id, Language lang, const SendContext& ctx,
                                  std::optional<std::int64_t> only) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits::kNotifyTestSeconds);
  const std::string owner = claim_owner();
  std::optional<long> busy;
  // Not retried on a lost connection: a claim whose commit was lost is freed by its lease.
  db.run([&](db::Connection& c) { busy = db::channels::claim_test(c, user_id, owner, limits::kNotifyTestSeconds + 5); },
         db::Retry::Never);
  if (busy) throw Busy("A test notification is already being sent; try again when it has finished", *busy);
  struct Release {
    db::Database& db;
    std::int64_t user_id;
    const std::string& owner;
    ~Release() {
      try {
        db.run([&](db::Connection& c) { db::channels::release_test(c, user_id, owner); }, db::Retry::OnLostConnection);
      } catch (...) {  // the lease frees it
      }
    }
  } release{db, user_id, owner};

  std::vector<db::channels::Channel> channels;
  db.run(
      [&](db::Connection& c) {
        if (!only) {
          channels = db::channels::list_enabled(c, user_id);
        } else if (auto one = db::channels::find_owned(c, user_id, *only)) {
          channels.push_back(std::move(*one));
        }
      },
      db::Retry::OnLostConnection);
  if (only && channels.empty()) throw NotFound("Channel not found");

  std::vector<Target> targets;
  targets.reserve(channels.size());
  for (const auto& ch : channels) targets.push_back({ch.type, parse_object(ch.params_json)});
  auto outcomes = send_all(targets, render_test(lang), ctx, deadline);
  std::vector<TestResult> out;
  out.reserve(channels.size());
  for (std::size_t i = 0; i < channels.size(); ++i)
    out.push_back({channels[i].id, channels[i].type, std::move(outcomes[i])});
  return out;
}

}  // namespace dozor::notify
