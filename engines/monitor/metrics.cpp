#include "engines/monitor/metrics.hpp"

#include <cstdio>
#include <map>
#include <sstream>

namespace dozor::monitor {
namespace {

void family(std::ostringstream& out, const char* name, const char* type, const char* help) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

std::string seconds(std::int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ms) / 1000.0);
  return buf;
}

std::string service_labels(const db::monitor::ServiceFigures& s) {
  return "{service_id=\"" + std::to_string(s.service_id) + "\",user_id=\"" + std::to_string(s.user_id) + "\"}";
}

std::string daemon_labels(const db::monitor::DaemonFigures& d) {
  return "{owner=\"" + escape_label(d.owner) + "\",location=\"" + escape_label(d.location) + "\"}";
}

}  // namespace

std::string escape_label(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string render_metrics(const db::monitor::MetricsSnapshot& m) {
  std::ostringstream out;
  std::map<std::string, std::int64_t> by_state{{"up", 0}, {"down", 0}, {"unknown", 0}};
  std::int64_t paused = 0;
  for (const auto& s : m.services) {
    if (s.active)
      ++by_state[s.state];
    else
      ++paused;
  }
  family(out, "dozor_services", "gauge", "Active services by debounced state.");
  for (const auto& [state, n] : by_state) out << "dozor_services{state=\"" << state << "\"} " << n << '\n';
  family(out, "dozor_services_paused", "gauge", "Services that are not checked (is_active false).");
  out << "dozor_services_paused " << paused << '\n';

  family(out, "dozor_service_up", "gauge", "1 when an active service is up, 0 when down (never-checked ones omitted).");
  for (const auto& s : m.services)
    if (s.active && s.state != "unknown")
      out << "dozor_service_up" << service_labels(s) << ' ' << (s.state == "up" ? 1 : 0) << '\n';
  family(out, "dozor_service_response_time_seconds", "gauge", "Response time of the latest check that got an answer.");
  for (const auto& s : m.services)
    if (s.last_response_ms)
      out << "dozor_service_response_time_seconds" << service_labels(s) << ' ' << seconds(*s.last_response_ms) << '\n';
  family(out, "dozor_service_checks_total", "counter", "Checks of the service (scheduled and on demand).");
  for (const auto& s : m.services)
    out << "dozor_service_checks_total" << service_labels(s) << ' ' << s.checks_total << '\n';
  family(out, "dozor_service_failures_total", "counter", "Checks that found the service unavailable.");
  for (const auto& s : m.services)
    out << "dozor_service_failures_total" << service_labels(s) << ' ' << s.failures_total << '\n';
  family(out, "dozor_service_cert_expiry_timestamp_seconds", "gauge",
         "When the service's TLS certificate expires (Unix time), as last seen.");
  for (const auto& s : m.services)
    if (s.cert_expires)
      out << "dozor_service_cert_expiry_timestamp_seconds" << service_labels(s) << ' ' << *s.cert_expires << '\n';

  family(out, "dozord_up", "gauge", "1 when the dozord wrote its heartbeat within the last 30 s.");
  for (const auto& d : m.daemons)
    out << "dozord_up" << daemon_labels(d) << ' ' << (d.beat_age_ms < kDaemonStaleMs) << '\n';
  family(out, "dozord_heartbeat_age_seconds", "gauge", "Time since the dozord's last heartbeat.");
  for (const auto& d : m.daemons)
    out << "dozord_heartbeat_age_seconds" << daemon_labels(d) << ' ' << seconds(d.beat_age_ms) << '\n';
  family(out, "dozord_checks_total", "counter", "Checks the dozord ran since it started.");
  for (const auto& d : m.daemons) out << "dozord_checks_total" << daemon_labels(d) << ' ' << d.checks_done << '\n';
  family(out, "dozord_checks_in_flight", "gauge", "Checks running at the last heartbeat.");
  for (const auto& d : m.daemons) out << "dozord_checks_in_flight" << daemon_labels(d) << ' ' << d.in_flight << '\n';
  family(out, "dozord_resident_memory_bytes", "gauge", "Resident memory of the dozord process.");
  for (const auto& d : m.daemons)
    out << "dozord_resident_memory_bytes" << daemon_labels(d) << ' ' << d.rss_bytes << '\n';
  family(out, "dozord_cpu_seconds_total", "counter", "CPU time (user and system) of the dozord process.");
  for (const auto& d : m.daemons)
    out << "dozord_cpu_seconds_total" << daemon_labels(d) << ' ' << seconds(d.cpu_ms) << '\n';
  family(out, "dozord_start_time_seconds", "gauge", "When the dozord started (Unix time).");
  for (const auto& d : m.daemons) out << "dozord_start_time_seconds" << daemon_labels(d) << ' ' << d.started_at << '\n';

  family(out, "dozor_notifications_pending", "gauge", "Notification outbox rows waiting to be delivered.");
  out << "dozor_notifications_pending " << m.outbox_pending << '\n';
  return out.str();
}

std::string metrics_text(db::Database& db) {
  db::monitor::MetricsSnapshot m;
  db.run([&](db::Connection& c) { m = db::monitor::metrics_snapshot(c); }, db::Retry::OnLostConnection);
  return render_metrics(m);
}

}  // namespace dozor::monitor
