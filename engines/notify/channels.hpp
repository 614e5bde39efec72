#pragma once
// A user's notification channels (spec §4.7): storage rules the routes share — a secret sent back
// masked keeps the stored one, the bulk route updates the channel of a type or creates it — and
// the test notification sent to every enabled channel.
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/channels_repo.hpp"
#include "db/database.hpp"
#include "engines/notify/send.hpp"

namespace dozor::notify {

struct ChannelInput {
  std::string type;  // messenger | email (validated by the caller)
  bool enabled = true;
  boost::json::object params;  // validated for the type; secrets may be masked echoes
};

std::vector<db::channels::Channel> list_channels(db::Database& db, std::int64_t user_id);
db::channels::Channel create_channel(db::Database& db, std::int64_t user_id, const ChannelInput& in);
// Throws NotFound for another user's or an unknown channel.
db::channels::Channel update_channel(db::Database& db, std::int64_t user_id, std::int64_t id, const ChannelInput& in);
void delete_channel(db::Database& db, std::int64_t user_id, std::int64_t id);
// Updates the user's channel of in.type, or creates one.
db::channels::Channel upsert_by_type(db::Database& db, std::int64_t user_id, const ChannelInput& in);

struct TestResult {
  std::int64_t channel_id = 0;
  std::string type;
  bool ok = false;
  std::string error;
};
std::vector<TestResult> send_test(db::Database& db, std::int64_t user_id, Language lang, const SendContext& ctx);

// Secret members that arrive masked ("****12") take the stored value instead.
boost::json::object keep_masked_secrets(boost::json::object incoming, const std::string& stored_json);

}  // namespace dozor::notify
