#include "engines/notify/transition.hpp"

#include <cppconn/prepared_statement.h>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

namespace dozor::notify {

std::string event_key(const Transition& t) {
  return "incident:" + std::to_string(t.incident_id) + (t.up ? ":up" : ":down");
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
  // INSERT … SELECT over the user's enabled channels: one statement whatever their number. A
  // duplicate event key (the same event enqueued twice) keeps the existing row; unlike IGNORE,
  // this hides no other error.
  auto& st = c.prepare(
      "INSERT INTO notification_outbox (channel_id, user_id, event_key, kind, payload)"
      " SELECT id, user_id, ?, ?, ? FROM channels WHERE user_id = ? AND enabled = TRUE"
      " ON DUPLICATE KEY UPDATE notification_outbox.id = notification_outbox.id");
  st.setString(1, event_key(t));
  st.setString(2, t.up ? "service_up" : "service_down");
  st.setString(3, boost::json::serialize(payload));
  st.setInt64(4, t.user_id);
  return st.executeUpdate();
}

}  // namespace dozor::notify
