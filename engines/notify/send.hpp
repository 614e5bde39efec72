#pragma once
// Delivery of one message to one channel: Telegram Bot API (messenger) or SMTP (email), both
// with libcurl. Sockets to user-chosen hosts (an SMTP server, a proxy) pass the egress policy;
// environment proxies are never used. Error texts never contain a token or password.
#include <boost/json/object.hpp>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "engines/net/egress_policy.hpp"
#include "engines/notify/message.hpp"

namespace dozor::notify {

struct SendContext {
  std::string telegram_api_base = "https://api.telegram.org";  // operator config: trusted
  const net::EgressPolicy* egress = nullptr;
  std::chrono::seconds timeout{15};
};

struct SendResult {
  bool ok = false;
  std::string error;       // empty when ok
  long retry_after_s = 0;  // the server asked to wait this long (Telegram 429)
};

SendResult send(const std::string& type, const boost::json::object& params, const Message& m, const SendContext& ctx);

// The RFC 5322 message an email channel sends (exposed for tests).
std::string build_email(const std::string& from, const std::vector<std::string>& to, const Message& m, std::time_t now);

}  // namespace dozor::notify
