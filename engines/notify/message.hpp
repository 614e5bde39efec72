#pragma once
// The words of a notification, in English or Russian (`notify.language`): a subject, a plain
// text and an HTML body (Telegram's HTML parse mode and the e-mail's HTML part).
#include <boost/json/object.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace dozor::notify {

enum class Language { En, Ru };
Language parse_language(const std::string& code);  // "ru" → Ru, anything else → En

struct Message {
  std::string subject;
  std::string text;
  std::string html;
};

// From an outbox payload (engines/notify/transition): name, URL, status, error, and on recovery
// the outage's duration.
Message render_transition(const boost::json::object& payload, Language lang);
Message render_test(Language lang);
// From a cert_expiring payload: name, URL, expiry date and the days left.
Message render_cert_warning(const boost::json::object& payload, Language lang);
// From an owasp_findings payload: name, URL, how many new serious findings, the first titles.
Message render_new_findings(const boost::json::object& payload, Language lang);
// The message for an outbox row of `kind` (service_down, service_up, cert_expiring,
// owasp_findings, test).
Message render(const std::string& kind, const boost::json::object& payload, Language lang);

// &, <, > and " as entities: what Telegram's HTML mode and HTML e-mail both need.
std::string html_escape(std::string_view s);
// "2 h 5 min", "45 s" / "2 ч 5 мин", "45 с".
std::string format_duration(std::int64_t seconds, Language lang);

}  // namespace dozor::notify
