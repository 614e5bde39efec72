#include "engines/notify/transition.hpp"

#include <cppconn/prepared_statement.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

namespace dozor::notify {

std::string event_key(const Transition& t) {
  return "incident:" + std::to_string(t.incident_id) + (t.up ? ":up" : ":down");
}

namespace {

int insert_rows(db::Connection& c, std::int64_t user_id, const std::string& key, const char* kind,
                const boost::json::object& payload) {
  // INSERT … SELECT over the user's enabled channels: one statement whatever their number. A
  // duplicate event key (the same event enqueued twice) keeps the existing row; unlike IGNORE,
  // this hides no other error.
  auto& st = c.prepare(
      "INSERT INTO notification_outbox (channel_id, user_id, event_key, kind, payload)"
      " SELECT id, user_id, ?, ?, ? FROM channels WHERE user_id = ? AND enabled = TRUE"
      " ON DUPLICATE KEY UPDATE notification_outbox.id = notification_outbox.id");
  st.setString(1, key);
  st.setString(2, kind);
  st.setString(3, boost::json::serialize(payload));
  st.setInt64(4, user_id);
  return st.executeUpdate();
}

}  // namespace

int enqueue(db::Connection& c, const CertWarning& w) {
  boost::json::object payload{{"service_id", w.service_id},
                              {"service_name", w.service_name},
                              {"url", w.url},
                              {"expires_at", w.expires_at},
                              {"days_left", w.days_left}};
  return insert_rows(c, w.user_id, "cert:" + std::to_string(w.service_id) + ":" + w.day, "cert_expiring", payload);
}

int enqueue(db::Connection& c, const NewFindings& f) {
  boost::json::array top;
  for (const auto& [severity, title] : f.top) top.push_back({{"severity", severity}, {"title", title}});
  boost::json::object payload{
      {"service_id", f.service_id}, {"service_name", f.service_name}, {"url", f.url}, {"scan_id", f.scan_id},
      {"total", f.total},           {"top", std::move(top)}};
  return insert_rows(c, f.user_id, "owasp:" + std::to_string(f.scan_id), "owasp_findings", payload);
}

int enqueue(db::Connection& c, const Transition& t) {
  boost::json::object payload{{"service_id", t.service_id},
                              {"incident_id", t.incident_id},
                              {"up", t.up},
                              {"service_name", t.service_name},
                              {"url", t.url},
                              {"error", t.error},
                              {"outage_seconds", t.outage_seconds},
                              {"at", t.at}};
  return insert_rows(c, t.user_id, event_key(t), t.up ? "service_up" : "service_down", payload);
}

}  // namespace dozor::notify
