#pragma once
// Rules for the values a channel's params may hold (docs/notifications.md "What a channel may
// hold"): the routes refuse what breaks them (422 at the field), and the sender checks them again
// before any byte leaves, so a value stored before a rule existed is refused too.
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

namespace dozor::notify {

// C0 controls (NUL, TAB, CR, LF …), DEL, and the C1 controls U+0080..U+009F: none belongs in a
// token, a host, an address or a credential, and CR/LF would end an SMTP command or a header.
bool has_control_chars(std::string_view s);

// A Telegram bot token's alphabet ("123456:AA-bb_CC"): it becomes a path segment of the Bot
// API URL, so '/', '?', '#', '%' and spaces could aim the request elsewhere.
bool is_telegram_token_text(std::string_view token);

// An SMTP host is a DNS name (letters, digits, '-', '.') or an IP address (IPv6 with or without
// brackets); nothing else may reach the smtp:// URL (no '@', '/', ':' port or path). The reason
// when it is not, else nullopt.
std::optional<std::string> smtp_host_problem(std::string_view host);
// The host as the authority of an smtp:// URL: an IPv6 address in brackets.
std::string smtp_url_host(std::string_view host);

// A Telegram proxy: http, https, socks5 or socks5h, a host, an optional port, optional userinfo,
// no path beyond "/", no query or fragment, and nothing that decodes to a control character.
struct UrlIssue {
  std::string type;  // url_parsing | url_scheme
  std::string msg;
};
std::optional<UrlIssue> proxy_problem(std::string_view proxy);

// The first string member of `params` (at any depth) holding a control character, or nullopt.
std::optional<std::string> member_with_control_chars(const boost::json::object& params);

}  // namespace dozor::notify
