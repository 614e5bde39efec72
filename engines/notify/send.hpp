#pragma once
// Delivery of one message to one channel: Telegram Bot API (messenger) or SMTP (email), both
// with libcurl — one at a time (the outbox) or many at once within one deadline (the test
// route). Sockets to user-chosen hosts (an SMTP server, a proxy) pass the egress policy;
// environment proxies are never used. Error texts never contain a token or password.
#include <boost/json/object.hpp>
#include <chrono>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "engines/config/config.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/notify/message.hpp"

namespace dozor::notify {

struct SendContext {
  std::string telegram_api_base = "https://api.telegram.org";  // operator config: trusted
  // The operator's default sender (notify.smtp_from) for e-mail channels without from_addr;
  // empty: such a channel is not sent to. The channel's login name is never a sender.
  std::string smtp_from;
  const net::EgressPolicy* egress = nullptr;
  std::chrono::seconds timeout{15};
};

// What every sender of a process uses: the notify section, the egress policy, monitor.timeout.
SendContext send_context(const config::Config& cfg, const net::EgressPolicy& egress);

struct SendResult {
  bool ok = false;
  std::string error;       // empty when ok
  long retry_after_s = 0;  // the server asked to wait this long (Telegram 429)
  bool timed_out = false;  // no answer within the time allowed: the message may still arrive
  // E-mail: the envelope and From: sender, and whether it is the operator's default.
  std::string sender;
  bool default_sender = false;
};

// The sender of an e-mail channel: its from_addr, else the operator's notify.smtp_from (marked
// as the default), else none (empty address). Never the channel's username: a login name is a
// credential, not an address anyone vouched for, and it reached MAIL FROM unchecked.
struct Sender {
  std::string address;
  bool is_default = false;
};
Sender email_sender(const boost::json::object& params, const SendContext& ctx);

SendResult send(const std::string& type, const boost::json::object& params, const Message& m, const SendContext& ctx);

struct Target {
  std::string type;
  boost::json::object params;
};
// `m` to every target at once (one libcurl multi handle on this thread); returns when all are
// done or at `deadline`, whichever is first. Results are in the order of `targets`; a transfer
// still running at the deadline is abandoned with timed_out.
std::vector<SendResult> send_all(const std::vector<Target>& targets, const Message& m, const SendContext& ctx,
                                 std::chrono::steady_clock::time_point deadline);

// The one encoder of mail header lines: "Name: value\r\n". Throws std::invalid_argument when
// the value holds CR, LF or any other control character, so no value can start a header or a
// message of its own.
std::string mail_header(std::string_view name, std::string_view value);
// An address list header, folded between addresses (RFC 5322 lines stay short); same refusal.
std::string mail_address_header(std::string_view name, const std::vector<std::string>& addresses);
// An SMTP reverse or forward path, "<address>" (MAIL FROM, RCPT TO). Throws std::invalid_argument
// for control characters, '<', '>' or spaces: no address can add a command of its own.
std::string smtp_path(std::string_view address);

// The RFC 5322 message an email channel sends (exposed for tests). Throws std::invalid_argument
// when a sender or recipient cannot be a header value.
std::string build_email(const std::string& from, const std::vector<std::string>& to, const Message& m, std::time_t now);

}  // namespace dozor::notify
