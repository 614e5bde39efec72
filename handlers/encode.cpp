#include "handlers/encode.hpp"

#include <boost/json/parse.hpp>

#include "engines/monitor/services.hpp"
#include "engines/secrets.hpp"

namespace dozor::handlers {
namespace {

template <typename T>
boost::json::value or_null(const std::optional<T>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

// Secrets inside channel params (bot tokens, SMTP passwords) leave the server masked.
boost::json::value masked_params(const std::string& json) {
  boost::system::error_code ec;
  auto v = boost::json::parse(json, ec);
  if (ec || !v.is_object()) return boost::json::object{};
  return secrets::mask_json(v);
}

}  // namespace

boost::json::value encode(const db::users::User& u, boost::json::storage_ptr sp) {
  return boost::json::value({{"id", u.id},
                             {"username", u.username},
                             {"email", u.email},
                             {"is_active", u.is_active},
                             {"is_admin", u.is_admin},
                             {"created_at", u.created_at}},
                            sp);
}

boost::json::value encode(const db::services::Service& s, boost::json::storage_ptr sp) {
  return boost::json::value({{"id", s.id},
                             {"name", s.name},
                             {"url", s.url},
                             {"check_interval", s.check_interval},
                             {"is_active", s.is_active},
                             {"last_status", or_null(s.last_status)},
                             {"last_response_time", or_null(s.last_response_time)},
                             {"last_checked_at", or_null(s.last_checked_at)},
                             {"group_id", or_null(s.group_id)},
                             {"state", s.state},
                             {"pending", monitor::is_pending(s)},
                             {"next_check_at", or_null(s.next_check_at)},
                             {"down_since", or_null(s.down_since)},
                             {"last_error", or_null(s.last_error)},
                             {"cert_expires_at", or_null(s.cert_expires_at)},
                             {"method", s.options.method},
                             {"expected_status", or_null(s.options.expected_status)},
                             {"keyword", or_null(s.options.keyword)},
                             {"keyword_absent", s.options.keyword_absent},
                             {"slow_ms", or_null(s.slow_ms)}},
                            sp);
}

boost::json::value encode(const db::groups::Group& g, boost::json::storage_ptr sp) {
  return boost::json::value({{"id", g.id},
                             {"name", g.name},
                             {"description", or_null(g.description)},
                             {"color", g.color},
                             {"services_count", g.services_count},
                             {"status_slug", or_null(g.status_slug)},
                             {"status_public", g.status_public},
                             {"status_show_urls", g.status_show_urls},
                             {"status_announcement", or_null(g.status_announcement)},
                             {"status_title", or_null(g.status_title)}},
                            sp);
}

boost::json::value encode(const db::channels::Channel& c, boost::json::storage_ptr sp) {
  // Additive to ChannelOut (docs/api.md): the outbox's latest delivered message and latest failed
  // attempt, so a settings page can show whether the channel works.
  boost::json::value delivery = nullptr, failure = nullptr;
  if (const auto& d = c.last_delivery)
    delivery = {{"at", d->at}, {"kind", d->kind}, {"service_name", or_null(d->service_name)}};
  if (const auto& f = c.last_failure) failure = {{"at", f->at}, {"error", f->error}, {"message_state", f->state}};
  return boost::json::value({{"id", c.id},
                             {"type", c.type},
                             {"enabled", c.enabled},
                             {"params", masked_params(c.params_json)},
                             {"last_delivery", std::move(delivery)},
                             {"last_failure", std::move(failure)}},
                            sp);
}

boost::json::value encode(const monitor::CheckResult& r, boost::json::storage_ptr sp) {
  return boost::json::value({{"service_id", r.service_id},
                             {"checked_at", r.checked_at},
                             {"is_available", r.is_available},
                             {"status_code", or_null(r.status_code)},
                             {"response_time_ms", or_null(r.response_time_ms)},
                             {"error", or_null(r.error)}},
                            sp);
}

}  // namespace dozor::handlers
