#pragma once
// A user's notification channels (spec §4.7): storage rules the routes share — a secret sent back
// masked keeps the stored one, at most limits::kChannelsPerUser channels, the bulk route updates
// the channel of a type (merging what it names into what is stored) or creates it — and the test
// notification, sent to every enabled channel at once within one deadline, one test per user.
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
  // Validated for the type, with its defaults; {} for a channel not configured yet (ChannelIn's
  // default). Secrets may be masked echoes.
  boost::json::object params;
  // The bulk route merges: updating a stored channel, only the members of params the request
  // named replace the stored ones, and `enabled` only when it was named.
  bool merge = false;
  std::vector<std::string> named;
  bool enabled_named = true;
};

std::vector<db::channels::Channel> list_channels(db::Database& db, std::int64_t user_id);
// Throws Conflict when the user already has limits::kChannelsPerUser channels.
db::channels::Channel create_channel(db::Database& db, std::int64_t user_id, const ChannelInput& in);
// Throws NotFound for another user's or an unknown channel.
db::channels::Channel update_channel(db::Database& db, std::int64_t user_id, std::int64_t id, const ChannelInput& in);
void delete_channel(db::Database& db, std::int64_t user_id, std::int64_t id);
// Updates the user's channel of in.type, or creates one (Conflict past the bound).
db::channels::Channel upsert_by_type(db::Database& db, std::int64_t user_id, const ChannelInput& in);

struct TestResult {
  std::int64_t channel_id = 0;
  std::string type;
  SendResult outcome;
};
// The test message to the user's enabled channels — or to the one channel `only` names, enabled
// or not (NotFound when it is not the user's) — all at once, answering within
// limits::kNotifyTestSeconds. Throws Busy while another test of the user is in flight.
std::vector<TestResult> send_test(db::Database& db, std::int64_t user_id, Language lang, const SendContext& ctx,
                                  std::optional<std::int64_t> only = std::nullopt);

// Secret members that arrive masked ("****12") take the stored value instead; so does a URL
// whose userinfo arrives masked when it is the stored URL's masked form. A masked URL that
// differs from the stored one in anything else throws InvalidField at ["params", name]: a
// stored password is never carried to another host.
boost::json::object keep_masked_secrets(boost::json::object incoming, const std::string& stored_json);

}  // namespace dozor::notify
